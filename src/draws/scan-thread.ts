// The freeze's scan of the eligible numbers and the SHA-256 of their canonical list, on a thread of
// its own: 20 million rows and 180 MB of text are seconds of CPU that, on the server's event loop,
// every request would wait behind, however finely sliced (BENCHMARKS.md, Draws). The thread opens
// the file read-only, reads the eligible numbers and their holders (ELIGIBLE_HOLDINGS_*_SQL, in one
// read transaction: one snapshot) at the lowest CPU priority, hashes the canonical list and the
// holders list that canonicalSeriesChunks and holdersSeriesChunks write, encodes each series as
// encodeBitmap and encodeHolderRuns do (their own sources, passed in), and hands back the stored
// form, moved, not copied, with both SHA-256: the server's event loop is left the save alone. It needs
// better-sqlite3 and nothing else of ours, so, as src/db/checkpointer.ts, it is CommonJS run with
// `eval`, the same from source and from the dist/ces.mjs bundle.
import { sqliteModulePath } from '../db/sqlite-module.ts';
import { Worker } from 'node:worker_threads';
import {
  ELIGIBLE_HOLDINGS_PACKED_SQL,
  ELIGIBLE_HOLDINGS_SQL,
  MAX_HOLDER_KEY_SQL,
  holdingsArePacked,
  type EligibleNumbersParams,
} from './draws.repo.ts';
import { ELEMENTS_PER_SERIES } from './formation.ts';
import { addHeld, encodeHolderRuns, holdersSeriesChunks, indexHolders, keysInOrder } from './holders.ts';
import {
  canonicalSeriesChunks,
  canonicalSeriesWidth,
  encodeBitmap,
  LINES_PER_CHUNK,
  type EncodedSeries,
  type NumberSet,
} from './number-set.ts';

interface ScanResult {
  /** The series holding numbers, ascending, as draw_numbers stores them (NumberSet.encode's form). */
  parts: EncodedSeries[];
  /** The numbers in `parts`. */
  count: number;
  /** The first number met in a series at or beyond seriesCount (series × 100,000 + element), or null. */
  outside: number | null;
  /** SHA-256 (hex) of the canonical list of `parts` (meaningless when `outside` is not null). */
  sha256: string;
  /** Each part's holder runs (holders.ts encodeHolderRuns), in the order of `parts`. */
  holders: Uint8Array[];
  /** SHA-256 (hex) of the holders list (`S/EEEEE;H` a line). */
  holdersSha256: string;
}

interface HashData {
  hashOnly: true;
  series: Array<{ series: number; data: Uint8Array }>;
  seriesWidth: number;
  linesPerChunk: number;
  lowerPriority: boolean;
}

interface ScanData {
  sqlite: string;
  path: string;
  packedSql: string;
  rawSql: string;
  maxKeySql: string;
  params: EligibleNumbersParams;
  seriesCount: number;
  elementsPerSeries: number;
  seriesWidth: number;
  linesPerChunk: number;
  lowerPriority: boolean;
  /** Checkpoint the WAL once the scan's snapshot is released (see scanEligibleNumbersOnThread). */
  checkpointAfter: boolean;
}

