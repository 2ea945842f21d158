// The frozen set of a draw's eligible numbers: one bitmap of 100,000 bits per series that holds
// any, addressed by n = series * 100,000 + element. Stored per series as whichever is smallest:
// the bitmap itself (12,500 bytes), the ascending elements as LEB128 gaps, or the elements the
// series lacks as LEB128 gaps. A sparse series costs 1 to 3 bytes a number, a half-full one 1 bit,
// and a series that numbers given in order filled, where only rejected entries' numbers are
// missing, 1 to 3 bytes a missing number: nothing at all when it is full. The canonical list
// (docs/operations.md#the-steps) and its SHA-256 are computed from the set, never stored beside it.
import { createHash } from 'node:crypto';
import { ELEMENTS_PER_SERIES } from './formation.ts';

const BITMAP_BYTES = ELEMENTS_PER_SERIES / 8;
export const ENCODING_BITMAP = 0;
export const ENCODING_GAPS = 1;
export const ENCODING_MISSING_GAPS = 2;

export interface EncodedSeries {
  series: number;
  encoding: typeof ENCODING_BITMAP | typeof ENCODING_GAPS | typeof ENCODING_MISSING_GAPS;
  count: number;
  data: Uint8Array;
}

export class NumberSet {
  readonly seriesCount: number;
  readonly #bitmaps = new Map<number, Uint8Array>();
  #sortedSeries: number[] | null = null;
  #count = 0;

  constructor(seriesCount: number) {
    this.seriesCount = seriesCount;
  }

  get count(): number {
    return this.#count;
  }

  /** The series that hold at least one number, ascending. */
  series(): number[] {
    this.#sortedSeries ??= [...this.#bitmaps.keys()].sort((a, b) => a - b);
    return this.#sortedSeries;
  }

  add(series: number, element: number): void {
    if (!Number.isInteger(series) || series < 0 || series >= this.seriesCount)
      throw new RangeError(`series ${series} is outside 0..${this.seriesCount - 1}`);
    if (!Number.isInteger(element) || element < 0 || element >= ELEMENTS_PER_SERIES)
      throw new RangeError(`element ${element} is outside 0..99999`);
    let bits = this.#bitmaps.get(series);
    if (bits === undefined) {
      bits = new Uint8Array(BITMAP_BYTES);
      this.#bitmaps.set(series, bits);
      this.#sortedSeries = null;
    }
    const mask = 1 << (element & 7);
    if ((bits[element >> 3]! & mask) === 0) {
      bits[element >> 3]! |= mask;
      this.#count++;
    }
  }

  has(series: number, element: number): boolean {
    const bits = this.#bitmaps.get(series);
    return bits !== undefined && (bits[element >> 3]! & (1 << (element & 7))) !== 0;
  }

  hasSeries(series: number): boolean {
    return this.#bitmaps.has(series);
  }

  /** The smallest element >= from in the series, or -1. */
  nextInSeries(series: number, from: number): number {
    const bits = this.#bitmaps.get(series);
    if (bits === undefined || from >= ELEMENTS_PER_SERIES) return -1;
    let e = Math.max(from, 0);
    let byte = e >> 3;
    let b = bits[byte]! >> (e & 7);
    if (b !== 0) return e + ctz8(b);
    for (byte++; byte < BITMAP_BYTES; byte++) {
      b = bits[byte]!;
      if (b !== 0) return byte * 8 + ctz8(b);
    }
    return -1;
  }

  /** The largest element <= from in the series, or -1. */
  prevInSeries(series: number, from: number): number {
    const bits = this.#bitmaps.get(series);
    if (bits === undefined || from < 0) return -1;
    const e = Math.min(from, ELEMENTS_PER_SERIES - 1);
    let byte = e >> 3;
    let b = bits[byte]! & ((2 << (e & 7)) - 1);
    if (b !== 0) return byte * 8 + 31 - Math.clz32(b);
    for (byte--; byte >= 0; byte--) {
      b = bits[byte]!;
      if (b !== 0) return byte * 8 + 31 - Math.clz32(b);
    }
    return -1;
  }

  /** The series' bitmap (NumberSet's own: read it, never change it), or undefined when it holds none. */
  bitmapOf(series: number): Uint8Array | undefined {
    return this.#bitmaps.get(series);
  }

  /** Every number in ascending (series, element) order. */
  *numbers(): Generator<[series: number, element: number]> {
    for (const s of this.series()) {
      for (let e = this.nextInSeries(s, 0); e !== -1; e = this.nextInSeries(s, e + 1)) yield [s, e];
    }
  }

