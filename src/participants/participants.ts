// LGPD data-subject requests (Lei 13.709/2018, art. 18): access (export everything held about a
// participant) and anonymization. A participant is one enrollment: a document number in one
// campaign and mode. Each request is recorded in audit_log in the transaction that serves it
// (participant.exported, participant.anonymized). The audit record names the enrollment id, never
// the document.
import { findCampaignById } from '../campaigns/campaigns.repo.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { actorName, type Actor } from '../audit/actor.ts';
import { recordAudit, rowToAuditRecord } from '../audit/audit.ts';
import { listAuditRowsOfEnrollment } from '../audit/audit.repo.ts';
import { AppError, fieldName, notFound } from '../kernel/errors.ts';
import { parseDocument } from '../input/documents.ts';
import { MAX_NOTE_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import type { ConsentChoiceRecord } from '../entries/entries.repo.ts';
import { findEnrollmentByDocument, findEnrollmentById, type EnrollmentRow } from '../entries/enrollments.repo.ts';
import { enrollmentToView } from '../mechanics/entry-view.ts';
import { listAwardHistory } from '../mechanics/awards.repo.ts';
import { formatPair } from '../mechanics/lucky-pairs.ts';
import { storedTimestampInUtc } from '../input/timestamps.ts';
import { VERIFIER_REJECTION_PREFIX } from '../pipeline/verifier.ts';
import { finishErasures, recordPendingErasure, type ErasureReport } from './erasure.ts';
import { legalHoldOf } from './legal-hold.ts';
import {
  anonymizeEnrollment,
  insertHeldAnonymization,
  listHeldAnonymizations,
  markHeldAnonymizationCarriedOut,
  listAwardsOfEnrollment,
  listConsentsOfEnrollment,
  listDeliveriesOfEnrollment,
  listEntriesOfEnrollment,
  listLuckyNumbersOfEnrollment,
  listWrittenAwardReasonsOfEnrollment,
  REDACTED,
  redactConsentsOfEnrollment,
  redactResponseExcerptsOfEnrollment,
  setAwardHistoryReason,
  setDeliveryPayload,
  setEntryRejectionReasons,
  redactWinnerNotesOfEnrollment,
  eraseWinnerAttachmentsOfEnrollment,
} from './participants.repo.ts';

interface ParticipantRequest {
  campaignId: string;
  livemode: number;
  document: string;
}

function findParticipant(ctx: Ctx, req: ParticipantRequest): EnrollmentRow {
  getCampaign(ctx, req.campaignId);
  const parsed = parseDocument(req.document);
  if (!parsed.ok) throw new AppError(422, parsed.code, parsed.message);
  const enrollment = findEnrollmentByDocument(ctx.db, req.campaignId, req.livemode, parsed.number);
  // An anonymized participant is no longer findable by document: nothing held is linked to it.
  if (!enrollment) throw notFound('Participant');
  return enrollment;
}

/** What an operator sees of a participant before exporting or anonymizing it (the dashboard shows the document masked). */
export interface ParticipantSummary {
  enrollment_id: string;
  campaign_id: string;
  livemode: boolean;
  document_type: 'cpf' | 'cnpj';
  document_number: string;
  entries: number;
  created_at: string;
}

/**
 * The participant a document names in a campaign and mode, with its number of entries: enough to
 * be sure of the person before an LGPD request; 404 once anonymized, like the requests
 * themselves. Not audited here: lookUpParticipant is the operator's look-up, recorded.
 */
export function findParticipantSummary(ctx: Ctx, req: ParticipantRequest): ParticipantSummary {
  const enrollment = findParticipant(ctx, req);
  return {
    enrollment_id: enrollment.id,
    campaign_id: enrollment.campaign_id,
    livemode: enrollment.livemode === 1,
    document_type: enrollment.document_type,
    document_number: enrollment.document_number,
    entries: listEntriesOfEnrollment(ctx.db, enrollment.id).length,
    created_at: enrollment.created_at,
  };
}

/** How an operator looked a participant up: by the CPF/CNPJ or the e-mail they gave. */
type LookUpKey = 'document' | 'email';
/**
 * Where: the dashboard's Participants page or entries search, or an export or anonymization (CLI or
 * dashboard) that found no one (one that finds them is recorded as what it did).
 */
type LookUpVia = 'participants' | 'entries' | 'export' | 'anonymize';

/**
 * Records a look-up of a participant by what identifies them (participant.looked_up): who looked,
 * in which campaign and mode, by what kind of key, and what it found (the enrollment id, or
 * nothing). Whether someone takes part is itself personal: a look-up that finds no one is recorded
 * too. What was typed is not: the audit log holds no document or e-mail.
 */
export function recordParticipantLookUp(
  ctx: Ctx,
  input: { campaignId: string; livemode: number; by: LookUpKey; enrollmentId: string | null; via: LookUpVia },
  actor: Actor,
): void {
  ctx.db
    .transaction(() =>
      recordAudit(ctx, {
        actor,
        action: 'participant.looked_up',
        campaignId: input.campaignId,
        details: {
          by: input.by,
          mode: input.livemode === 1 ? 'live' : 'test',
          found: input.enrollmentId !== null,
          enrollment_id: input.enrollmentId,
          via: input.via,
        },
      }),
    )
    .immediate();
}

/** findParticipantSummary as an operator's look-up (the dashboard's Participants page): recorded, found or not. */
export function lookUpParticipant(ctx: Ctx, req: ParticipantRequest, actor: Actor): ParticipantSummary {
  const found = recordingMisses(ctx, req, 'participants', actor, () => findParticipantSummary(ctx, req));
  recordParticipantLookUp(
    ctx,
    { campaignId: req.campaignId, livemode: req.livemode, by: 'document', enrollmentId: found.enrollment_id, via: 'participants' },
    actor,
  );
  return found;
}

/**
 * Runs a request by document; when no participant has it (404 in a campaign that exists), records
 * the look-up as having found no one, then fails as it would. A document that is no CPF/CNPJ (422)
 * looked nothing up.
 */
function recordingMisses<T>(ctx: Ctx, req: ParticipantRequest, via: LookUpVia, actor: Actor, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const missed = error instanceof AppError && error.status === 404 && findCampaignById(ctx.db, req.campaignId) !== undefined;
    if (missed)
      recordParticipantLookUp(ctx, { campaignId: req.campaignId, livemode: req.livemode, by: 'document', enrollmentId: null, via }, actor);
    throw error;
  }
}

