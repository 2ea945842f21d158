// The holders list of a frozen draw (docs/operations.md#the-steps): one line per
// eligible number, `S/EEEEE;H`, in the canonical list's order, H the holder's index (1, 2, … by
// first appearance; one document is one holder). With it and the five prizes anyone can redo the
// draw, one win per document included, without a single personal datum; its SHA-256 is fixed at
// the freeze, and so is each number's index, stored beside the frozen set (draw_numbers.holders),
// so the list printed after anonymisations or new entries is the list the freeze hashed.
//
// The freeze learns each number's holder as an integer key (the enrollment's rowid) while it
// scans, entry by entry, in no particular order. Each series keeps its keys as (element, key)
// pairs while it is sparse and as an array indexed by element once it is not (addHeld); the keys
// are then read in ascending order and numbered by first appearance (indexHolders). Stored per
// series as runs: LEB128 pairs (zigzag of the index minus the previous run's, run length − 1),
// from 0 for each series: a holder's consecutive numbers are one run, a new holder a step of +1.
//
// addHeld, keysInOrder, indexHolders, encodeHolderRuns and holdersSeriesChunks are self-contained
// (no closure, call or import): scan-thread.ts runs their very source on the freeze's thread.

export interface HeldSeries {
  series: number;
  /** The numbers held in the series (bits set in data). */
  count: number;
  /** The series' bitmap, element e at bit e & 7 of byte e >> 3. */
  data: Uint8Array;
  /** The holder key of each element, once the series is dense; else null. */
  dense: Uint32Array | null;
  /** While sparse: the elements and their keys, in the order met, `len` of them. */
  els: Uint32Array | null;
  keys: Uint32Array | null;
  len: number;
}

/** Records the holder key of element e, newly set in the series' bitmap. */
export function addHeld(s: HeldSeries, e: number, key: number, elementsPerSeries: number): void {
  if (s.dense !== null) {
    s.dense[e] = key;
    return;
  }
  if (s.els === null || s.len === s.els.length) {
    const size = s.els === null ? 16 : s.els.length * 2;
    // Past a quarter of the series, the pairs would cost more than an array indexed by element.
    if (size > elementsPerSeries / 4) {
      const dense = new Uint32Array(elementsPerSeries);
      for (let i = 0; i < s.len; i++) dense[s.els![i]!] = s.keys![i]!;
      dense[e] = key;
      s.dense = dense;
      s.els = null;
      s.keys = null;
      s.len = 0;
      return;
    }
    const els = new Uint32Array(size);
    const keys = new Uint32Array(size);
    if (s.els !== null) {
      els.set(s.els);
      keys.set(s.keys!);
    }
    s.els = els;
    s.keys = keys;
  }
  s.els[s.len] = e;
  s.keys![s.len] = key;
  s.len++;
}

/** The series' holder keys in ascending element order (one per number). */
export function keysInOrder(s: HeldSeries): Uint32Array {
  const out = new Uint32Array(s.count);
  if (s.dense !== null) {
    let i = 0;
    for (let byte = 0; byte < s.data.length; byte++) {
      for (let b = s.data[byte]!; b !== 0; b &= b - 1) out[i++] = s.dense[byte * 8 + 31 - Math.clz32(b & -b)]!;
    }
    return out;
  }
  const pairs = new Float64Array(s.len);
  for (let i = 0; i < s.len; i++) pairs[i] = s.els![i]! * 4294967296 + s.keys![i]!;
  pairs.sort();
  for (let i = 0; i < s.len; i++) out[i] = pairs[i]! % 4294967296;
  return out;
}

/**
 * Turns one series' keys (keysInOrder) into holder indexes, in place: a key met first gets the next
 * index. `indexOf` maps key − minKey to an index (0: not met yet) and `state.next` is the last
 * index given; both carry over from one series to the next, taken in ascending order.
 */
