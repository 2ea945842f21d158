// WAL checkpoints on a thread of their own. In WAL mode SQLite copies committed pages back into the
// database file (a checkpoint) from inside whichever COMMIT pushes the WAL past
// wal_autocheckpoint pages: under intake load that commit stalls the HTTP thread while it copies
// thousands of pages and fsyncs the file, and every request waiting on that commit, or arriving
// meanwhile, carries the stall into intake's p99.
//
// This thread checkpoints the file every CHECKPOINT_INTERVAL_MS on its own connection, in PASSIVE
// mode: it copies what no reader still needs and never takes the write lock, so commits carry on
// beside it. Copying is not enough, though: the WAL only starts over from its beginning when a
// write begins after a checkpoint that copied every frame, and under sustained intake a commit
// lands during nearly every pass. The WAL therefore still grew until a commit reached
// wal_autocheckpoint and checkpointed by itself, copying all that the thread had not copied yet,
// a stall for that batch that random client keys make long. So while the WAL holds CATCH_UP_FRAMES
// or more, passes run back to back: each copies what the last commit or two added, the commit that
// reaches wal_autocheckpoint finds little left to copy before it starts the WAL over, and now and
// then a pass ends between two commits and the next write starts it over without any stall. The
// stalls and the p99 with and without the thread: BENCHMARKS.md, section The configuration that
// produced them (CES_CHECKPOINT_THREAD).
//
// wal_autocheckpoint (src/db/open.ts) stays set: under sustained load it is what starts the WAL
// over, and should this thread stop, commits checkpoint as before. Checkpoints only move committed
// data between two files SQLite keeps consistent, so nothing here can lose or corrupt an entry,
// whenever the process stops.
//
// The worker needs better-sqlite3 and nothing of ours, so it is a few lines of CommonJS run with
// `eval`, the same from source, from the dist/ces.mjs bundle and from an installed package.
import { sqliteModulePath } from './sqlite-module.ts';
import { Worker } from 'node:worker_threads';
import type { ConsolaInstance } from 'consola';

export const CHECKPOINT_INTERVAL_MS = 25;
/**
 * WAL size (in pages) from which passes run back to back until the WAL starts over: half of
 * wal_autocheckpoint (src/db/open.ts), 8 MiB. It must be well below that limit, or the commit that
 * reaches it still finds most of the WAL to copy; and not so low that the thread copies the pages
 * every commit rewrites after nearly every commit. See BENCHMARKS.md, section The configuration
 * that produced them (CES_CHECKPOINT_THREAD), for the figures at 500, 2000 and 3000 pages.
 */
export const CATCH_UP_FRAMES = 2000;

export interface Checkpointer {
  /** Stops the thread and closes its connection; resolves once it has exited. */
  close(): Promise<void>;
}

interface CheckpointerData {
  sqlite: string;
  path: string;
  intervalMs: number;
  catchUpFrames: number;
}

// A failing checkpoint (I/O error, file gone) is reported and ends the thread: the fallback takes over.
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
let db;
let timer;
const stop = () => {
  clearTimeout(timer);
  if (db && db.open) db.close();
  parentPort.close();
};
const nextPassDelay = ${nextPassDelay.toString()};
let previous = { busy: 0, log: 0, checkpointed: 0 };
const step = () => {
  let result;
  try {
    result = db.pragma('wal_checkpoint(PASSIVE)')[0];
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
    stop();
    return;
  }
  timer = setTimeout(step, nextPassDelay(result, previous, workerData.intervalMs, workerData.catchUpFrames));
  previous = result;
};
try {
  db = new Database(workerData.path, { fileMustExist: true });
  db.pragma('synchronous = FULL');
  timer = setTimeout(step, workerData.intervalMs);
} catch (error) {
  parentPort.postMessage({ failed: String(error) });
  stop();
}
parentPort.on('message', stop);
`;

/** What `PRAGMA wal_checkpoint(PASSIVE)` reports: log and checkpointed are -1 when busy is 1. */
export interface PassResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * Milliseconds until the next pass, from this pass's result and the one before: none while the
 * WAL holds `catchUpFrames` or more and the pass got somewhere. Busy means a commit is
 * checkpointing by itself; no progress means a reader still needs the frames (a backup, a long
 * export), and passes back to back would only spin until it is done. Runs in the thread (its
 * source is part of the worker's code, so it must stay self-contained) and in tests.
 */
export function nextPassDelay(result: PassResult, previous: PassResult, intervalMs: number, catchUpFrames: number): number {
  const progressed = result.checkpointed > previous.checkpointed || result.log < previous.log;
  return result.busy === 0 && result.log >= catchUpFrames && progressed ? 0 : intervalMs;
}

// The thread holds a few objects: small heap limits keep its footprint near Node's minimum.
const LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 };

/** Starts checkpointing `path` (a WAL database another connection of this process has opened). */
export function startCheckpointer(
  path: string,
  log: ConsolaInstance,
  intervalMs = CHECKPOINT_INTERVAL_MS,
  catchUpFrames = CATCH_UP_FRAMES,
): Checkpointer {
  const data: CheckpointerData = { sqlite: sqliteModulePath(), path, intervalMs, catchUpFrames };
  const worker = new Worker(WORKER_CODE, { eval: true, workerData: data, resourceLimits: LIMITS });
  // Never what keeps the process alive.
  worker.unref();
  let running = true;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  const reportStop = (reason: string): void => {
    log.error({ message: 'WAL checkpoint thread stopped; commits checkpoint the WAL themselves from now on', error: reason });
  };
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) reportStop(message.failed);
  });
  worker.on('error', (error) => reportStop(String(error)));
  return {
    close: async () => {
      if (running) {
        // Referenced again, so that waiting for its exit keeps the process alive until it is done.
        worker.ref();
        worker.postMessage('stop');
      }
      await exited;
    },
  };
}

// One PASSIVE checkpoint on a connection of its own, for the last resort of CES_CHECKPOINTS=external
// (src/db/wal-watch.ts): copying a WAL of gigabytes takes seconds, which the HTTP thread must not
// spend. The connection only reads the WAL and writes the database file; closing it is not the last
// close of the file (the server's connection stays open), so SQLite does not checkpoint again there.
const ONE_PASS_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
let db;
try {
  db = new Database(workerData.path, { fileMustExist: true });
  db.pragma('busy_timeout = 0');
  db.pragma('synchronous = FULL');
  parentPort.postMessage({ result: db.pragma('wal_checkpoint(PASSIVE)')[0] });
} catch (error) {
  parentPort.postMessage({ failed: String(error) });
} finally {
  if (db && db.open) db.close();
}
`;

/** Runs one `PRAGMA wal_checkpoint(PASSIVE)` of `path` on a thread; resolves with SQLite's answer. */
export function runPassiveCheckpoint(path: string): Promise<PassResult> {
  const data = { sqlite: sqliteModulePath(), path };
  const worker = new Worker(ONE_PASS_CODE, { eval: true, workerData: data, resourceLimits: LIMITS });
  return new Promise((resolve, reject) => {
    let answer: { result?: PassResult; failed?: string } = { failed: 'the checkpoint thread exited without an answer' };
    worker.on('message', (message: typeof answer) => {
      answer = message;
    });
    worker.once('error', (error) => reject(error));
    worker.once('exit', () => (answer.result ? resolve(answer.result) : reject(new Error(answer.failed))));
  });
}
