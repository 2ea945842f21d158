// The audit log (docs/operations.md#audit-log-ces-audit-list): one record per change an operator or
// an API key makes to a campaign's settings, keys, webhook, prizes, windows and awards, to
// participants (LGPD requests) and to the database (backup, restore). recordAudit runs inside the
// transaction of the change, so a change without its record (or a record of a change that rolled
// back) cannot exist. `details` holds ids, option names and non-personal values: never a secret, an
// API key, or a participant's document, name, email or phone.
import { nowIso } from '../kernel/clock.ts';
import { AppError } from '../kernel/errors.ts';
import type { Ctx } from '../kernel/context.ts';
import { actorName, type Actor } from './actor.ts';
import { insertAuditRow, listAuditRows, type AuditRow } from './audit.repo.ts';

export const AUDIT_ACTIONS = [
  'campaign.created',
  'campaign.updated',
  'key.issued',
  'key.rotated',
  'key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.secret_rotated',
  'webhook.redelivered',
  'prize.added',
  'window.added',
  'award.revoked',
  'award.reassigned',
  'participant.exported',
  // A campaign's entries downloaded from the dashboard (personal data of every participant).
  'entries.exported',
  'participant.anonymized',
  // The anonymisation's older page images gone from the file: at once, or once the readers that held them ended.
  'participant.erasure_completed',
  // One that waited, handed to Litestream when the server was switched to CES_CHECKPOINTS=external.
  'participant.erasure_left_to_litestream',
  'backup.created',
  'database.restored',
  // The dashboard (docs/operations.md#dashboard): a sign-in link made, a session started, signed
  // out or ended by an operator, and every view of a participant's unmasked personal data.
  'dashboard.link_created',
  'dashboard.signed_in',
  'dashboard.signed_out',
  'dashboard.session_revoked',
  'participant.viewed',
  // A participant looked up by what identifies them (a CPF/CNPJ or an e-mail), found or not.
  'participant.looked_up',
  // Draws (docs/operations.md#running-a-draw-ces-draw): every step from creation to publication.
  'draw.created',
  'draw.frozen',
  'draw.results_recorded',
  'draw.run',
  'draw.winner_disqualified',
  'draw.published',
  'draw.voided',
  // SPA's participant list of a frozen draw (names and numbers: personal data) written out.
  'draw.participants_exported',
  // An anonymisation refused by the promotion's legal hold (LGPD art. 16, I), kept for the campaign's closing.
  'participant.anonymization_held',
  // After the draw (docs/operations.md#winners-ces-winners): a winner's step, an attachment's download, the closing.
  'winner.recorded',
  'winner.attachment_viewed',
  'campaign.closed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditRecord {
  id: number;
  at: string;
  actor: string;
  action: AuditAction;
  campaign_id: string | null;
  details: Record<string, unknown>;
}

interface AuditInput {
  actor: Actor;
  action: AuditAction;
  campaignId: string | null;
  details: Record<string, unknown>;
}

/**
 * Records a change; returns the record's id. Must run inside the change's own transaction: called
 * outside one it throws, so a change that forgot its transaction is a bug found by its first test.
 * An API key's mode goes into the details (`mode`).
 */
export function recordAudit(ctx: Pick<Ctx, 'db' | 'clock'>, input: AuditInput): number {
  if (!ctx.db.inTransaction) throw new Error(`recordAudit(${input.action}) outside a transaction: the record must commit with its change`);
  const details = input.actor.kind === 'api_key' ? { ...input.details, mode: input.actor.mode } : input.details;
  return insertAuditRow(ctx.db, {
    at: nowIso(ctx.clock),
    actor: actorName(input.actor),
    action: input.action,
    campaign_id: input.campaignId,
    details: JSON.stringify(details),
  });
}

/** The action an operator filters by (the dashboard's audit page), in any case; 422 invalid_option otherwise. */
export function toAuditAction(value: string): AuditAction {
  const action = AUDIT_ACTIONS.find((a) => a === value.toLowerCase());
  if (action === undefined) throw new AppError(422, 'invalid_option', `action must be one of ${AUDIT_ACTIONS.join(', ')}, got "${value}"`);
  return action;
}

/** Newest first; with `beforeId`, only the records older than that one (the next page). */
export function listAuditRecords(
  ctx: Ctx,
  filter: { campaignId?: string; action?: AuditAction; limit: number; beforeId?: number },
): AuditRecord[] {
  return listAuditRows(ctx.db, {
    campaignId: filter.campaignId ?? null,
    action: filter.action ?? null,
    limit: filter.limit,
    beforeId: filter.beforeId ?? null,
  }).map(rowToAuditRecord);
}

export function rowToAuditRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action as AuditAction,
    campaign_id: row.campaign_id,
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}