  /** Series by series, as stored: the bitmap, the gaps or the missing elements' gaps, whichever is smallest. */
  encode(): EncodedSeries[] {
    return this.series().map((series) => ({ series, ...encodeBitmap(this.#bitmaps.get(series)!) }));
  }

  static decode(seriesCount: number, parts: readonly EncodedSeries[]): NumberSet {
    const set = new NumberSet(seriesCount);
    for (const part of parts) {
      if (!Number.isInteger(part.series) || part.series < 0 || part.series >= seriesCount)
        throw new RangeError(`series ${part.series} is outside 0..${seriesCount - 1}`);
      const bits = decodeBitmap(part);
      const count = popcount(bits);
      if (count !== part.count) throw new Error(`series ${part.series}: stored count ${part.count} does not match its numbers`);
      set.#bitmaps.set(part.series, bits);
      set.#count += count;
    }
    return set;
  }
}

/** One stored series as its bitmap (a copy: the part is left as it is). */
function decodeBitmap(part: EncodedSeries): Uint8Array {
  if (part.encoding === ENCODING_BITMAP) {
    if (part.data.length !== BITMAP_BYTES) throw new Error(`series ${part.series}: a bitmap of ${part.data.length} bytes`);
    return part.data.slice();
  }
  if (part.encoding !== ENCODING_GAPS && part.encoding !== ENCODING_MISSING_GAPS)
    throw new Error(`series ${part.series}: unknown encoding ${String(part.encoding)}`);
  // Gaps name the elements held, set in an empty bitmap; missing gaps those lacking, cleared in a full one.
  const missing = part.encoding === ENCODING_MISSING_GAPS;
  const bits = new Uint8Array(BITMAP_BYTES).fill(missing ? 0xff : 0);
  for (const e of readGaps(part)) {
    if (e >= ELEMENTS_PER_SERIES)
      throw new RangeError(`series ${part.series}: ${missing ? 'missing ' : ''}element ${e} is outside 0..99999`);
    if (missing) bits[e >> 3]! &= ~(1 << (e & 7));
    else bits[e >> 3]! |= 1 << (e & 7);
  }
  return bits;
}

/** The ascending elements that a part's LEB128 gaps (from -1) name. */
function* readGaps(part: EncodedSeries): Generator<number> {
  let e = -1;
  let i = 0;
  while (i < part.data.length) {
    let gap = 0;
    let shift = 0;
    let byte: number;
    do {
      if (i === part.data.length || shift > 14) throw new Error(`series ${part.series}: a gap is cut short or longer than 3 bytes`);
      byte = part.data[i++]!;
      gap |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    e += gap;
    yield e;
  }
}

/**
 * One series' bitmap (BITMAP_BYTES bytes, element e at bit e & 7 of byte e >> 3) as stored: the
 * smallest of the bitmap, the LEB128 gaps (from -1) between the elements it holds, and those
 * between the elements it lacks. A list is used only when it is under BITMAP_BYTES bytes, and the
 * held elements' list wins a tie with the missing ones'. Every gap takes at least a byte, so a list
 * of BITMAP_BYTES elements or more is never measured; a gap is below 2^17, at most 3 bytes. Self-contained, without a closure, a call or an import:
 * scan-thread.ts runs this very source on the freeze's thread, which hands back the stored form.
 */
export function encodeBitmap(bits: Uint8Array): { encoding: 0 | 1 | 2; count: number; data: Uint8Array } {
  const bytes = bits.length;
  let count = 0;
  for (let byte = 0; byte < bytes; byte++) for (let b = bits[byte]!; b !== 0; b &= b - 1) count++;
  // [held, missing]: the bytes of each list of gaps, `bytes` when it could not be smaller.
  const sizes = [count < bytes ? 0 : bytes, bytes * 8 - count < bytes ? 0 : bytes];
  for (let k = 0; k < 2; k++) {
    if (sizes[k] === bytes) continue;
    const flip = k === 0 ? 0 : 0xff;
    let previous = -1;
    let size = 0;
    for (let byte = 0; byte < bytes && size < bytes; byte++) {
      for (let b = bits[byte]! ^ flip; b !== 0; b &= b - 1) {
        const e = byte * 8 + 31 - Math.clz32(b & -b);
        const gap = e - previous;
        previous = e;
        size += gap < 0x80 ? 1 : gap < 0x4000 ? 2 : 3;
      }
    }
    sizes[k] = Math.min(size, bytes);
  }
  const k = sizes[0]! < bytes && sizes[0]! <= sizes[1]! ? 0 : sizes[1]! < bytes ? 1 : -1;
  if (k === -1) return { encoding: 0, count, data: bits.slice() };
  const flip = k === 0 ? 0 : 0xff;
  const data = new Uint8Array(sizes[k]!);
  let previous = -1;
  let i = 0;
  for (let byte = 0; byte < bytes; byte++) {
    for (let b = bits[byte]! ^ flip; b !== 0; b &= b - 1) {
      const e = byte * 8 + 31 - Math.clz32(b & -b);
      let gap = e - previous;
      previous = e;
      while (gap >= 0x80) {
        data[i++] = (gap & 0x7f) | 0x80;
        gap >>>= 7;
      }
      data[i++] = gap;
    }
  }
  return { encoding: k === 0 ? 1 : 2, count, data };
}

function ctz8(b: number): number {
  return 31 - Math.clz32(b & -b);
}

function popcount(bytes: Uint8Array): number {
  let n = 0;
  // Four bytes at a time where they line up (a bitmap of ours always does): 20 million numbers are 2.5 MB of bitmaps to count.
  if (bytes.byteOffset % 4 === 0 && bytes.length % 4 === 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    for (let i = 0; i < words.length; i++) {
      let w = words[i]!;
      w -= (w >>> 1) & 0x55555555;
      w = (w & 0x33333333) + ((w >>> 2) & 0x33333333);
      n += (Math.imul((w + (w >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
    }
    return n;
  }
  for (let i = 0; i < bytes.length; i++) n += BYTE_BITS[bytes[i]!]!;
  return n;
}

const BYTE_BITS = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let x = b; x !== 0; x &= x - 1) n++;
  return n;
});

/** Width of the series in the canonical list: the digits of series_count - 1, at least 1. */
export function canonicalSeriesWidth(seriesCount: number): number {
  return Math.max(1, String(seriesCount - 1).length);
}

/** One number as the canonical list writes it: `S/EEEEE`, the series zero-padded. */
export function formatNumber(series: number, element: number, seriesCount: number): string {
  return `${canonicalPrefix(series, seriesCount)}${String(element).padStart(5, '0')}`;
}

/** Lines in one chunk of the canonical list: 90 KB, a millisecond or so to write. */
export const LINES_PER_CHUNK = 10_000;

/** What starts each line of a series in the canonical list: the series zero-padded, then `/`. */
export function canonicalPrefix(series: number, seriesCount: number): string {
  return `${formatSeries(series, seriesCount)}/`;
}

/** A series alone as a person reads it: zero-padded as in `S/EEEEE`, so "série 010" and "010/60130" read alike. */
export function formatSeries(series: number, seriesCount: number): string {
  return String(series).padStart(canonicalSeriesWidth(seriesCount), '0');
}

/**
 * The canonical list (docs/operations.md#the-steps) in chunks of at most LINES_PER_CHUNK lines,
 * each ending in a whole line: one line per number, `S/EEEEE\n`, ascending. Written into bytes
 * directly: 20 million numbers are 180 MB of text, and a caller on the server's event loop (the
 * dashboard's download) gives the loop back between two chunks.
 */
export function* canonicalChunks(set: NumberSet): Generator<Buffer> {
  for (const s of set.series()) {
    const prefix = Buffer.from(canonicalPrefix(s, set.seriesCount), 'latin1');
    for (const chunk of canonicalSeriesChunks(prefix, set.bitmapOf(s)!, LINES_PER_CHUNK))
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

/**
 * One series' lines of the canonical list from its bitmap (element e at bit e & 7 of byte e >> 3),
 * in chunks of at most `linesPerChunk` lines. Self-contained, without a closure or an import:
 * scan-thread.ts runs this very source on the freeze's thread, so the SHA-256 the freeze stores and
 * the list a download gives are written by one function.
 */
export function* canonicalSeriesChunks(prefix: Uint8Array, bits: Uint8Array, linesPerChunk: number): Generator<Uint8Array> {
  const size = linesPerChunk * (prefix.length + 6);
  let out = new Uint8Array(size);
  let at = 0;
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
      out[at + 5] = 10;
      at += 6;
      if (at === size) {
        yield out;
        out = new Uint8Array(size);
        at = 0;
      }
    }
  }
  if (at > 0) yield out.subarray(0, at);
}

/** SHA-256 (hex) of the canonical list. */
export function canonicalSha256(set: NumberSet): string {
  const hash = createHash('sha256');
  for (const chunk of canonicalChunks(set)) hash.update(chunk);
  return hash.digest('hex');
}
