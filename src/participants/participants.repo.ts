// SQL of LGPD data-subject requests: everything stored about one enrollment (read for an export),
// and the in-place redaction of its personal fields (anonymize).
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';
import type { EntryRow } from '../entries/entries.repo.ts';
import { awardRegistered } from '../mechanics/awards.repo.ts';

export function listEntriesOfEnrollment(db: Db, enrollmentId: string): EntryRow[] {
  return prepare<[string], EntryRow>(
    db,
    `SELECT id, campaign_id, livemode, idempotency_key, enrollment_id, api_key_id, status, evidence_type,
    access_key, rejection_reasons, mechanics, declared_win, created_at, processed_at, evaluated_at
    FROM entries WHERE enrollment_id = ? ORDER BY created_at, rowid`,
  ).all(enrollmentId);
}

interface ConsentRow {
  entry_id: string;
  granted_at: string;
  ip_address: string;
  user_agent: string;
  term_version: string;
  /** JSON: ConsentChoiceRecord[] (src/entries/entries.repo.ts). */
  choices: string;
  created_at: string;
}

export function listConsentsOfEnrollment(db: Db, enrollmentId: string): ConsentRow[] {
  // Through the entries of the enrollment (entries_enrollment, then consents' entry_id): consents
  // have no index on enrollment_id since schema version 6.
  return prepare<{ id: string }, ConsentRow>(
    db,
    `SELECT c.entry_id, c.granted_at, c.ip_address, c.user_agent, c.term_version, c.choices, c.created_at
    FROM entries e JOIN consents c ON c.entry_id = e.id
    WHERE e.enrollment_id = @id AND c.enrollment_id = @id ORDER BY c.id`,
  ).all({ id: enrollmentId });
}

interface ParticipantAwardRow {
  id: string;
  entry_id: string;
  prize_id: string;
  prize_name: string;
  source: string;
  status: string;
  beyond_pool: number;
  created_at: string;
  updated_at: string;
}

export function listAwardsOfEnrollment(db: Db, enrollmentId: string): ParticipantAwardRow[] {
  return prepare<[string], ParticipantAwardRow>(
    db,
    `SELECT a.id, a.entry_id, a.prize_id, p.name AS prize_name, a.source, a.status, a.beyond_pool,
      a.created_at, a.updated_at
    FROM awards a JOIN entries e ON e.id = a.entry_id JOIN prizes p ON p.id = a.prize_id
    WHERE e.enrollment_id = ? ORDER BY ${awardRegistered('a')}`,
  ).all(enrollmentId);
}

export function listLuckyNumbersOfEnrollment(
  db: Db,
  enrollmentId: string,
): Array<{ entry_id: string; series: number; order_number: number; source: string; created_at: string }> {
  return prepare<[string], { entry_id: string; series: number; order_number: number; source: string; created_at: string }>(
    db,
    `SELECT l.entry_id,
      l.series, l.order_number, l.source, l.created_at
    FROM lucky_numbers l JOIN entries e ON e.id = l.entry_id
    WHERE e.enrollment_id = ? ORDER BY l.series, l.order_number`,
  ).all(enrollmentId);
}

interface ParticipantDeliveryRow {
  id: string;
  entry_id: string | null;
  event_type: string;
  status: string;
  attempts: number;
  created_at: string;
  delivered_at: string | null;
  payload: string;
}

/** Events about the participant's entries (the outbox links each entry event by entry_id). */
export function listDeliveriesOfEnrollment(db: Db, enrollmentId: string): ParticipantDeliveryRow[] {
  return prepare<[string], ParticipantDeliveryRow>(
    db,
    `SELECT d.id, d.entry_id, d.event_type, d.status, d.attempts, d.created_at, d.delivered_at, d.payload
    FROM webhook_deliveries d JOIN entries e ON e.id = d.entry_id
    WHERE e.enrollment_id = ? ORDER BY d.seq`,
  ).all(enrollmentId);
}

export const REDACTED = '[redacted]';

