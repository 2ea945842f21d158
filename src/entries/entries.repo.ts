// SQL of entries, consents (with their choices) and the jobs queue rows that intake writes.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export const ENTRY_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

export interface EntryRow {
  id: string;
  campaign_id: string;
  livemode: number;
  idempotency_key: string;
  enrollment_id: string;
  api_key_id: string | null;
  status: EntryStatus;
  evidence_type: string;
  access_key: string;
  rejection_reasons: string;
  mechanics: string | null;
  declared_win: string | null;
  created_at: string;
  processed_at: string | null;
  evaluated_at: string | null;
}

const COLUMNS = `id, campaign_id, livemode, idempotency_key, enrollment_id, api_key_id, status, evidence_type, access_key,
  rejection_reasons, mechanics, declared_win, created_at, processed_at, evaluated_at`;

export function findEntryByIdempotencyKey(
  db: Db,
  campaignId: string,
  livemode: number,
  key: string,
): Pick<EntryRow, 'id' | 'status'> | undefined {
  return prepare<[string, number, string], Pick<EntryRow, 'id' | 'status'>>(
    db,
    `SELECT id, status FROM entries
    WHERE campaign_id = ? AND livemode = ? AND idempotency_key = ?`,
  ).get(campaignId, livemode, key);
}

export function findEntryById(db: Db, id: string): EntryRow | undefined {
  return prepare<[string], EntryRow>(db, `SELECT ${COLUMNS} FROM entries WHERE id = ?`).get(id);
}

/** The entry only if it belongs to this campaign and mode: anything else is "not found". */
export function findScopedEntry(db: Db, id: string, campaignId: string, livemode: number): EntryRow | undefined {
  return prepare<[string, string, number], EntryRow>(
    db,
    `SELECT ${COLUMNS} FROM entries WHERE id = ? AND campaign_id = ? AND livemode = ?`,
  ).get(id, campaignId, livemode);
}

export function insertEntry(db: Db, row: Omit<EntryRow, 'mechanics' | 'evaluated_at'>): void {
  prepare(
    db,
    `INSERT INTO entries (id, campaign_id, livemode, idempotency_key, enrollment_id, api_key_id, status, evidence_type,
    access_key, rejection_reasons, declared_win, created_at, processed_at)
    VALUES (@id, @campaign_id, @livemode, @idempotency_key, @enrollment_id, @api_key_id, @status, @evidence_type,
    @access_key, @rejection_reasons, @declared_win, @created_at, @processed_at)`,
  ).run(row);
}

/** A consent choice as stored in consents.choices (JSON) and shown by the LGPD export. */
export interface ConsentChoiceRecord {
  consent_type: string;
  granted: boolean;
  explicit: boolean;
}

export function insertConsent(
  db: Db,
  row: {
    entry_id: string;
    enrollment_id: string;
    granted_at: string;
    ip_address: string;
    user_agent: string;
    term_version: string;
    choices: readonly ConsentChoiceRecord[];
    created_at: string;
  },
): void {
  prepare(
    db,
    `INSERT INTO consents (entry_id, enrollment_id, granted_at, ip_address, user_agent, term_version, choices, created_at)
    VALUES (@entry_id, @enrollment_id, @granted_at, @ip_address, @user_agent, @term_version, @choices, @created_at)`,
  ).run({ ...row, choices: JSON.stringify(row.choices) });
}

interface EntryListFilter {
  campaignId: string;
  livemode?: number;
  status?: EntryStatus;
  limit: number;
}

export function listEntries(db: Db, f: EntryListFilter): EntryRow[] {
  return prepare<[string, number | null, number | null, string | null, string | null, number], EntryRow>(
    db,
    `SELECT ${COLUMNS} FROM entries
    WHERE campaign_id = ? AND (? IS NULL OR livemode = ?) AND (? IS NULL OR status = ?)
    ORDER BY created_at DESC, id LIMIT ?`,
  ).all(f.campaignId, f.livemode ?? null, f.livemode ?? null, f.status ?? null, f.status ?? null, f.limit);
}
