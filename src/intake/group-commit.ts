// Group commit for intake. Writes that arrive in the same event-loop turn are run in one
// transaction, and every caller's promise settles only after the COMMIT that holds its write: a
// 202 is never sent for data that is not yet durable. With synchronous=FULL the cost of the fsync
// is shared by the whole batch.
//
// One failing write never undoes its neighbours. The obvious way, a SAVEPOINT per write, costs
// a large share of the write itself: SQLite copies every page a savepoint touches into its
// sub-journal, and an entry touches some twenty index pages. So a batch first runs optimistically
// with no savepoints; writes almost never fail at this stage (validation happened before), and
// when one does, the whole transaction is rolled back and the batch is run again, each write in its
// own savepoint, which is exactly the per-write isolation. Writes must therefore be re-runnable:
// intake's writes draw every random value from their own seed (streamRandom, ./entry-writer.ts), so
// a batch that fell back stores exactly what the savepoint-only committer would have stored.
import type { Db } from '../db/open.ts';
import { revalidateRows } from '../db/row-cache.ts';

export interface Committer {
  /**
   * Runs `write` inside a transaction and resolves with its result once committed. `write` may be
   * called again after a rollback of its batch, so it must do the same thing on the same state
   * (draw its random values from a seed of its own: streamRandom).
   */
  run<T>(write: () => T): Promise<T>;
  /** Resolves when nothing is queued (used by graceful shutdown). */
  drain(): Promise<void>;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Pending {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createGroupCommitter(db: Db, maxBatch = 512): Committer {
  let queue: Pending[] = [];
  let scheduled = false;
  let idle: Array<() => void> = [];

  // After a batch in which a write failed, the next one goes straight to savepoints: a client that
  // keeps sending failing writes costs one pass per batch, not two.
  let lastBatchFailed = false;

  const runBatch = (batch: Pending[], savepoints: boolean): Outcome[] => {
    const outcomes: Outcome[] = [];
    db.transaction(() => {
      // Memoized rows (API keys, campaigns, webhook configs) are checked against other processes'
      // commits once more, now that this transaction holds the write lock.
      revalidateRows(db);
      for (const item of batch) {
        if (!savepoints) {
          // A throw here aborts the transaction; flush() notices and runs the batch again.
          outcomes.push({ ok: true, value: item.write() });
          continue;
        }
        try {
          // A nested better-sqlite3 transaction is a SAVEPOINT: rolled back alone on throw.
          outcomes.push({ ok: true, value: db.transaction(item.write)() });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    }).immediate();
    return outcomes;
  };

  const flush = (): void => {
    scheduled = false;
    const batch = queue.splice(0, maxBatch);
    if (queue.length > 0) schedule();
    let outcomes: Outcome[];
    try {
      outcomes = runOptimistically(batch);
    } catch (error) {
      // BEGIN or COMMIT itself failed (disk full, I/O error): nothing of the batch is stored.
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

  const runOptimistically = (batch: Pending[]): Outcome[] => {
    if (lastBatchFailed) {
      const outcomes = runBatch(batch, true);
      lastBatchFailed = outcomes.some((o) => !o.ok);
      return outcomes;
    }
    let failed: { index: number; error: unknown } | null = null;
    const guarded = batch.map((item, index) => ({
      ...item,
      write: () => {
        try {
          return item.write();
        } catch (error) {
          failed = { index, error };
          throw error;
        }
      },
    }));
    try {
      return runBatch(guarded, false);
    } catch (error) {
      if (failed === null) throw error; // not a write: BEGIN or COMMIT failed
      lastBatchFailed = true;
      const only = failed as { index: number; error: unknown };
      // A lone write that failed needs no second pass: the rollback was its savepoint.
      if (batch.length === 1) return [{ ok: false, error: only.error }];
      return runBatch(batch, true);
    }
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
        return Promise.resolve(
          db
            .transaction(() => {
              revalidateRows(db);
              return write();
            })
            .immediate(),
        );
      } catch (error) {
        return Promise.reject(error);
      }
    },
    drain: () => Promise.resolve(),
  };
}