/** The operator's notes on the steps of the participant's prizes (winner_events), redacted; how many. */
export function redactWinnerNotesOfEnrollment(db: Db, enrollmentId: string): number {
  return prepare(
    db,
    `UPDATE winner_events SET note = '${REDACTED}'
    WHERE note IS NOT NULL AND note <> '${REDACTED}' AND winner_id IN (SELECT id FROM winners WHERE enrollment_id = ?)`,
  ).run(enrollmentId).changes;
}

/**
 * The files kept with the participant's prize steps (a signed receipt has their name, document and
 * signature) emptied; their name, type, size and SHA-256 stay, as the prestação de contas cites
 * them. How many.
 */
export function eraseWinnerAttachmentsOfEnrollment(db: Db, enrollmentId: string): number {
  return prepare(
    db,
    `UPDATE winner_attachments SET data = x'', filename = '${REDACTED}'
    WHERE length(data) > 0 AND winner_id IN (SELECT id FROM winners WHERE enrollment_id = ?)`,
  ).run(enrollmentId).changes;
}

/**
 * The receivers' answers to the participant's events (webhook_attempts.response_excerpt) become
 * [redacted]: a receiver may echo the payload or write about the person (issue 32). How many.
 */
export function redactResponseExcerptsOfEnrollment(db: Db, enrollmentId: string): number {
  return prepare(
    db,
    `UPDATE webhook_attempts SET response_excerpt = '${REDACTED}'
    WHERE response_excerpt IS NOT NULL AND response_excerpt != '${REDACTED}'
      AND delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN entries e ON e.id = d.entry_id WHERE e.enrollment_id = ?)`,
  ).run(enrollmentId).changes;
}

/**
 * Replaces the enrollment's personal fields: the document by an opaque token, identifying fields
 * by NULL (email_key too: it is the email folded, and it would keep the address taken). state and
 * country stay (see docs/operations.md, LGPD). Guarded on anonymized_at so it runs once.
 */
export function anonymizeEnrollment(db: Db, id: string, token: string, now: string): boolean {
  return (
    prepare(
      db,
      `UPDATE enrollments SET document_number = @token, full_name = NULL, email = NULL, email_key = NULL, phone = NULL, birthdate = NULL,
      address_line_1 = NULL, address_line_2 = NULL, neighborhood = NULL, city = NULL, zipcode = NULL,
      anonymized_at = @now, updated_at = @now
    WHERE id = @id AND anonymized_at IS NULL`,
    ).run({ id, token, now }).changes === 1
  );
}

/** The consent records stay as the legal record of what was agreed and when; the device identifiers go. */
export function redactConsentsOfEnrollment(db: Db, enrollmentId: string): number {
  return prepare(
    db,
    `UPDATE consents SET ip_address = '${REDACTED}', user_agent = '${REDACTED}'
    WHERE entry_id IN (SELECT id FROM entries WHERE enrollment_id = @id) AND enrollment_id = @id`,
  ).run({ id: enrollmentId }).changes;
}

/** Award history reasons written by a person (an integrator's or an operator's revoke): free text. */
export function listWrittenAwardReasonsOfEnrollment(db: Db, enrollmentId: string): Array<{ id: number; reason: string }> {
  return prepare<[string], { id: number; reason: string }>(
    db,
    `SELECT h.id, h.reason
    FROM award_history h JOIN awards a ON a.id = h.award_id JOIN entries e ON e.id = a.entry_id
    WHERE e.enrollment_id = ? AND h.reason IS NOT NULL AND h.actor <> 'system' ORDER BY h.id`,
  ).all(enrollmentId);
}

export function setAwardHistoryReason(db: Db, id: number, reason: string): void {
  prepare(db, 'UPDATE award_history SET reason = @reason WHERE id = @id').run({ id, reason });
}

export function setEntryRejectionReasons(db: Db, entryId: string, rejectionReasons: string): void {
  prepare(db, 'UPDATE entries SET rejection_reasons = @rejection_reasons WHERE id = @id').run({
    id: entryId,
    rejection_reasons: rejectionReasons,
  });
}

