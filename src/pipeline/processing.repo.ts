// SQL that processing reads and writes on entries. "Earlier" is insertion order (the entries
// rowid), which is the order intake committed them: the first of two duplicates wins, and limits
// count only entries that came before this one.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';
import type { EntryRow } from '../entries/entries.repo.ts';

/** Another non-rejected entry of the same campaign and mode, committed earlier, with this key. */
export function findEarlierEntryWithAccessKey(db: Db, entry: Pick<EntryRow, 'id' | 'campaign_id' | 'livemode' | 'access_key'>): string | null {
  const row = prepare<[string, number, string, string], { id: string }>(db, `SELECT id FROM entries
    WHERE campaign_id = ? AND livemode = ? AND access_key = ? AND status <> 'REJECTED'
      AND rowid < (SELECT rowid FROM entries WHERE id = ?)
    ORDER BY rowid LIMIT 1`).get(entry.campaign_id, entry.livemode, entry.access_key, entry.id);
  return row?.id ?? null;
}

/** Non-rejected entries of the enrollment committed before this one, optionally inside [from, to). */
export function countEarlierEntriesOfEnrollment(db: Db, entry: Pick<EntryRow, 'id' | 'enrollment_id'>, from: string | null = null, to: string | null = null): number {
  return prepare<[string, string, string | null, string | null, string | null, string | null], { n: number }>(db, `SELECT count(*) AS n FROM entries
    WHERE enrollment_id = ? AND status <> 'REJECTED' AND rowid < (SELECT rowid FROM entries WHERE id = ?)
      AND (? IS NULL OR created_at >= ?) AND (? IS NULL OR created_at < ?)`)
    .get(entry.enrollment_id, entry.id, from, from, to, to)!.n;
}

/** PENDING -> APPROVED/REJECTED; false when the entry had already left PENDING (guarded). */
export function finishProcessing(db: Db, id: string, status: 'APPROVED' | 'REJECTED', reasons: string, processedAt: string): boolean {
  return prepare(db, `UPDATE entries SET status = ?, rejection_reasons = ?, processed_at = ? WHERE id = ? AND status = 'PENDING'`)
    .run(status, reasons, processedAt, id).changes === 1;
}

/** Stores the mechanics outcome once; false when the entry was already evaluated (guarded). */
export function recordEvaluation(db: Db, id: string, mechanics: string, evaluatedAt: string): boolean {
  return prepare(db, `UPDATE entries SET mechanics = ?, evaluated_at = ? WHERE id = ? AND status = 'APPROVED' AND evaluated_at IS NULL`)
    .run(mechanics, evaluatedAt, id).changes === 1;
}