/** Everything stored about the participant, as one JSON-ready object; logged as participant.exported. */
export function exportParticipant(ctx: Ctx, req: ParticipantRequest, actor: Actor): Record<string, unknown> {
  return recordingMisses(ctx, req, 'export', actor, () => exportInTransaction(ctx, req, actor));
}

function exportInTransaction(ctx: Ctx, req: ParticipantRequest, actor: Actor): Record<string, unknown> {
  return ctx.db
    .transaction(() => {
      const enrollment = findParticipant(ctx, req);
      const now = nowIso(ctx.clock);
      const entries = listEntriesOfEnrollment(ctx.db, enrollment.id);
      const document = {
        request: { type: 'access', campaign_id: req.campaignId, mode: req.livemode === 1 ? 'live' : 'test', generated_at: now },
        enrollment: enrollmentToView(enrollment),
        entries: entries.map((e) => ({
          entry_id: e.id,
          status: e.status,
          evidence_type: e.evidence_type,
          access_key: e.access_key,
          idempotency_key: e.idempotency_key,
          rejection_reasons: JSON.parse(e.rejection_reasons),
          mechanics: e.mechanics === null ? null : JSON.parse(e.mechanics),
          declared_win: e.declared_win === null ? null : JSON.parse(e.declared_win),
          created_at: e.created_at,
          processed_at: e.processed_at,
          evaluated_at: e.evaluated_at,
        })),
        consents: listConsentsOfEnrollment(ctx.db, enrollment.id).map((c) => ({
          entry_id: c.entry_id,
          // In UTC like every other timestamp here, and as sent: the offset is part of the record
          // held about the participant (README, LGPD data-subject requests).
          granted_at: storedTimestampInUtc(c.granted_at),
          granted_at_as_sent: c.granted_at,
          ip_address: c.ip_address,
          user_agent: c.user_agent,
          term_version: c.term_version,
          recorded_at: c.created_at,
          choices: (JSON.parse(c.choices) as ConsentChoiceRecord[]).sort((a, b) => (a.consent_type < b.consent_type ? -1 : 1)),
        })),
        awards: listAwardsOfEnrollment(ctx.db, enrollment.id).map((a) => ({
          ...a,
          beyond_pool: a.beyond_pool === 1,
          history: listAwardHistory(ctx.db, a.id),
        })),
        lucky_numbers: listLuckyNumbersOfEnrollment(ctx.db, enrollment.id).map((l) => ({
          entry_id: l.entry_id,
          ...formatPair(l.series, l.order_number),
          source: l.source,
          created_at: l.created_at,
        })),
        webhook_deliveries: listDeliveriesOfEnrollment(ctx.db, enrollment.id).map((d) => ({ ...d, payload: JSON.parse(d.payload) })),
        requests: listAuditRowsOfEnrollment(ctx.db, enrollment.id)
          .map(rowToAuditRecord)
          .map((r) => ({ at: r.at, actor: r.actor, action: r.action, details: r.details })),
      };
      recordAudit(ctx, {
        actor,
        action: 'participant.exported',
        campaignId: req.campaignId,
        details: { enrollment_id: enrollment.id, mode: req.livemode === 1 ? 'live' : 'test', entries: entries.length },
      });
      return document;
    })
    .immediate();
}

