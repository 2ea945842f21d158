// SQL of the entries export: one row per entry with its enrollment, consent, latest award and lucky
// numbers, read through a cursor. Everything is joined inside the one statement because a
// better-sqlite3 connection runs no other statement while a cursor is open.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';
import type { EnrollmentRow } from '../entries/enrollments.repo.ts';
import type { EntryRow } from '../entries/entries.repo.ts';
import { awardRegistered } from '../mechanics/awards.repo.ts';

export interface ExportFilter {
  campaignId: string;
  livemode?: number;
  status?: string;
}

/** One export line: the entry's columns and its enrollment's, plus consent, award and numbers. */
export type ExportRow = Pick<
  EntryRow,
  | 'livemode'
  | 'status'
  | 'rejection_reasons'
  | 'evidence_type'
  | 'access_key'
  | 'created_at'
  | 'processed_at'
  | 'evaluated_at'
  | 'enrollment_id'
> &
  Omit<EnrollmentRow, 'id' | 'campaign_id' | 'livemode' | 'created_at' | 'updated_at'> & {
    entry_id: string;
    consent_granted_at: string | null;
    consent_term_version: string | null;
    award_status: string | null;
    award_prize_id: string | null;
    /** 'series-order' pairs separated by spaces, ordered, e.g. '0-00042 1-00007'; null when none (the CSV writes them S/EEEEE). */
    lucky_numbers: string | null;
  };

const WHERE = `e.campaign_id = @campaign_id AND (@livemode IS NULL OR e.livemode = @livemode) AND (@status IS NULL OR e.status = @status)`;

function params(f: ExportFilter): Record<string, unknown> {
  return { campaign_id: f.campaignId, livemode: f.livemode ?? null, status: f.status ?? null };
}

export function countExportRows(db: Db, f: ExportFilter): number {
  return prepare<[Record<string, unknown>], { n: number }>(db, `SELECT count(*) AS n FROM entries e WHERE ${WHERE}`).get(params(f))!.n;
}

/** The same number as countExportRows, from entry_counts (kept by triggers): a few rows read, never the entries. */
export function sumEntryCounts(db: Db, f: ExportFilter): number {
  return prepare<[Record<string, unknown>], { n: number }>(
    db,
    `SELECT coalesce(sum(n), 0) AS n FROM entry_counts
    WHERE campaign_id = @campaign_id AND (@livemode IS NULL OR livemode = @livemode) AND (@status IS NULL OR status = @status)`,
  ).get(params(f))!.n;
}

/**
 * A cursor over the export rows in acceptance order (rowid). The unary `+` keeps SQLite from
 * choosing the campaign/status index, which would need a temporary B-tree to sort a million rows
 * before the first one comes out; walking the table in rowid order streams from the first row.
 */
export function iterateExportRows(db: Db, f: ExportFilter): IterableIterator<ExportRow> {
  return prepare<[Record<string, unknown>], ExportRow>(
    db,
    `SELECT
      e.id AS entry_id, e.livemode, e.status, e.rejection_reasons, e.evidence_type, e.access_key,
      e.created_at, e.processed_at, e.evaluated_at,
      n.id AS enrollment_id, n.document_type, n.document_number, n.full_name, n.email, n.phone, n.birthdate,
      n.address_line_1, n.address_line_2, n.neighborhood, n.city, n.state, n.zipcode, n.country, n.anonymized_at,
      c.granted_at AS consent_granted_at, c.term_version AS consent_term_version,
      (SELECT a.status FROM awards a WHERE a.entry_id = e.id ORDER BY ${awardRegistered('a')} DESC LIMIT 1) AS award_status,
      (SELECT a.prize_id FROM awards a WHERE a.entry_id = e.id ORDER BY ${awardRegistered('a')} DESC LIMIT 1) AS award_prize_id,
      (SELECT group_concat(pair, ' ') FROM (SELECT printf('%d-%05d', l.series, l.order_number) AS pair FROM lucky_numbers l
        WHERE l.entry_id = e.id ORDER BY l.series, l.order_number)) AS lucky_numbers
    FROM entries e
    JOIN enrollments n ON n.id = e.enrollment_id
    LEFT JOIN consents c ON c.entry_id = e.id
    WHERE +e.campaign_id = @campaign_id AND (@livemode IS NULL OR e.livemode = @livemode) AND (@status IS NULL OR e.status = @status)
    ORDER BY e.rowid`,
  ).iterate(params(f));
}
