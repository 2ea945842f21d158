// SQL of audit_log: what operators and API keys changed. Written only through recordAudit
// (src/audit/audit.ts), inside the transaction of the change it records.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export interface AuditRow {
  id: number;
  at: string;
  actor: string;
  action: string;
  campaign_id: string | null;
  /** JSON object text. */
  details: string;
}

/**
 * Inserts one record. `ces backup` copies a database at the schema version it has, so the live
 * file may still have the audit_log of schema v1 (subject, detail) when an older ces left it: the
 * record then goes into those columns, campaign in `subject`, and the migration to `details`
 * carries it over with the rest.
 */
export function insertAuditRow(db: Db, row: Omit<AuditRow, 'id'>): number {
  if (!hasDetailsColumn(db)) {
    const subject = row.campaign_id === null ? null : `campaign:${row.campaign_id}`;
    return Number(
      prepare(db, `INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (@at, @actor, @action, @subject, @details)`).run({
        ...row,
        subject,
      }).lastInsertRowid,
    );
  }
  return Number(
    prepare(
      db,
      `INSERT INTO audit_log (at, actor, action, campaign_id, details) VALUES (@at, @actor, @action, @campaign_id, @details)`,
    ).run(row).lastInsertRowid,
  );
}

function hasDetailsColumn(db: Db): boolean {
  return prepare<[], number>(db, `SELECT count(*) FROM pragma_table_info('audit_log') WHERE name = 'details'`).pluck().get() === 1;
}

/**
 * Newest first (by id: the order of commits, whatever a clock did meanwhile). One statement per
 * combination of filters, so that each is planned on its index (audit_log_campaign for a campaign,
 * with or without an action; audit_log_action for an action alone). `beforeId` pages: the records
 * older than the last one of the previous page (the dashboard's audit page).
 */
export function listAuditRows(
  db: Db,
  filter: { campaignId: string | null; action: string | null; limit: number; beforeId?: number | null },
): AuditRow[] {
  const beforeId = filter.beforeId ?? null;
  const where = [
    filter.campaignId === null ? null : 'campaign_id = @campaign_id',
    filter.action === null ? null : 'action = @action',
    beforeId === null ? null : 'id < @before_id',
  ].filter((w) => w !== null);
  const sql = `SELECT id, at, actor, action, campaign_id, details FROM audit_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
  const params: Record<string, unknown> = { limit: filter.limit };
  if (filter.campaignId !== null) params.campaign_id = filter.campaignId;
  if (filter.action !== null) params.action = filter.action;
  if (beforeId !== null) params.before_id = beforeId;
  return prepare<[Record<string, unknown>], AuditRow>(db, sql).all(params);
}

/** The records about one participant (an LGPD request names its enrollment in details), oldest first. */
export function listAuditRowsOfEnrollment(db: Db, enrollmentId: string): AuditRow[] {
  return prepare<[string], AuditRow>(
    db,
    `SELECT id, at, actor, action, campaign_id, details FROM audit_log
    WHERE action IN ('participant.exported', 'participant.anonymized', 'participant.anonymization_held') AND details ->> '$.enrollment_id' = ? ORDER BY id`,
  ).all(enrollmentId);
}

/** Who last recorded `action` about a draw (details.draw_id), or undefined: the record names who ran and published it. */
export function findDrawActionActor(db: Db, campaignId: string, action: string, drawId: string): string | undefined {
  return prepare<[string, string, string], { actor: string }>(
    db,
    `SELECT actor FROM audit_log WHERE campaign_id = ? AND action = ? AND details ->> '$.draw_id' = ? ORDER BY id DESC LIMIT 1`,
  ).get(campaignId, action, drawId)?.actor;
}