interface AnonymizeResult {
  enrollment_id: string;
  campaign_id: string;
  livemode: boolean;
  document_token: string;
  anonymized_at: string;
  kept: { entries: number; awards: number; lucky_numbers: number; consents: number };
  consents_redacted: number;
  /** Free text that others wrote about the participant, replaced by [redacted] (see redactFreeText). */
  free_text_redacted: FreeTextRedacted;
  audit_id: number;
}

interface FreeTextRedacted {
  award_reasons: number;
  rejection_messages: number;
  webhook_payloads: number;
  /** The receivers' answers to the participant's events, kept as excerpts of the delivery attempts. */
  response_excerpts: number;
  /** The operator's notes on the steps of the participant's prizes. */
  winner_notes: number;
  /** The files of those steps (signed receipts), emptied. */
  winner_attachments: number;
}

/**
 * Replaces the participant's personal data in one transaction: enrollment fields cleared, the
 * document replaced by a random token (not derived from the document, so nothing can reverse it),
 * consent IP address and user agent redacted, free text written about them redacted
 * (redactFreeText). Entries, awards, lucky numbers and the consent records themselves stay for the
 * campaign's audit.
 */
export function anonymizeParticipant(
  ctx: Ctx,
  req: ParticipantRequest & { reason?: string | null },
  actor: Actor,
  options: { truncateRetries?: number } = {},
): AnonymizeResult & ErasureReport {
  // The reason goes into the audit record: bounded, one printable line (src/input/operator-text.ts).
  const reason = req.reason?.trim() || null;
  const problem = reason === null ? null : operatorTextProblem(fieldName('reason'), reason, MAX_NOTE_LENGTH);
  if (problem) throw new AppError(422, 'invalid_option', problem.message, [{ field: 'reason', ...problem }]);
  // The replaced values are zeroed where they were, freed pages included (secure_delete=ON); the
  // older images of the pages, in the WAL (and in the file while a reader holds a snapshot), are
  // erased by the truncation that follows, at once or, while a reader holds a snapshot, later by
  // the server's tick: the result says which (src/participants/erasure.ts). The truncation never
  // waits on a reader: with the busy timeout it held the write lock while it waited, and intake
  // stopped. With CES_CHECKPOINTS=external there is no truncation at all: a second checkpointer is
  // what corrupts Litestream's replica. The earlier page images stay in the WAL, and in the
  // replica, until Litestream checkpoints and its retention drops them (docs/operations.md, LGPD).
  ctx.db.pragma('secure_delete = ON');
  let outcome: AnonymizeResult | HeldAnonymization;
  try {
    outcome = recordingMisses(ctx, req, 'anonymize', actor, () => anonymizeInTransaction(ctx, { ...req, reason }, actor));
  } finally {
    ctx.db.pragma('secure_delete = FAST');
  }
  if ('held' in outcome) throw legalHoldRefusal(outcome);
  return { ...outcome, ...finishErasures(ctx, { retries: options.truncateRetries }) };
}

/** An anonymisation the legal hold kept back: recorded, not done. */
interface HeldAnonymization {
  held: { id: number; enrollment_id: string; lucky_numbers: number; prizes: number };
}

function legalHoldRefusal({ held }: HeldAnonymization): AppError {
  return new AppError(
    409,
    'legal_hold',
    `This participant holds ${held.lucky_numbers} lucky number(s) and ${held.prizes} prize(s) in a campaign that is not closed: ` +
      "the promotion's records are kept until its prestação de contas (LGPD art. 16, I). " +
      `The request is recorded (held anonymisation ${held.id}) and will be carried out when the campaign is closed.`,
  );
}

