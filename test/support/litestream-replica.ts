// Reads a Litestream v0.3.x `file` replica straight from its files, without Litestream, to check
// that it has every WAL generation SQLite wrote: a replica that missed one restores a database
// whose pages come from two different points in time, which can fail `integrity_check` with
// nothing in Litestream's log (issue 33: the corrupt replicas skipped two and three).
//
// Layout (v0.3.13): <replica>/generations/<generation>/snapshots/<index>.snapshot.lz4 and
// <replica>/generations/<generation>/wal/<index>_<offset>.wal.lz4, index and offset in 8 hex digits.
// Each WAL index is one life of the -wal file between two resets; its segment at offset 0 starts
// with the 32-byte WAL header, every segment then holds whole frames (24-byte header + one page).
// SQLite adds 1 to salt-1 each time it resets the WAL (wal.c, walRestartHdr), and every frame
// carries its WAL's salt-1, so within a generation salt-1 must rise by exactly 1 from one index to
// the next. Segments are LZ4 frames; the decoder below is the small part of the LZ4 format they use.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LZ4_FRAME_MAGIC = 0x184d2204;
const WAL_MAGIC = [0x377f0682, 0x377f0683];
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/** The bytes of one or more concatenated LZ4 frames (skippable frames are skipped). */
export function decompressLz4Frames(input: Uint8Array): Buffer {
  const src = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < src.length) {
    const magic = src.readUInt32LE(pos);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      pos += 8 + src.readUInt32LE(pos + 4);
      continue;
    }
    if (magic !== LZ4_FRAME_MAGIC) throw new Error(`not an LZ4 frame at byte ${pos} (magic ${magic.toString(16)})`);
    const flags = src[pos + 4];
    if (flags >> 6 !== 1) throw new Error(`LZ4 frame version ${flags >> 6} is not 1`);
    const blockChecksum = (flags & 0x10) !== 0;
    const contentSize = (flags & 0x08) !== 0;
    const contentChecksum = (flags & 0x04) !== 0;
    const dictionary = (flags & 0x01) !== 0;
    if (dictionary) throw new Error('LZ4 frames with a dictionary are not supported');
    pos += 6 + (contentSize ? 8 : 0) + 1; // magic, FLG, BD, content size, header checksum
    // Blocks may refer back into earlier blocks of the frame: decode them into one buffer.
    let frame: Buffer = Buffer.alloc(0);
    for (;;) {
      const word = src.readUInt32LE(pos);
      pos += 4;
      if (word === 0) break;
      const size = word & 0x7fffffff;
      const block = src.subarray(pos, pos + size);
      if (block.length !== size) throw new Error('LZ4 block cut short');
      frame = (word & 0x80000000) !== 0 ? Buffer.concat([frame, block]) : decompressLz4Block(block, frame);
      pos += size + (blockChecksum ? 4 : 0);
    }
    pos += contentChecksum ? 4 : 0;
    out.push(frame);
  }
  return Buffer.concat(out);
}

/** Decodes one LZ4 block and returns `history` followed by its bytes (matches may reach into history). */
export function decompressLz4Block(block: Uint8Array, history: Buffer = Buffer.alloc(0)): Buffer {
  let out = Buffer.alloc(Math.max(64, history.length + block.length * 4));
  history.copy(out);
  let len = history.length;
  const ensure = (extra: number): void => {
    if (len + extra <= out.length) return;
    const bigger = Buffer.alloc(Math.max(out.length * 2, len + extra));
    out.copy(bigger, 0, 0, len);
    out = bigger;
  };
  let pos = 0;
  const readLength = (start: number): number => {
    let n = start;
    if (start !== 15) return n;
    for (;;) {
      if (pos >= block.length) throw new Error('LZ4 length runs past the block');
      const b = block[pos++];
      n += b;
      if (b !== 255) return n;
    }
  };
  while (pos < block.length) {
    const token = block[pos++];
    const literals = readLength(token >> 4);
    if (pos + literals > block.length) throw new Error('LZ4 literals run past the block');
    ensure(literals);
    out.set(block.subarray(pos, pos + literals), len);
    len += literals;
    pos += literals;
    if (pos >= block.length) break; // the last sequence has literals only
    const offset = block[pos] | (block[pos + 1] << 8);
    pos += 2;
    if (offset === 0 || offset > len) throw new Error(`LZ4 match offset ${offset} reaches before the output`);
    const matchLength = readLength(token & 15) + 4;
    ensure(matchLength);
    // Byte by byte: a match may overlap the bytes it is producing (offset < length repeats them).
    for (let i = 0; i < matchLength; i++, len++) out[len] = out[len - offset];
  }
  return out.subarray(0, len);
}

export interface WalSegmentFile {
  generation: string;
  index: number;
  offset: number;
  path: string;
}