const SCAN_CODE = `
const { parentPort, workerData: w } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const canonicalSeriesChunks = ${canonicalSeriesChunks.toString()};
const encodeBitmap = ${encodeBitmap.toString()};
const holdingsArePacked = ${holdingsArePacked.toString()};
const addHeld = ${addHeld.toString()};
const keysInOrder = ${keysInOrder.toString()};
const indexHolders = ${indexHolders.toString()};
const encodeHolderRuns = ${encodeHolderRuns.toString()};
const holdersSeriesChunks = ${holdersSeriesChunks.toString()};
function canonicalSha256(series) {
  const hash = createHash('sha256');
  for (const s of series) {
    const prefix = Buffer.from(String(s.series).padStart(w.seriesWidth, '0') + '/', 'latin1');
    for (const chunk of canonicalSeriesChunks(prefix, s.data, w.linesPerChunk)) hash.update(chunk);
  }
  return hash.digest('hex');
}
function scan() {
  const Database = require(w.sqlite);
  db = new Database(w.path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  if (w.checkpointAfter) {
    try {
      writer = new Database(w.path, { fileMustExist: true });
      writer.pragma('busy_timeout = 0');
      writer.pragma('synchronous = FULL');
    } catch {
      writer = undefined;
    }
  }
  const bitmaps = new Map();
  let outside = null;
  let minKey = Infinity;
  let maxKey = 0;
  // One read transaction: the bound on the holder keys and the scan see the same snapshot.
  db.exec('BEGIN');
  const span = w.seriesCount * w.elementsPerSeries;
  const packed = holdingsArePacked(db.prepare(w.maxKeySql).pluck(true).get(), span);
  const rows = packed
    ? db.prepare(w.packedSql).pluck(true).iterate({ ...w.params, span, series_count: w.seriesCount })
    : db.prepare(w.rawSql).raw(true).iterate(w.params);
  for (const row of rows) {
    let n;
    let key;
    if (packed) {
      if (row < 0) {
        outside = -1 - row;
        break;
      }
      key = Math.floor(row / span);
      n = row - key * span;
      if (n < 0) {
        key--;
        n += span;
      }
    } else {
      n = row[0];
      key = row[1];
    }
    const series = Math.floor(n / w.elementsPerSeries);
    if (series >= w.seriesCount) {
      outside = n;
      break;
    }
    let s = bitmaps.get(series);
    if (s === undefined) {
      s = { series, count: 0, data: new Uint8Array(w.elementsPerSeries / 8), dense: null, els: null, keys: null, len: 0 };
      bitmaps.set(series, s);
    }
    const e = n - series * w.elementsPerSeries;
    const mask = 1 << (e & 7);
    if ((s.data[e >> 3] & mask) === 0) {
      s.data[e >> 3] |= mask;
      s.count++;
      addHeld(s, e, key, w.elementsPerSeries);
      if (key < minKey) minKey = key;
      if (key > maxKey) maxKey = key;
    }
  }
  db.exec('COMMIT');
  // The read is done: its snapshot no longer holds back the frames committed meanwhile.
  if (writer) {
    try {
      writer.pragma('wal_checkpoint(PASSIVE)');
    } catch {}
    writer.close();
  }
  const series = outside === null ? [...bitmaps.values()].sort((a, b) => a.series - b.series) : [];
  const numbersHash = createHash('sha256');
  const holdersHash = createHash('sha256');
  const indexOf = new Uint32Array(series.length === 0 ? 0 : maxKey - minKey + 1);
  const state = { next: 0 };
  let count = 0;
  const holders = [];
  const parts = series.map((s) => {
    const prefix = Buffer.from(String(s.series).padStart(w.seriesWidth, '0') + '/', 'latin1');
    for (const chunk of canonicalSeriesChunks(prefix, s.data, w.linesPerChunk)) numbersHash.update(chunk);
    const indexes = indexHolders(keysInOrder(s), indexOf, minKey, state);
    s.dense = s.els = s.keys = null;
    for (const chunk of holdersSeriesChunks(prefix, s.data, indexes, w.linesPerChunk)) holdersHash.update(chunk);
    holders.push(encodeHolderRuns(indexes));
    const part = encodeBitmap(s.data);
    if (part.count !== s.count) throw new Error('series ' + s.series + ': ' + part.count + ' numbers encoded, ' + s.count + ' scanned');
    count += part.count;
    return { series: s.series, encoding: part.encoding, count: part.count, data: part.data };
  });
  const sha256 = outside === null ? numbersHash.digest('hex') : '';
  const holdersSha256 = outside === null ? holdersHash.digest('hex') : '';
  parentPort.postMessage(
    { parts, count, outside, sha256, holders, holdersSha256 },
    [...parts.map((p) => p.data.buffer), ...holders.map((h) => h.buffer)],
  );
}
let db;
let writer;
if (w.lowerPriority) {
  try {
    require('node:os').setPriority(19);
  } catch {}
}
try {
  if (w.hashOnly) parentPort.postMessage({ sha256: canonicalSha256(w.series) });
  else scan();
} catch (error) {
  parentPort.postMessage({ failed: { message: String(error && error.message), code: error && error.code } });
} finally {
  if (db && db.open) db.close();
  if (writer && writer.open) writer.close();
}
`;

