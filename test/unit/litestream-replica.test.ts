// The replica continuity check of the disaster-recovery drill (test/support/litestream-replica.ts)
// on synthetic Litestream v0.3.x file replicas: its LZ4 decoder, and the rule that within a
// generation salt-1 rises by exactly 1 from one WAL index to the next (issue 33: the replicas that
// restored corrupt had skipped whole WAL generations, salt-1 stepping by 2 and 3).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkReplicaContinuity, decompressLz4Block, decompressLz4Frames } from '../support/litestream-replica.ts';

const PAGE = 512;
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An LZ4 frame around `blocks`, each either stored (raw) or given as an already compressed block. */
function lz4Frame(
  blocks: Array<{ raw: Buffer } | { compressed: Buffer }>,
  flags = { blockChecksum: false, contentChecksum: false },
): Buffer {
  const flg = 0x40 | (flags.blockChecksum ? 0x10 : 0) | (flags.contentChecksum ? 0x04 : 0);
  const parts: Buffer[] = [Buffer.from([0x04, 0x22, 0x4d, 0x18, flg, 0x70, 0x00])];
  for (const block of blocks) {
    const data = 'raw' in block ? block.raw : block.compressed;
    const size = Buffer.alloc(4);
    size.writeUInt32LE((data.length | ('raw' in block ? 0x80000000 : 0)) >>> 0);
    parts.push(size, data);
    if (flags.blockChecksum) parts.push(Buffer.alloc(4));
  }
  parts.push(Buffer.alloc(4));
  if (flags.contentChecksum) parts.push(Buffer.alloc(4));
  return Buffer.concat(parts);
}

/** A compressed LZ4 block made of literals only (valid LZ4: the last sequence of a block is literals). */
function literalBlock(data: Buffer): Buffer {
  const n = data.length;
  if (n < 15) return Buffer.concat([Buffer.from([n << 4]), data]);
  const extra: number[] = [];
  let rest = n - 15;
  while (rest >= 255) {
    extra.push(255);
    rest -= 255;
  }
  extra.push(rest);
  return Buffer.concat([Buffer.from([0xf0, ...extra]), data]);
}

function walHeader(salt1: number, salt2 = 0x1234): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32BE(0x377f0682, 0);
  b.writeUInt32BE(3007000, 4);
  b.writeUInt32BE(PAGE, 8);
  b.writeUInt32BE(salt1 >>> 0, 16);
  b.writeUInt32BE(salt2, 20);
  return b;
}

function walFrames(salt1: number, count: number): Buffer {
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const header = Buffer.alloc(24);
    header.writeUInt32BE(i + 1, 0);
    header.writeUInt32BE(salt1 >>> 0, 8);
    frames.push(header, Buffer.alloc(PAGE, i));
  }
  return Buffer.concat(frames);
}

interface SyntheticIndex {
  index: number;
  salt1: number;
  /** Extra segments after the one at offset 0 (frames of this index's salt-1 unless given). */
  more?: Array<{ frameSalt1?: number }>;
}

/** A file replica: generations/<id>/wal/<index>_<offset>.wal.lz4, segments compressed alternately stored and literal-only. */
function makeReplica(generations: Record<string, SyntheticIndex[]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ces-replica-'));
  dirs.push(dir);
  let n = 0;
  for (const [generation, indexes] of Object.entries(generations)) {
    const walDir = join(dir, 'generations', generation, 'wal');
    mkdirSync(walDir, { recursive: true });
    mkdirSync(join(dir, 'generations', generation, 'snapshots'), { recursive: true });
    for (const x of indexes) {
      const segments = [
        Buffer.concat([walHeader(x.salt1), walFrames(x.salt1, 2)]),
        ...(x.more ?? []).map((m) => walFrames(m.frameSalt1 ?? x.salt1, 1)),
      ];
      let offset = 0;
      for (const bytes of segments) {
        const frame =
          n++ % 2 === 0
            ? lz4Frame([{ raw: bytes }])
            : lz4Frame([{ compressed: literalBlock(bytes) }], { blockChecksum: true, contentChecksum: true });
        const name = `${x.index.toString(16).padStart(8, '0')}_${offset.toString(16).padStart(8, '0')}.wal.lz4`;
        writeFileSync(join(walDir, name), frame);
        offset += bytes.length;
      }
    }
  }
  return dir;
}