/** Every WAL segment of every generation, in generation, index and offset order. */
export function listWalSegments(replicaDir: string): WalSegmentFile[] {
  const generationsDir = join(replicaDir, 'generations');
  if (!existsSync(generationsDir)) return [];
  const segments: WalSegmentFile[] = [];
  for (const generation of readdirSync(generationsDir).sort()) {
    const walDir = join(generationsDir, generation, 'wal');
    if (!existsSync(walDir)) continue;
    for (const name of readdirSync(walDir)) {
      const match = /^([0-9a-f]{8})_([0-9a-f]{8})\.wal\.lz4$/.exec(name);
      if (!match) continue;
      segments.push({ generation, index: parseInt(match[1], 16), offset: parseInt(match[2], 16), path: join(walDir, name) });
    }
  }
  return segments.sort((a, b) => a.generation.localeCompare(b.generation) || a.index - b.index || a.offset - b.offset);
}

export interface WalIndexSalts {
  generation: string;
  index: number;
  /** salt-1 of the WAL header (segment at offset 0); null when that segment is missing. */
  salt1: number | null;
  /** Frames read across the index's segments. */
  frames: number;
}

export interface ContinuityGap {
  generation: string;
  fromIndex: number;
  toIndex: number;
  /** salt-1 of the next index minus that of the previous one (mod 2^32); 1 when continuous. */
  salt1Step: number | null;
  reason: string;
}

export interface ContinuityReport {
  ok: boolean;
  generations: number;
  indexes: WalIndexSalts[];
  gaps: ContinuityGap[];
  /** Segments that could not be read as WAL (bad LZ4, bad magic, a frame of another WAL). */
  problems: string[];
}

/**
 * Checks every generation of a file replica: each WAL index's segments decode, frames carry the
 * index's salt-1, indexes follow one another without a hole, and salt-1 rises by exactly 1 from
 * one index to the next. A new generation starts from its own snapshot, so continuity is not
 * asked across generations.
 */
export function checkReplicaContinuity(replicaDir: string): ContinuityReport {
  const problems: string[] = [];
  const byIndex = new Map<string, WalIndexSalts>();
  const pageSizes = new Map<string, number>();
  const segments = listWalSegments(replicaDir);
  // Offset-0 segments first: they hold the header that gives the page size and salt-1.
  for (const segment of [...segments].sort((a, b) => Number(a.offset !== 0) - Number(b.offset !== 0))) {
    const key = `${segment.generation}/${segment.index}`;
    const entry = byIndex.get(key) ?? { generation: segment.generation, index: segment.index, salt1: null, frames: 0 };
    byIndex.set(key, entry);
    let bytes: Buffer;
    try {
      bytes = decompressLz4Frames(readFileSync(segment.path));
    } catch (error) {
      problems.push(`${segment.path}: ${(error as Error).message}`);
      continue;
    }
    let pos = 0;
    if (segment.offset === 0) {
      if (bytes.length < WAL_HEADER_BYTES || !WAL_MAGIC.includes(bytes.readUInt32BE(0))) {
        problems.push(`${segment.path}: no WAL header`);
        continue;
      }
      pageSizes.set(segment.generation, bytes.readUInt32BE(8));
      entry.salt1 = bytes.readUInt32BE(16);
      pos = WAL_HEADER_BYTES;
    }
    const pageSize = pageSizes.get(segment.generation);
    if (pageSize === undefined) {
      problems.push(`${segment.path}: no segment at offset 0 in generation ${segment.generation} gives the page size`);
      continue;
    }
    for (; pos + FRAME_HEADER_BYTES <= bytes.length; pos += FRAME_HEADER_BYTES + pageSize) {
      const salt1 = bytes.readUInt32BE(pos + 8);
      entry.frames++;
      if (entry.salt1 === null) entry.salt1 = salt1;
      else if (salt1 !== entry.salt1) {
        problems.push(`${segment.path}: a frame with salt-1 ${salt1} in the WAL of salt-1 ${entry.salt1}`);
        break;
      }
    }
    if (pos !== bytes.length) problems.push(`${segment.path}: ${bytes.length - pos} bytes after the last whole frame`);
  }
  const indexes = [...byIndex.values()].sort((a, b) => a.generation.localeCompare(b.generation) || a.index - b.index);
  const gaps: ContinuityGap[] = [];
  for (let i = 1; i < indexes.length; i++) {
    const [prev, next] = [indexes[i - 1], indexes[i]];
    if (prev.generation !== next.generation) continue;
    const step = prev.salt1 === null || next.salt1 === null ? null : (next.salt1 - prev.salt1) >>> 0;
    if (next.index !== prev.index + 1)
      gaps.push({ generation: next.generation, fromIndex: prev.index, toIndex: next.index, salt1Step: step, reason: 'WAL index missing' });
    else if (step !== 1)
      gaps.push({
        generation: next.generation,
        fromIndex: prev.index,
        toIndex: next.index,
        salt1Step: step,
        reason: step === null ? 'salt-1 unknown' : `salt-1 stepped by ${step}`,
      });
  }
  const generations = new Set(indexes.map((x) => x.generation)).size;
  return { ok: gaps.length === 0 && problems.length === 0, generations, indexes, gaps, problems };
}
