// SQL that processing reads and writes on entries. "Earlier" is insertion order (the entries
// rowid), which is the order intake committed them: the first of two duplicates wins, and limits
// count only entries that came before this one.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';
import type { EntryRow } from '../entries/entries.repo.ts';

/** How many entries past the one being checked a catch-up of `receipts` takes in, when they exist. */
export const RECEIPTS_AHEAD = 1024;

/**
 * Completes `receipts` (migration 5) through the entry with `rowid`: the access keys of every entry
 * up to it, and of up to RECEIPTS_AHEAD entries after it, so that a chunk of jobs (claimed in
 * entry order) catches up once rather than once per entry. Entries are numbered in commit order,
 * so the entries up to `rowid` are all there. Entries already rejected are left out: a rejection
 * is final, and the check ignores rejected entries (intake's fail-fast rejections have no job, so
 * a flood of them would otherwise all be copied by the next check). Runs in the caller's write
 * transaction: no entry is committed between reading max(rowid) and moving the mark.
 */
function indexReceiptsThrough(db: Db, rowid: number): void {
  const through = prepare<[], { through_rowid: number }>(db, `SELECT through_rowid FROM receipts_indexed WHERE id = 1`).get()!
    .through_rowid;
  if (through >= rowid) return;
  const last = prepare<[], { n: number | null }>(db, `SELECT max(rowid) AS n FROM entries`).get()!.n ?? 0;
  const target = Math.min(last, rowid + RECEIPTS_AHEAD);
  prepare(
    db,
    `INSERT INTO receipts (campaign_id, livemode, access_key, entry_rowid)
    SELECT campaign_id, livemode, access_key, rowid FROM entries WHERE rowid > ? AND rowid <= ? AND status <> 'REJECTED'`,
  ).run(through, target);
  prepare(db, `UPDATE receipts_indexed SET through_rowid = ? WHERE id = 1`).run(target);
}

/** Another non-rejected entry of the same campaign and mode, committed earlier, with this key. */
export function findEarlierEntryWithAccessKey(
  db: Db,
  entry: Pick<EntryRow, 'id' | 'campaign_id' | 'livemode' | 'access_key'>,
): string | null {
  const rowid = prepare<[string], { rowid: number }>(db, `SELECT rowid FROM entries WHERE id = ?`).get(entry.id)?.rowid;
  if (rowid === undefined) return null;
  indexReceiptsThrough(db, rowid);
  const row = prepare<[string, number, string, number], { id: string }>(
    db,
    `SELECT e.id FROM receipts r JOIN entries e ON e.rowid = r.entry_rowid
    WHERE r.campaign_id = ? AND r.livemode = ? AND r.access_key = ? AND r.entry_rowid < ? AND e.status <> 'REJECTED'
    ORDER BY r.entry_rowid LIMIT 1`,
  ).get(entry.campaign_id, entry.livemode, entry.access_key, rowid);
  return row?.id ?? null;
}

/** Non-rejected entries of the enrollment committed before this one, optionally inside [from, to). */
export function countEarlierEntriesOfEnrollment(
  db: Db,
  entry: Pick<EntryRow, 'id' | 'enrollment_id'>,
  from: string | null = null,
  to: string | null = null,
): number {
  return prepare<[string, string, string | null, string | null, string | null, string | null], { n: number }>(
    db,
    `SELECT count(*) AS n FROM entries
    WHERE enrollment_id = ? AND status <> 'REJECTED' AND rowid < (SELECT rowid FROM entries WHERE id = ?)
      AND (? IS NULL OR created_at >= ?) AND (? IS NULL OR created_at < ?)`,
  ).get(entry.enrollment_id, entry.id, from, from, to, to)!.n;
}

/** PENDING -> APPROVED/REJECTED; false when the entry had already left PENDING (guarded). */
export function finishProcessing(db: Db, id: string, status: 'APPROVED' | 'REJECTED', reasons: string, processedAt: string): boolean {
  return (
    prepare(db, `UPDATE entries SET status = ?, rejection_reasons = ?, processed_at = ? WHERE id = ? AND status = 'PENDING'`).run(
      status,
      reasons,
      processedAt,
      id,
    ).changes === 1
  );
}

/** Stores the mechanics outcome once; false when the entry was already evaluated (guarded). */
export function recordEvaluation(db: Db, id: string, mechanics: string, evaluatedAt: string): boolean {
  return (
    prepare(db, `UPDATE entries SET mechanics = ?, evaluated_at = ? WHERE id = ? AND status = 'APPROVED' AND evaluated_at IS NULL`).run(
      mechanics,
      evaluatedAt,
      id,
    ).changes === 1
  );
}