describe('LZ4 decoding of replica segments', () => {
  test('a match that overlaps its own output repeats the bytes before it', () => {
    // "abc", then a match 3 back of 4+5 = 9 bytes, then the literal "d".
    const block = Buffer.concat([Buffer.from([0x35]), Buffer.from('abc'), Buffer.from([3, 0]), Buffer.from([0x10]), Buffer.from('d')]);
    assert.equal(decompressLz4Block(block).toString(), 'abcabcabcabcd');
  });

  test('literal and match lengths of 15 and more read their extra length bytes', () => {
    const literals = Buffer.alloc(300, 'x');
    // 300 literals (15 + 255 + 30), then a match 1 back of 4 + 15 + 1 = 20 bytes.
    const block = Buffer.concat([Buffer.from([0xff, 255, 30]), literals, Buffer.from([1, 0, 1])]);
    assert.equal(decompressLz4Block(block).toString(), 'x'.repeat(320));
  });

  test('a match may reach into an earlier block of the same frame; stored blocks and checksums are passed over', () => {
    const second = Buffer.concat([Buffer.from([0x04]), Buffer.from([5, 0])]); // no literals, a match 5 back of 8 bytes
    const out = decompressLz4Frames(
      lz4Frame([{ raw: Buffer.from('hello') }, { compressed: second }], { blockChecksum: true, contentChecksum: true }),
    );
    assert.equal(out.toString(), 'hellohellohel');
  });

  test('a match before the start of the output and bytes that are not a frame are errors', () => {
    assert.throws(() => decompressLz4Block(Buffer.from([0x10, 0x61, 9, 0, 0x00])), /reaches before the output/);
    assert.throws(() => decompressLz4Frames(Buffer.from('not lz4 at all')), /not an LZ4 frame/);
  });
});

describe('replica continuity: salt-1 rises by exactly 1 from one WAL index to the next', () => {
  test('a replica without a gap passes, across segments at later offsets and wrapping past 2^32', () => {
    const report = checkReplicaContinuity(
      makeReplica({
        '0011223344556677': [
          { index: 0, salt1: 0xfffffffe, more: [{}, {}] },
          { index: 1, salt1: 0xffffffff },
          { index: 2, salt1: 0, more: [{}] },
          { index: 3, salt1: 1 },
        ],
      }),
    );
    assert.deepEqual(report.gaps, []);
    assert.deepEqual(report.problems, []);
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.indexes.map((x) => [x.index, x.salt1, x.frames]),
      [
        [0, 0xfffffffe, 4],
        [1, 0xffffffff, 2],
        [2, 0, 3],
        [3, 1, 2],
      ],
    );
  });

  test('salt-1 stepping by 2 or 3 (a WAL generation the replica never saw) fails, naming the indexes', () => {
    const report = checkReplicaContinuity(
      makeReplica({
        '0011223344556677': [
          { index: 0, salt1: 100 },
          { index: 1, salt1: 102 },
          { index: 2, salt1: 103 },
          { index: 3, salt1: 106 },
        ],
      }),
    );
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.gaps.map((g) => [g.fromIndex, g.toIndex, g.salt1Step, g.reason]),
      [
        [0, 1, 2, 'salt-1 stepped by 2'],
        [2, 3, 3, 'salt-1 stepped by 3'],
      ],
    );
  });

  test('a missing WAL index fails', () => {
    const report = checkReplicaContinuity(
      makeReplica({
        aaaaaaaaaaaaaaaa: [
          { index: 4, salt1: 7 },
          { index: 6, salt1: 8 },
        ],
      }),
    );
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.gaps.map((g) => [g.fromIndex, g.toIndex, g.reason]),
      [[4, 6, 'WAL index missing']],
    );
  });

  test('a frame carrying another salt-1 than its WAL header is a problem', () => {
    const report = checkReplicaContinuity(makeReplica({ bbbbbbbbbbbbbbbb: [{ index: 0, salt1: 50, more: [{ frameSalt1: 49 }] }] }));
    assert.equal(report.ok, false);
    assert.match(report.problems.join('\n'), /a frame with salt-1 49 in the WAL of salt-1 50/);
  });

  test('a new generation starts from its own snapshot: its first salt-1 is not compared with the last generation', () => {
    const report = checkReplicaContinuity(
      makeReplica({
        aaaaaaaaaaaaaaaa: [
          { index: 0, salt1: 10 },
          { index: 1, salt1: 11 },
        ],
        bbbbbbbbbbbbbbbb: [
          { index: 0, salt1: 900 },
          { index: 1, salt1: 901 },
        ],
      }),
    );
    assert.equal(report.ok, true);
    assert.equal(report.generations, 2);
  });

  test('an empty or missing replica folder has no gap and no index', () => {
    const report = checkReplicaContinuity(join(tmpdir(), 'ces-no-such-replica'));
    assert.deepEqual([report.ok, report.indexes.length], [true, 0]);
  });
});
