// SQL of the dashboard's entry listing: keyset pages (newest first, by created_at then id), never
// OFFSET. A listing of one status is one range of entries_campaign_status; of every status, three
// such ranges merged (the index leads with the status, so one ORDER BY across statuses would sort
// the whole campaign). A participant's entries are a range of entries_enrollment.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';
import type { EntryStatus } from '../entries/entries.repo.ts';

export interface ListedEntry {
  id: string;
  campaign_id: string;
  livemode: number;
  status: EntryStatus;
  created_at: string;
  processed_at: string | null;
  rejection_reasons: string;
  enrollment_id: string;
  document_type: string;
  document_number: string;
  full_name: string | null;
  anonymized_at: string | null;
}

/** Where a page starts: strictly older than this entry. */
export interface Cursor {
  created_at: string;
  id: string;
}

/** Above every stored time and id: the first page. */
const TOP: Cursor = { created_at: '~', id: '~' };

const COLUMNS = `e.id, e.campaign_id, e.livemode, e.status, e.created_at, e.processed_at, e.rejection_reasons, e.enrollment_id,
  n.document_type, n.document_number, n.full_name, n.anonymized_at`;

interface PageParams {
  campaign_id: string;
  livemode: number;
  status: EntryStatus;
  from: string;
  to: string;
  before_at: string;
  before_id: string;
  limit: number;
}

export function listEntriesPage(
  db: Db,
  f: {
    campaignId: string;
    livemode: number;
    statuses: readonly EntryStatus[];
    from: string;
    to: string;
    before: Cursor | null;
    limit: number;
  },
): ListedEntry[] {
  const before = f.before ?? TOP;
  const statement = prepare<[PageParams], ListedEntry>(
    db,
    `SELECT ${COLUMNS} FROM entries e JOIN enrollments n ON n.id = e.enrollment_id
    WHERE e.campaign_id = @campaign_id AND e.livemode = @livemode AND e.status = @status
      AND e.created_at >= @from AND e.created_at < @to AND e.created_at <= @before_at
      AND (e.created_at < @before_at OR e.id < @before_id)
    ORDER BY e.created_at DESC, e.id DESC LIMIT @limit`,
  );
  const rows = f.statuses.flatMap((status) =>
    statement.all({
      campaign_id: f.campaignId,
      livemode: f.livemode,
      status,
      from: f.from,
      to: f.to,
      before_at: before.created_at,
      before_id: before.id,
      limit: f.limit,
    }),
  );
  return rows.sort(newestFirst).slice(0, f.limit);
}

export function listEntriesOfEnrollmentPage(db: Db, f: { enrollmentId: string; before: Cursor | null; limit: number }): ListedEntry[] {
  const before = f.before ?? TOP;
  return prepare<[{ enrollment_id: string; before_at: string; before_id: string; limit: number }], ListedEntry>(
    db,
    `SELECT ${COLUMNS} FROM entries e JOIN enrollments n ON n.id = e.enrollment_id
    WHERE e.enrollment_id = @enrollment_id AND e.created_at <= @before_at AND (e.created_at < @before_at OR e.id < @before_id)
    ORDER BY e.created_at DESC, e.id DESC LIMIT @limit`,
  ).all({ enrollment_id: f.enrollmentId, before_at: before.created_at, before_id: before.id, limit: f.limit });
}

export function findListedEntry(db: Db, id: string): ListedEntry | undefined {
  return prepare<[string], ListedEntry>(
    db,
    `SELECT ${COLUMNS} FROM entries e JOIN enrollments n ON n.id = e.enrollment_id WHERE e.id = ?`,
  ).get(id);
}

export function findEnrollmentIdByEmailKey(db: Db, campaignId: string, livemode: number, emailKey: string): string | undefined {
  return prepare<[string, number, string], string>(
    db,
    `SELECT id FROM enrollments WHERE campaign_id = ? AND livemode = ? AND email_key = ?`,
  )
    .pluck()
    .get(campaignId, livemode, emailKey);
}

function newestFirst(a: ListedEntry, b: ListedEntry): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