function anonymizeInTransaction(
  ctx: Ctx,
  req: ParticipantRequest & { reason?: string | null },
  actor: Actor,
): AnonymizeResult | HeldAnonymization {
  return ctx.db
    .transaction((): AnonymizeResult | HeldAnonymization => {
      const enrollment = findParticipant(ctx, req);
      const now = nowIso(ctx.clock);
      const hold = legalHoldOf(ctx.db, enrollment);
      if (hold !== null) {
        const id = insertHeldAnonymization(ctx.db, {
          enrollment_id: enrollment.id,
          campaign_id: req.campaignId,
          livemode: req.livemode,
          requested_by: actorName(actor),
          requested_at: now,
          reason: req.reason ?? null,
        });
        recordAudit(ctx, {
          actor,
          action: 'participant.anonymization_held',
          campaignId: req.campaignId,
          details: {
            enrollment_id: enrollment.id,
            mode: req.livemode === 1 ? 'live' : 'test',
            held_id: id,
            reason: req.reason ?? null,
            ...hold,
          },
        });
        return { held: { id, enrollment_id: enrollment.id, ...hold } };
      }
      return eraseParticipant(ctx, enrollment, { reason: req.reason ?? null }, actor, now);
    })
    .immediate();
}

/**
 * Erases a participant, in the caller's transaction (the request's, or the campaign's closing that
 * carries out a held request: `held` names it in the audit record). See anonymizeParticipant.
 */
function eraseParticipant(
  ctx: Ctx,
  enrollment: EnrollmentRow,
  why: { reason: string | null; held?: { id: number; requested_by: string; requested_at: string } },
  actor: Actor,
  now: string,
): AnonymizeResult {
  const token = `anon_${ctx.random.bytes(16).toString('hex')}`;
  if (!anonymizeEnrollment(ctx.db, enrollment.id, token, now))
    throw new AppError(409, 'already_anonymized', 'This participant is already anonymized.');
  const consentsRedacted = redactConsentsOfEnrollment(ctx.db, enrollment.id);
  const freeText = redactFreeText(ctx, enrollment.id);
  const kept = {
    entries: listEntriesOfEnrollment(ctx.db, enrollment.id).length,
    awards: listAwardsOfEnrollment(ctx.db, enrollment.id).length,
    lucky_numbers: listLuckyNumbersOfEnrollment(ctx.db, enrollment.id).length,
    consents: listConsentsOfEnrollment(ctx.db, enrollment.id).length,
  };
  // The reason is the operator's own note (a ticket reference, README); the token is not kept
  // here: it would link the record to the anonymized enrollment's document field.
  const auditId = recordAudit(ctx, {
    actor,
    action: 'participant.anonymized',
    campaignId: enrollment.campaign_id,
    details: {
      enrollment_id: enrollment.id,
      mode: enrollment.livemode === 1 ? 'live' : 'test',
      reason: why.reason,
      ...(why.held ? { held_id: why.held.id, requested_by: why.held.requested_by, requested_at: why.held.requested_at } : {}),
      kept,
      consents_redacted: consentsRedacted,
      free_text_redacted: freeText,
    },
  });
  recordPendingErasure(ctx, {
    enrollment_id: enrollment.id,
    campaign_id: enrollment.campaign_id,
    livemode: enrollment.livemode,
    anonymized_at: now,
    anonymized_audit: auditId,
    requested_by: actorName(actor),
  });
  return {
    enrollment_id: enrollment.id,
    campaign_id: enrollment.campaign_id,
    livemode: enrollment.livemode === 1,
    document_token: token,
    anonymized_at: now,
    kept,
    consents_redacted: consentsRedacted,
    free_text_redacted: freeText,
    audit_id: auditId,
  };
}

/**
 * Carries out the anonymisations the legal hold kept back for a campaign being closed, in the
 * closing's transaction (the hold ends with the prestação de contas): each held request is done as
 * it was asked, by whom and with its reason, and marked carried out; one whose participant was
 * anonymized meanwhile is only marked. How many were carried out. The caller turns secure_delete
 * on around its transaction and finishes their erasure after it (finishErasures), as
 * anonymizeParticipant does.
 */
export function carryOutHeldAnonymizations(ctx: Ctx, campaignId: string, actor: Actor): number {
  let done = 0;
  const now = nowIso(ctx.clock);
  for (const held of listHeldAnonymizations(ctx.db, campaignId)) {
    const enrollment = findEnrollmentById(ctx.db, held.enrollment_id);
    if (enrollment && enrollment.anonymized_at === null) {
      eraseParticipant(ctx, enrollment, { reason: held.reason, held }, actor, now);
      done++;
    }
    markHeldAnonymizationCarriedOut(ctx.db, held.id, now);
  }
  return done;
}