export function setDeliveryPayload(db: Db, deliveryId: string, payload: string): void {
  prepare(db, 'UPDATE webhook_deliveries SET payload = @payload WHERE id = @id').run({ id: deliveryId, payload });
}

/** What keeps a participant's data under the legal hold (legal-hold.ts): their lucky numbers and prizes. */
export interface Holdings {
  lucky_numbers: number;
  prizes: number;
}

/** The participant's lucky numbers, and prizes won: instant prizes pending or awarded, draw positions not disqualified. */
export function countHoldingsOfEnrollment(db: Db, enrollmentId: string): Holdings {
  return prepare<{ id: string }, Holdings>(
    db,
    `SELECT
      (SELECT count(*) FROM entries e JOIN lucky_numbers l ON l.entry_id = e.id WHERE e.enrollment_id = @id) AS lucky_numbers,
      (SELECT count(*) FROM entries e JOIN awards a ON a.entry_id = e.id WHERE e.enrollment_id = @id AND a.status IN ('pending', 'awarded'))
      + (SELECT count(*) FROM draw_winners w WHERE w.enrollment_id = @id AND w.disqualified_at IS NULL) AS prizes`,
  ).get({ id: enrollmentId })!;
}

/** The anonymisations the legal hold kept back for a campaign, not carried out yet, oldest first. */
export function listHeldAnonymizations(
  db: Db,
  campaignId: string,
): Array<{ id: number; enrollment_id: string; requested_by: string; requested_at: string; reason: string | null }> {
  return prepare<[string], { id: number; enrollment_id: string; requested_by: string; requested_at: string; reason: string | null }>(
    db,
    `SELECT id, enrollment_id, requested_by, requested_at, reason FROM held_anonymizations
    WHERE campaign_id = ? AND carried_out_at IS NULL ORDER BY id`,
  ).all(campaignId);
}

export function markHeldAnonymizationCarriedOut(db: Db, id: number, at: string): void {
  prepare(db, `UPDATE held_anonymizations SET carried_out_at = ? WHERE id = ?`).run(at, id);
}

/** Records an anonymisation request the legal hold kept back, for the campaign's closing; its id. */
export function insertHeldAnonymization(
  db: Db,
  row: { enrollment_id: string; campaign_id: string; livemode: number; requested_by: string; requested_at: string; reason: string | null },
): number {
  return Number(
    prepare(
      db,
      `INSERT INTO held_anonymizations (enrollment_id, campaign_id, livemode, requested_by, requested_at, reason)
      VALUES (@enrollment_id, @campaign_id, @livemode, @requested_by, @requested_at, @reason)`,
    ).run(row).lastInsertRowid,
  );
}

/** An anonymisation whose older page images may still be in the file (src/participants/erasure.ts). */
export interface PendingErasureRow {
  id: number;
  enrollment_id: string;
  campaign_id: string;
  livemode: number;
  anonymized_at: string;
  anonymized_audit: number;
  requested_by: string;
}

/** Records, in the anonymisation's transaction, that its erasure from the file is still to be done. */
export function insertPendingErasure(db: Db, row: Omit<PendingErasureRow, 'id'>): void {
  prepare(
    db,
    `INSERT INTO pending_erasures (enrollment_id, campaign_id, livemode, anonymized_at, anonymized_audit, requested_by)
    VALUES (@enrollment_id, @campaign_id, @livemode, @anonymized_at, @anonymized_audit, @requested_by)`,
  ).run(row);
}

/** The erasures not done yet, oldest first. */
export function listPendingErasures(db: Db): PendingErasureRow[] {
  return prepare<[], PendingErasureRow>(
    db,
    `SELECT id, enrollment_id, campaign_id, livemode, anonymized_at, anonymized_audit, requested_by
    FROM pending_erasures WHERE erased_at IS NULL ORDER BY id`,
  ).all();
}

export function markErasureDone(db: Db, id: number, at: string): void {
  prepare(db, `UPDATE pending_erasures SET erased_at = ? WHERE id = ? AND erased_at IS NULL`).run(at, id);
}
