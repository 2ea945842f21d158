// WAL checkpoints on a thread of their own. In WAL mode SQLite copies committed pages back into the
// database file (a checkpoint) from inside whichever COMMIT pushes the WAL past
// wal_autocheckpoint pages: under intake load that was one group commit in forty stalling the HTTP
// thread for 7-17 ms while it copied some 4,000 pages and fsynced the file, and every request
// waiting on that commit, or arriving meanwhile, carried the stall into intake's p99.
//
// This thread checkpoints the file every CHECKPOINT_INTERVAL_MS on its own connection, in PASSIVE
// mode: it copies what no reader still needs and never takes the write lock, so commits carry on
// beside it. The WAL then rarely reaches wal_autocheckpoint, which stays set (src/db/open.ts) as
// the fallback: should this thread stop or fall behind, commits checkpoint as before. Checkpoints
// only move committed data between two files SQLite keeps consistent, so nothing here can lose or
// corrupt an entry, whenever the process stops.
//
// The worker needs better-sqlite3 and nothing of ours, so it is a few lines of CommonJS run with
// `eval`, the same from source, from the dist/ces.mjs bundle and from an installed package.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ConsolaInstance } from 'consola';

export const CHECKPOINT_INTERVAL_MS = 25;

export interface Checkpointer {
  /** Stops the thread and closes its connection; resolves once it has exited. */
  close(): Promise<void>;
}

interface CheckpointerData {
  sqlite: string;
  path: string;
  intervalMs: number;
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
const step = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
    stop();
    return;
  }
  timer = setTimeout(step, workerData.intervalMs);
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

// The thread holds a few objects: small heap limits keep its footprint near Node's minimum.
const LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 };

/** Starts checkpointing `path` (a WAL database another connection of this process has opened). */
export function startCheckpointer(path: string, log: ConsolaInstance, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const data: CheckpointerData = { sqlite: createRequire(import.meta.url).resolve('better-sqlite3'), path, intervalMs };
  const worker = new Worker(WORKER_CODE, { eval: true, workerData: data, resourceLimits: LIMITS });
  // Never what keeps the process alive.
  worker.unref();
  let running = true;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => {
    running = false;
    resolve();
  }));
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
