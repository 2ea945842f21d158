// Warms the indexes intake writes to, once, when a server starts on a file larger than half the
// memory. Reading ahead (./read-ahead.ts) brings in the pages of each write a moment before it is
// made, one lookup at a time; right after a start, with none of the file in the operating system's
// page cache, that is still a disk read for nearly every lookup, and intake runs at a fraction of its
// speed until the pages a write touches have all been read once.
//
// These threads read those indexes whole, each its own share of the key ranges, in the order of
// their use (the Idempotency-Key first: every write looks it up), as a covering count that touches
// only the index's own pages. The disk answers many reads at once faster than one at a time, so the
// indexes are in the page cache within seconds, and nothing else is read: the tables' rows, most of
// the file, stay on disk. The threads stop when done, at shutdown, or on the first failure (logged).
// They change nothing: only the page cache is warmer, and a write that comes first reads for itself.
import { totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ConsolaInstance } from 'consola';
import { sqliteModulePath } from '../db/sqlite-module.ts';
import { monotonicMs } from '../kernel/clock.ts';

/** The indexes warmed, in this order: a table and the columns of the index, as the schema has them. */
const WARMED = [
  // Every write: its Idempotency-Key.
  { table: 'entries', columns: ['campaign_id', 'livemode', 'idempotency_key'], where: '' },
  // Every write: the participant's document, then the participant's own entries.
  { table: 'enrollments', columns: ['campaign_id', 'livemode', 'document_number'], where: '' },
  { table: 'entries', columns: ['enrollment_id', 'created_at'], where: '' },
  // A write with an e-mail or a phone: the participants who already have it.
  { table: 'enrollments', columns: ['campaign_id', 'livemode', 'email_key'], where: 'email_key IS NOT NULL' },
  { table: 'enrollments', columns: ['campaign_id', 'livemode', 'phone'], where: 'phone IS NOT NULL' },
] as const;

/**
 * Threads warming at once. The disk of the machine that measured the warm-up (BENCHMARKS.md, section
 * A file of 10 million entries) answered some 5,400 random 4 KiB reads a second to one reader and
 * 18,000 to four.
 */
const WARMUP_THREADS = 4;

/** Key ranges per thread and index, at least: small enough that a thread that finishes early has little left to wait for. */
const RANGES_PER_THREAD = 64;