// The reasons ces itself writes on a caller's behalf (a declared win, a win moved): fixed words
// and ids, kept as the ledger's wording (src/mechanics/declared-win.ts, instant-prize.ts).
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const GENERATED_AWARD_REASON = new RegExp(
  `^(declared at intake|reassigned (to entry ${UUID}|to prize ${UUID}|from award ${UUID} of entry ${UUID}))$`,
);

/**
 * Free text that others wrote about the participant's entries, where a name or a CPF is easily
 * typed: an integrator's or operator's revoke reason in the award history, and the fiscal
 * verifier's words in a `fiscal_verifier_rejected` message, in the entry and in the webhook
 * payloads that carried it (payloads still pending go out redacted; the event id is unchanged),
 * and whatever the receivers answered to those events (the attempts' response excerpts).
 * The text becomes [redacted]; the codes, statuses and the fixed wording around it stay.
 */
function redactFreeText(ctx: Ctx, enrollmentId: string): FreeTextRedacted {
  const counts: FreeTextRedacted = {
    award_reasons: 0,
    rejection_messages: 0,
    webhook_payloads: 0,
    response_excerpts: 0,
    winner_notes: 0,
    winner_attachments: 0,
  };
  for (const { id, reason } of listWrittenAwardReasonsOfEnrollment(ctx.db, enrollmentId)) {
    if (reason === REDACTED || GENERATED_AWARD_REASON.test(reason)) continue;
    setAwardHistoryReason(ctx.db, id, REDACTED);
    counts.award_reasons++;
  }
  for (const entry of listEntriesOfEnrollment(ctx.db, enrollmentId)) {
    const reasons = redactRejectionReasons(JSON.parse(entry.rejection_reasons) as unknown);
    if (reasons === null) continue;
    setEntryRejectionReasons(ctx.db, entry.id, JSON.stringify(reasons));
    counts.rejection_messages++;
  }
  for (const delivery of listDeliveriesOfEnrollment(ctx.db, enrollmentId)) {
    if (delivery.event_type === 'winner.updated') {
      setDeliveryPayload(ctx.db, delivery.id, JSON.stringify(redactWinnerPayload(JSON.parse(delivery.payload) as WinnerPayload)));
      counts.webhook_payloads++;
      continue;
    }
    const payload = JSON.parse(delivery.payload) as { data?: { rejection_reasons?: unknown } };
    const reasons = payload.data ? redactRejectionReasons(payload.data.rejection_reasons) : null;
    if (reasons === null) continue;
    payload.data!.rejection_reasons = reasons;
    setDeliveryPayload(ctx.db, delivery.id, JSON.stringify(payload));
    counts.webhook_payloads++;
  }
  counts.response_excerpts = redactResponseExcerptsOfEnrollment(ctx.db, enrollmentId);
  counts.winner_notes = redactWinnerNotesOfEnrollment(ctx.db, enrollmentId);
  counts.winner_attachments = eraseWinnerAttachmentsOfEnrollment(ctx.db, enrollmentId);
  return counts;
}

interface WinnerPayload {
  data: { participant: unknown; events: Array<{ note: string | null; attachments: Array<{ filename: string }> }> };
}

/** A winner.updated event with the participant as an anonymized one shows and the notes and file names redacted. */
function redactWinnerPayload(payload: WinnerPayload): WinnerPayload {
  payload.data.participant = { name: null, document: '***', city: null, state: null };
  for (const event of payload.data.events) {
    if (event.note !== null) event.note = REDACTED;
    for (const attachment of event.attachments) attachment.filename = REDACTED;
  }
  return payload;
}

/** The reasons with the verifier's words redacted, or null when there was nothing to redact. */
function redactRejectionReasons(value: unknown): Array<{ code: string; message: string }> | null {
  if (!Array.isArray(value)) return null;
  let changed = false;
  const reasons = (value as Array<{ code: string; message: string }>).map((r) => {
    const redacted = `${VERIFIER_REJECTION_PREFIX}${REDACTED}`;
    if (r.code !== 'fiscal_verifier_rejected' || !r.message.startsWith(VERIFIER_REJECTION_PREFIX) || r.message === redacted) return r;
    changed = true;
    return { ...r, message: redacted };
  });
  return changed ? reasons : null;
}