export function indexHolders(keys: Uint32Array, indexOf: Uint32Array, minKey: number, state: { next: number }): Uint32Array {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]! - minKey;
    let h = indexOf[k]!;
    if (h === 0) {
      h = ++state.next;
      indexOf[k] = h;
    }
    keys[i] = h;
  }
  return keys;
}

/** One series' holder indexes as stored: runs of LEB128 pairs (zigzag(index − previous run's), length − 1). */
export function encodeHolderRuns(indexes: Uint32Array): Uint8Array {
  // No inner function: a bundler may wrap one in a helper the thread does not have.
  let out = new Uint8Array(Math.max(16, indexes.length >> 1));
  let at = 0;
  let previous = 0;
  for (let i = 0; i < indexes.length;) {
    const h = indexes[i]!;
    let j = i + 1;
    while (j < indexes.length && indexes[j] === h) j++;
    const delta = h - previous;
    const pair = [delta >= 0 ? delta * 2 : -delta * 2 - 1, j - i - 1];
    if (at + 12 > out.length) {
      const grown = new Uint8Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    for (let v of pair) {
      while (v >= 0x80) {
        out[at++] = (v & 0x7f) | 0x80;
        v = Math.floor(v / 128);
      }
      out[at++] = v;
    }
    previous = h;
    i = j;
  }
  return out.slice(0, at);
}

/** The indexes encodeHolderRuns stored for a series of `count` numbers. */
export function decodeHolderRuns(data: Uint8Array, count: number, series: number): Uint32Array {
  const out = new Uint32Array(count);
  let i = 0;
  let n = 0;
  let previous = 0;
  const read = (): number => {
    let v = 0;
    let scale = 1;
    let byte: number;
    do {
      if (i === data.length || scale > 2 ** 35) throw new Error(`series ${series}: the holders' runs are cut short`);
      byte = data[i++]!;
      v += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return v;
  };
  while (i < data.length) {
    const z = read();
    const h = previous + (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
    const length = read() + 1;
    if (n + length > count || h < 1) throw new Error(`series ${series}: the holders' runs do not match its ${count} numbers`);
    out.fill(h, n, n + length);
    n += length;
    previous = h;
  }
  if (n !== count) throw new Error(`series ${series}: holders for ${n} of its ${count} numbers`);
  return out;
}

/**
 * One series' lines of the holders list, `S/EEEEE;H\n`, from its bitmap and its numbers' holder
 * indexes (ascending), in chunks of at most `linesPerChunk` lines.
 */
export function* holdersSeriesChunks(
  prefix: Uint8Array,
  bits: Uint8Array,
  indexes: Uint32Array,
  linesPerChunk: number,
): Generator<Uint8Array> {
  const size = linesPerChunk * (prefix.length + 18);
  let out = new Uint8Array(size);
  let at = 0;
  let lines = 0;
  let i = 0;
  for (let byte = 0; byte < bits.length; byte++) {
    let b = bits[byte]!;
    while (b !== 0) {
      let v = byte * 8 + 31 - Math.clz32(b & -b);
      b &= b - 1;
      out.set(prefix, at);
      at += prefix.length;
      for (let k = 4; k >= 0; k--) {
        out[at + k] = 48 + (v % 10);
        v = (v - (v % 10)) / 10;
      }
      at += 5;
      out[at++] = 59;
      let h = indexes[i++]!;
      let digits = 1;
      for (let t = h; t >= 10; t = (t - (t % 10)) / 10) digits++;
      for (let k = digits - 1; k >= 0; k--) {
        out[at + k] = 48 + (h % 10);
        h = (h - (h % 10)) / 10;
      }
      at += digits;
      out[at++] = 10;
      if (++lines === linesPerChunk) {
        yield out.subarray(0, at);
        out = new Uint8Array(size);
        at = 0;
        lines = 0;
      }
    }
  }
  if (at > 0) yield out.subarray(0, at);
}