// A thread: finds each index by its columns, samples its keys at evenly spaced rows to cut the
// index into ranges (the same cut in every thread), and counts the rows of its own ranges through
// the index alone. A shared flag stops it between two ranges.
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const stop = new Int32Array(workerData.stop);
let db;
let rows = 0;
// Indexes left cold: warming them all would fill more of the memory than the budget allows.
const cold = [];
let estimated = 0;
try {
  db = new Database(workerData.path, { readonly: true, fileMustExist: true });
  db.pragma('cache_size = -1024');
  const quote = (name) => '"' + name.replaceAll('"', '""') + '"';
  const compare = (a, b) => {
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      if (a[i] === null) return -1;
      if (b[i] === null) return 1;
      if (typeof a[i] === 'number' && typeof b[i] === 'number') return a[i] - b[i];
      if (typeof a[i] === 'number') return -1;
      if (typeof b[i] === 'number') return 1;
      return Buffer.compare(Buffer.from(a[i]), Buffer.from(b[i]));
    }
    return 0;
  };
  for (const index of workerData.indexes) {
    if (Atomics.load(stop, 0) === 1) break;
    const names = db.prepare('SELECT name FROM pragma_index_list(?)').pluck().all(index.table);
    const name = names.find((candidate) => {
      const columns = db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all(candidate);
      return columns.join(',') === index.columns.join(',');
    });
    if (name === undefined) throw new Error('no index on ' + index.table + ' (' + index.columns.join(', ') + ')');
    const tuple = '(' + index.columns.map(quote).join(', ') + ')';
    const marks = '(' + index.columns.map(() => '?').join(', ') + ')';
    const partial = index.where === '' ? '' : ' AND ' + index.where;
    const last = db.prepare('SELECT max(rowid) FROM ' + quote(index.table)).pluck().get();
    if (last === null) continue;
    // Rows at evenly spaced rowids, each found at once; a partial index's rows are only those of
    // the sample that it holds (a search for the next row it holds could walk the whole table).
    const sample = db.prepare(
      'SELECT ' + index.columns.map(quote).join(', ') + ' FROM ' + quote(index.table) + ' WHERE rowid >= ? ORDER BY rowid LIMIT 1',
    ).raw();
    // At most some 20,000 keys a range: a stop waits for one range, whatever the size of the file.
    const cuts = Math.max(workerData.parts * workerData.rangesPerThread, Math.ceil(last / 20000));
    const bounds = [];
    let sampled = 0;
    let keyBytes = 0;
    for (let i = 1; i < cuts; i++) {
      if (Atomics.load(stop, 0) === 1) break;
      const row = sample.get(Math.floor((i * last) / cuts));
      if (row === undefined) continue;
      sampled++;
      if (row.includes(null)) continue;
      bounds.push(row);
      for (const value of row) keyBytes += typeof value === 'string' ? Buffer.byteLength(value) : 9;
    }
    // The index's size, guessed from the sample: its keys, a rowid and a cell's overhead each, on
    // pages some two-thirds full. An index that would take the warm ones past the budget, and every
    // one after it, stays cold.
    const held = sampled === 0 ? 0 : (bounds.length / sampled) * last;
    const bytes = bounds.length === 0 ? 0 : held * (keyBytes / bounds.length + 12) * 1.5;
    if (cold.length > 0 || estimated + bytes > workerData.budgetBytes) {
      cold.push(name);
      continue;
    }
    estimated += bytes;
    bounds.sort(compare);
    const distinct = bounds.filter((bound, i) => i === 0 || compare(bounds[i - 1], bound) !== 0);
    // One statement for each shape of range: open below, open above, both or neither.
    const statements = new Map();
    const count = (lower, upper) => {
      const shape = (lower === null ? '-' : 'l') + (upper === null ? '-' : 'u');
      if (!statements.has(shape)) {
        let sql = 'SELECT count(*) FROM ' + quote(index.table) + ' INDEXED BY ' + quote(name) + ' WHERE 1' + partial;
        if (lower !== null) sql += ' AND ' + tuple + ' >= ' + marks;
        if (upper !== null) sql += ' AND ' + tuple + ' < ' + marks;
        statements.set(shape, db.prepare(sql).pluck());
      }
      return statements.get(shape).get(...(lower ?? []), ...(upper ?? []));
    };
    for (let range = workerData.part; range <= distinct.length; range += workerData.parts) {
      if (Atomics.load(stop, 0) === 1) break;
      rows += count(range === 0 ? null : distinct[range - 1], range === distinct.length ? null : distinct[range]);
    }
  }
  db.close();
  parentPort.postMessage({ failed: null, rows, cold, stopped: Atomics.load(stop, 0) === 1 });
} catch (error) {
  if (db && db.open) db.close();
  parentPort.postMessage({ failed: String(error), rows, cold, stopped: Atomics.load(stop, 0) === 1 });
}
`;

const LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 };

interface Answer {
  rows: number;
  /** Indexes left cold (by name): warming them would have passed the budget. */
  cold: string[];
  failed: string | null;
  /** Stopped by close() before the end: the indexes are not all warm. */
  stopped: boolean;
}

interface IndexWarmup {
  /** Resolves when every thread has finished or stopped; never rejects. */
  done: Promise<Answer & { seconds: number }>;
  /** Stops the threads between two ranges and waits for them. */
  close(): Promise<void>;
}

/**
 * Starts warming the indexes of the database file at `path` on `threads` threads, as many of them,
 * in order, as fit in `budgetBytes` of page cache (a quarter of the memory by default: the page
 * cache is shared with the rest of the file, the process and the machine).
 */
export function startIndexWarmup(path: string, log: ConsolaInstance, threads = WARMUP_THREADS, budgetBytes = totalmem() / 4): IndexWarmup {
  const stop = new SharedArrayBuffer(4);
  const started = monotonicMs();
  const workers = Array.from({ length: threads }, (_, part) => {
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: {
        sqlite: sqliteModulePath(),
        path,
        indexes: WARMED,
        part,
        parts: threads,
        rangesPerThread: RANGES_PER_THREAD,
        stop,
        budgetBytes,
      },
      resourceLimits: LIMITS,
    });
    // Never what keeps the process alive.
    worker.unref();
    return new Promise<Answer>((resolve) => {
      let answer: Answer = { rows: 0, cold: [], failed: 'the thread stopped without an answer', stopped: false };
      worker.on('message', (message: Answer) => (answer = message));
      worker.on('error', (error) => (answer = { ...answer, failed: String(error) }));
      worker.on('exit', () => resolve(answer));
    });
  });
  const done = Promise.all(workers).then((answers) => {
    const rows = answers.reduce((sum, answer) => sum + answer.rows, 0);
    const failed = answers.find((answer) => answer.failed !== null)?.failed ?? null;
    const cold = [...new Set(answers.flatMap((answer) => answer.cold))];
    const stopped = answers.some((answer) => answer.stopped);
    const outcome = { rows, cold, failed, stopped, seconds: (monotonicMs() - started) / 1000 };
    // Stopped by close() (a shutdown): nothing to say.
    if (stopped) return outcome;
    if (failed !== null)
      log.warn({ message: 'warming the indexes of intake stopped early; writes read their pages for themselves', error: failed });
    else
      log.info({
        message: `the indexes of intake are warm: ${rows} keys read in ${outcome.seconds.toFixed(1)} s`,
        ...(cold.length > 0 ? { left_cold: cold.join(', '), why: 'they would fill more than a quarter of the memory' } : {}),
      });
    return outcome;
  });
  return {
    done,
    async close() {
      Atomics.store(new Int32Array(stop), 0, 1);
      await done;
    },
  };
}
