// SQL of the jobs queue (schema.generated.sql: a row exists while work is due). Claiming counts the
// attempt and takes a lease in one statement; a job is deleted in the transaction that commits its
// effects, so a crash either leaves it (redone after the lease) or removes it with its effects.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export const JOB_KINDS = ['process', 'evaluate'] as const;
type JobKind = (typeof JOB_KINDS)[number];

export interface JobRow {
  id: number;
  kind: JobKind;
  entry_id: string;
  run_at: string;
  locked_until: string | null;
  attempts: number;
  last_error: string | null;
  created_at: string;
}

/** Queues a job for the entry; a second one of the same kind for the same entry is dropped. */
export function insertJob(db: Db, row: { kind: JobKind; entry_id: string; run_at: string; created_at: string }): void {
  prepare(
    db,
    `INSERT INTO jobs (kind, entry_id, run_at, created_at) VALUES (@kind, @entry_id, @run_at, @created_at)
    ON CONFLICT (entry_id, kind) DO NOTHING`,
  ).run(row);
}

/** A job that has already failed once: it runs after `run_at` with its attempt and error kept. */
export function insertFailedJob(
  db: Db,
  row: { kind: 'process' | 'evaluate'; entry_id: string; run_at: string; created_at: string; last_error: string },
): void {
  prepare(
    db,
    `INSERT INTO jobs (kind, entry_id, run_at, attempts, last_error, created_at) VALUES (@kind, @entry_id, @run_at, 1, @last_error, @created_at)
    ON CONFLICT (entry_id, kind) DO NOTHING`,
  ).run(row);
}

/** Claims up to `limit` due jobs, oldest first: lease until `lockedUntil`, attempts + 1. */
export function claimJobs(db: Db, now: string, lockedUntil: string, limit: number): JobRow[] {
  return prepare<[string, string, string, number], JobRow>(
    db,
    `UPDATE jobs SET locked_until = ?, attempts = attempts + 1
    WHERE id IN (SELECT id FROM jobs WHERE run_at <= ? AND (locked_until IS NULL OR locked_until <= ?) ORDER BY id LIMIT ?)
    RETURNING id, kind, entry_id, run_at, locked_until, attempts, last_error, created_at`,
  )
    .all(lockedUntil, now, now, limit)
    .sort((a, b) => a.id - b.id);
}

/** Removes a finished job, only while this claim still holds it; false when the lease was lost. */
export function deleteClaimedJob(db: Db, id: number, lockedUntil: string): boolean {
  return prepare(db, `DELETE FROM jobs WHERE id = ? AND locked_until = ?`).run(id, lockedUntil).changes === 1;
}

/** Puts a claimed job back for a later attempt, with the reason it did not finish. */
export function rescheduleJob(db: Db, id: number, lockedUntil: string, runAt: string, lastError: string): boolean {
  return (
    prepare(db, `UPDATE jobs SET run_at = ?, locked_until = NULL, last_error = ? WHERE id = ? AND locked_until = ?`).run(
      runAt,
      lastError.slice(0, 1000),
      id,
      lockedUntil,
    ).changes === 1
  );
}

/** Gives a claimed job back unattempted (its claim did not count), due again at `runAt`. */
export function deferJob(db: Db, id: number, lockedUntil: string, runAt: string): boolean {
  return (
    prepare(db, `UPDATE jobs SET run_at = ?, locked_until = NULL, attempts = attempts - 1 WHERE id = ? AND locked_until = ?`).run(
      runAt,
      id,
      lockedUntil,
    ).changes === 1
  );
}

/** At start-up no other server holds a lease on this file: leases of a killed process are stale. */
export function releaseJobLeases(db: Db): number {
  return prepare(db, `UPDATE jobs SET locked_until = NULL WHERE locked_until IS NOT NULL`).run().changes;
}

/** The earliest instant some job becomes claimable (due time or lease end), or null when none. */
export function nextJobDueAt(db: Db): string | null {
  const row = prepare<[], { at: string | null }>(db, `SELECT min(max(run_at, coalesce(locked_until, run_at))) AS at FROM jobs`).get();
  return row?.at ?? null;
}
