// Schema version 4: a reassigned award names the award it re-registers (awards.reassigned_from), and an award
// is re-registered at most once (a unique index). Without the link, an entry whose win had been
// moved to another entry still showed its revoked award as the one to act on, and reassigning it
// again copied the win onto one more entry. Existing reassignments are linked from the reason
// their history recorded ("reassigned from award <id> of entry <id>"), the earliest first; a
// later copy of the same award, if a database holds one, stays a valid award with no link.
import type { Migration } from './migration.ts';

export const migration004: Migration = (db) => {
  db.exec('ALTER TABLE awards ADD COLUMN reassigned_from TEXT REFERENCES awards (id)');
  const rows = db
    .prepare(
      `SELECT a.id, h.reason FROM awards a JOIN award_history h ON h.award_id = a.id AND h.from_status IS NULL
    WHERE a.source = 'reassign' ORDER BY a.created_at, a.rowid`,
    )
    .all() as Array<{ id: string; reason: string | null }>;
  const link = db.prepare('UPDATE awards SET reassigned_from = ? WHERE id = ?');
  const linked = new Set<string>();
  for (const { id, reason } of rows) {
    const from = /^reassigned from award (\S+) of entry /.exec(reason ?? '')?.[1];
    if (from === undefined || linked.has(from)) continue;
    linked.add(from);
    link.run(from, id);
  }
  db.exec('CREATE UNIQUE INDEX awards_reassigned_from ON awards (reassigned_from) WHERE reassigned_from IS NOT NULL');
};
