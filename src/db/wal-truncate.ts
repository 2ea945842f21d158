// The WAL emptied (PRAGMA wal_checkpoint(TRUNCATE)) after an anonymization: the WAL still holds
// earlier images of the pages it changed (LGPD, src/participants/participants.ts). SQLite answers
// a checkpoint busy at once, without calling the busy handler, while another connection runs a
// checkpoint; and `ces serve`'s checkpoint thread runs one every 25 ms (src/db/checkpointer.ts).
// One try was therefore skipped whenever it met one of those passes: under load, often
// (test/slow/checkpoints-external.test.ts failed that way beside a second test suite). So after a busy
// answer the truncation is tried again, a few ms apart, without waiting on readers again.
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
 * Checkpoints every frame and truncates the WAL to zero bytes; false when it stayed busy. The first
 * try waits for readers up to the connection's busy timeout; the retries do not wait again (a
 * reader that outlived the busy timeout is not gone a moment later, a checkpoint pass is).
 */
export function truncateWal(db: Db, options: TruncateOptions = {}): boolean {
  const retries = options.retries ?? TRUNCATE_RETRIES;
  const pause = options.pause ?? sleepSync;
  const tryOnce = (): boolean => (db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]!.busy === 0;
  if (tryOnce()) return true;
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
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
