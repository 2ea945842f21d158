// Group commit for intake. Writes that arrive in the same event-loop turn are run in one
// transaction, each inside its own savepoint so that one failing write never undoes its
// neighbours, and every caller's promise settles only after the COMMIT that holds its write: a
// 202 is never sent for data that is not yet durable. With synchronous=FULL the cost of the fsync
// is shared by the whole batch.
import type { Db } from '../db/open.ts';

export interface Committer {
  /** Runs `write` inside a transaction and resolves with its result once committed. */
  run<T>(write: () => T): Promise<T>;
  /** Resolves when nothing is queued (used by graceful shutdown). */
  drain(): Promise<void>;
}

interface Pending {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createGroupCommitter(db: Db, maxBatch = 512): Committer {
  let queue: Pending[] = [];
  let scheduled = false;
  let idle: Array<() => void> = [];

  const flush = (): void => {
    scheduled = false;
    const batch = queue.splice(0, maxBatch);
    if (queue.length > 0) schedule();
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      db.transaction(() => {
        for (const item of batch) {
          try {
            // A nested better-sqlite3 transaction is a SAVEPOINT: rolled back alone on throw.
            outcomes.push({ ok: true, value: db.transaction(item.write)() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      }).immediate();
    } catch (error) {
      // The COMMIT itself failed (disk full, I/O error): nothing of the batch is stored.
      for (const item of batch) item.reject(error);
      settleIdle();
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
    settleIdle();
  };

  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  const settleIdle = (): void => {
    if (queue.length > 0 || scheduled) return;
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };

  return {
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
        schedule();
      });
    },
    drain(): Promise<void> {
      if (queue.length === 0 && !scheduled) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}

/** One transaction per write: the reference behaviour the group committer must match. */
export function createDirectCommitter(db: Db): Committer {
  return {
    run<T>(write: () => T): Promise<T> {
      try {
        return Promise.resolve(db.transaction(write).immediate());
      } catch (error) {
        return Promise.reject(error);
      }
    },
    drain: () => Promise.resolve(),
  };
}