// Linux keeps a nice value per thread: at 19 the thread gives way to intake when the cores are
// busy, and loses nothing when they are not. Elsewhere it would lower the whole process.
const LOWER_PRIORITY = process.platform === 'linux';

// The thread holds a map of bitmaps and of holder keys (typed arrays, outside V8's heap) and nothing per row.
const LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 };

/**
 * Scans the eligible numbers of the file at `path` on a worker thread.
 *
 * While the scan's snapshot is open (seconds, for 20 million numbers) no checkpoint can copy back
 * what intake commits meanwhile, and the WAL grows past wal_autocheckpoint. When the snapshot is
 * released, the first commit to come would checkpoint that whole backlog itself, on the server's
 * event loop (or the CLI's), and every request waiting on it stalled 70-95 ms at the end of a
 * 20-million freeze (BENCHMARKS.md, Draws). With `checkpointAfter` the thread does that copy
 * first, at its own low priority, on a connection it opened before the scan: a commit that comes
 * meanwhile finds the checkpoint taken and goes on. Never with CES_CHECKPOINTS=external, where
 * only the replicator checkpoints.
 */
export function scanEligibleNumbersOnThread(
  path: string,
  params: EligibleNumbersParams,
  seriesCount: number,
  checkpointAfter: boolean,
): Promise<ScanResult> {
  const workerData: ScanData = {
    sqlite: sqliteModulePath(),
    path,
    packedSql: ELIGIBLE_HOLDINGS_PACKED_SQL,
    rawSql: ELIGIBLE_HOLDINGS_SQL,
    maxKeySql: MAX_HOLDER_KEY_SQL,
    params,
    seriesCount,
    elementsPerSeries: ELEMENTS_PER_SERIES,
    seriesWidth: canonicalSeriesWidth(seriesCount),
    linesPerChunk: LINES_PER_CHUNK,
    lowerPriority: LOWER_PRIORITY,
    checkpointAfter,
  };
  return onThread<ScanResult>(workerData);
}

/**
 * SHA-256 of the set's canonical list, written and hashed on a thread at the lowest priority: a run
 * from the dashboard checks its 20 million frozen numbers without holding the server's event loop.
 */
export async function canonicalSha256OnThread(set: NumberSet): Promise<string> {
  const workerData: HashData = {
    hashOnly: true,
    series: set.series().map((series) => ({ series, data: set.bitmapOf(series)! })),
    seriesWidth: canonicalSeriesWidth(set.seriesCount),
    linesPerChunk: LINES_PER_CHUNK,
    lowerPriority: LOWER_PRIORITY,
  };
  return (await onThread<{ sha256: string }>(workerData)).sha256;
}

function onThread<T>(workerData: ScanData | HashData): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SCAN_CODE, { eval: true, workerData, resourceLimits: LIMITS });
    let settled = false;
    worker.once('message', (m: T | { failed: { message: string; code?: string } }) => {
      settled = true;
      if (typeof m === 'object' && m !== null && 'failed' in m)
        reject(Object.assign(new Error(m.failed.message), m.failed.code ? { code: m.failed.code } : {}));
      else resolve(m as T);
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the draw's thread stopped (exit code ${code}) before it answered`));
    });
  });
}
