// The WAL emptied (PRAGMA wal_checkpoint(TRUNCATE)) after an anonymization: the WAL still holds
// earlier images of the pages it changed (LGPD, src/participants/erasure.ts).
//
// Never with the busy handler: a TRUNCATE checkpoint takes the write lock first and then waits for
// the readers while holding it, so with the connection's busy timeout a reader holding a snapshot
// (an export, a freeze, a `sqlite3` shell, Litestream) stopped every writer, intake included, for
// the whole timeout, after which the truncation failed anyway. Each try here answers at once; the
// caller records what is still pending and tries again later (the server's tick).
//
// SQLite also answers a checkpoint busy at once while another connection runs a checkpoint, and
// `ces serve`'s checkpoint thread runs one every 25 ms (src/db/checkpointer.ts). So after a busy
// answer the truncation is tried again, a few ms apart, holding no lock in between.
import type { Db } from './open.ts';

/** Tries after the first busy answer, TRUNCATE_PAUSE_MS apart: about two seconds in all (a pass of the checkpoint thread under heavy load). */
const TRUNCATE_RETRIES = 400;
const TRUNCATE_PAUSE_MS = 5;

interface TruncateOptions {
  retries?: number;
  /** Waits between two tries (a synchronous sleep; tests pass their own). */
  pause?: (ms: number) => void;
}

/**
 * Checkpoints every frame and truncates the WAL to zero bytes; false when it stayed busy (a reader
 * still needs the WAL, or another connection kept checkpointing or writing). No try waits on the
 * busy timeout: see the header.
 */
export function truncateWal(db: Db, options: TruncateOptions = {}): boolean {
  const retries = options.retries ?? TRUNCATE_RETRIES;
  const pause = options.pause ?? sleepSync;
  const tryOnce = (): boolean => (db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]!.busy === 0;
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    if (tryOnce()) return true;
    for (let i = 0; i < retries; i++) {
      pause(TRUNCATE_PAUSE_MS);
      if (tryOnce()) return true;
    }
    return false;
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
