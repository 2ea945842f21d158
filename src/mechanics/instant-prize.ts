// POST /v1/entries/{entry_id}/instant-prize/revoke and /reassign (docs/api.md#prizes-stock-and-awards).
// Synchronous, one IMMEDIATE transaction each, no webhook. They act on the entry's latest award.
// Revoke takes back a confirmed win: a pending one (declared, entry not yet evaluated) is refused
// with 422 `award_not_final`. Reassign acts on any existing award, pending included. A
// voided one (entry rejected) is refused by both with 422 `award_not_revocable`.
import { enqueueEvent } from '../webhooks/events.ts';
import { unknownFieldErrors } from '../validation/unknown-fields.ts';
import { apiKeyActor, actorName, type Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { findCampaignById } from '../campaigns/campaigns.repo.ts';
import type { Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { isUniqueViolation } from '../db/statements.ts';
import { findEntryById, findScopedEntry, type EntryRow } from '../entries/entries.repo.ts';
import { AppError, fieldName, notFound, validationFailed } from '../kernel/errors.ts';
import { MAX_NOTE_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import type { Caller } from '../keys/keys.ts';
import { createAwardedAward, revokeAward, withdrawPendingAward } from './awards.ts';
import { findLatestAwardForEntry, findReassignmentOf, type AwardRow } from './awards.repo.ts';
import { awardToView, type AwardView } from './entry-view.ts';
import { findScopedPrize } from './prizes.repo.ts';
import { nullable, optional, type, type Infer } from 'superstruct';
import { describedString, structErrors } from '../validation/described.ts';

/** Request bodies' shapes and field rules (also their OpenAPI schemas). */
export const RevokeBodyStruct = type({
  reason: optional(nullable(describedString({ maxLength: 1000, description: 'Free-text note recorded with the revocation.' }))),
});
export const ReassignBodyStruct = type({
  // Not a uuid is simply not in the pool: unknown_prize, after the entry checks (the format is documentation).
  prize_definition_id: describedString({
    blank: 'required',
    format: 'uuid',
    description: 'Prize id (uuid) of the campaign and mode to register; an id that is not in the pool gives 422 unknown_prize.',
  }),
  target_entry_id: optional(
    nullable(describedString({ format: 'uuid', description: 'Another entry of the campaign and mode to give the prize to.' })),
  ),
});

/** The award object (one converter, shared with the entry view). */
export type AwardObject = AwardView;
const awardObject = awardToView;

/** The award history's actor: the same name as the audit log's (`api_key:<key id>`). */
const actorOf = (caller: Caller): string => actorName(apiKeyActor(caller));

export function revokeInstantPrize(ctx: Ctx, caller: Caller, entryId: string, body: unknown, now: string): AwardObject {
  const reason = parseRevokeBody(body);
  return ctx.db
    .transaction(() => {
      const { award } = loadSource(ctx, caller, entryId);
      return awardObject(revokeFinalAward(ctx, award, now, actorOf(caller), reason, apiKeyActor(caller)));
    })
    .immediate();
}

/**
 * The operator's revoke (`ces award revoke`): any campaign's entry by id, whatever its instant-prize
 * mechanic (a WINDOW win can be taken back too), same statuses and stock rules; actor `cli`.
 */
export function revokeAwardAsOperator(ctx: Ctx, entryId: string, reason: string | null, now: string, actor: Actor): AwardObject {
  // The API's limit (1000 characters) holds for the operator too, and an operator's note is one printable line.
  const problem = reason === null ? null : operatorTextProblem(fieldName('reason'), reason.trim(), MAX_NOTE_LENGTH);
  if (problem) throw new AppError(422, 'invalid_option', problem.message, [{ field: 'reason', ...problem }]);
  const parsed = parseRevokeBody({ reason });
  return ctx.db
    .transaction(() => {
      const entry = findEntryById(ctx.db, entryId);
      if (!entry) throw notFound('Entry');
      const award = requireFinalAward(ctx, entry.id);
      const revoked = revokeFinalAward(ctx, award, now, 'cli', parsed, actor);
      // award.updated (docs/api.md#events): an operator's change reaches the integrator, whose last
      // word was entry.evaluated's outcome. The API's own revoke answers with the award and sends
      // nothing.
      if (revoked.status !== award.status)
        enqueueEvent(ctx, {
          campaignId: entry.campaign_id,
          livemode: entry.livemode === 1,
          entryId: entry.id,
          eventType: 'award.updated',
          data: { entry_id: entry.id, enrollment_id: entry.enrollment_id, award: awardToView(revoked) },
        });
      return awardObject(revoked);
    })
    .immediate();
}

/**
 * Revokes and audits (award.revoked). The reason, free text that may name the participant, stays
 * in the award's history, not in the audit record.
 */
function revokeFinalAward(ctx: Ctx, award: AwardRow, now: string, historyActor: string, reason: string | null, actor: Actor): AwardRow {
  // Already revoked: idempotent, nothing recorded again.
  if (award.status === 'revoked') return award;
  const revoked = revokeAward(ctx, award, now, historyActor, reason);
  recordAudit(ctx, {
    actor,
    action: 'award.revoked',
    campaignId: award.campaign_id,
    details: { entry_id: award.entry_id, award_id: award.id, prize_id: award.prize_id, mode: award.livemode === 1 ? 'live' : 'test' },
  });
  return revoked;
}

export function reassignInstantPrize(ctx: Ctx, caller: Caller, entryId: string, body: unknown, now: string): AwardObject {
  const input = parseReassignBody(body);
  return ctx.db
    .transaction(() => {
      const { entry, campaign, award } = loadSource(ctx, caller, entryId, { pending: true });
      // A win moves once: an award that a reassignment already re-registered (on another entry) is
      // no longer this entry's to give; reassigning it again would copy the win.
      const successor = findReassignmentOf(ctx.db, award.id);
      if (successor) {
        throw new AppError(
          404,
          'not_found',
          `The entry has no award to act on: its win was reassigned to entry ${successor.entry_id}; act on that entry.`,
        );
      }
      const livemode = caller.livemode ? 1 : 0;
      const prize = findScopedPrize(ctx.db, input.prizeId, campaign.id, livemode);
      if (!prize) {
        throw new AppError(422, 'unknown_prize', 'prize_definition_id is not a prize of this campaign and mode.', [
          { field: 'prize_definition_id', code: 'unknown_prize', message: 'not a prize of this campaign and mode' },
        ]);
      }
      let target: EntryRow = entry;
      if (input.targetEntryId !== null && input.targetEntryId !== entry.id) {
        const found = findScopedEntry(ctx.db, input.targetEntryId, campaign.id, livemode);
        if (!found) throw notFound('Target entry');
        if (found.status !== 'APPROVED') {
          throw new AppError(
            422,
            'target_not_processed',
            `The target entry has not finished processing as APPROVED (status ${found.status}).`,
            [{ field: 'target_entry_id', code: 'target_not_processed', message: 'target must be APPROVED' }],
          );
        }
        // docs/api.md#prizes-stock-and-awards: the target has no award. A revoked (or voided) one counts: it is an award of the
        // entry's, in its history and its view, and the win it was is not this entry's to get again.
        const held = findLatestAwardForEntry(ctx.db, found.id);
        if (held) {
          throw new AppError(409, 'award_exists', `The target entry already has an award (${held.status}).`, [
            { field: 'target_entry_id', code: 'award_exists', message: `target already has an award (${held.status})` },
          ]);
        }
        target = found;
      } else if (entry.status === 'REJECTED') {
        // Kept on its own entry, the win would stand on an entry processing rejected, which holds no
        // win (a rejection voids any). Its revoked award can still move to an APPROVED target.
        throw new AppError(
          422,
          'entry_rejected',
          'The entry was rejected in processing and can hold no win; reassign it to an APPROVED entry with target_entry_id.',
        );
      }
      const reason = target.id === entry.id ? `reassigned to prize ${prize.id}` : `reassigned to entry ${target.id}`;
      if (award.status === 'awarded') revokeAward(ctx, award, now, actorOf(caller), reason);
      if (award.status === 'pending') withdrawPendingAward(ctx, award, now, actorOf(caller), reason);
      try {
        // Registered `awarded` (docs/api.md#prizes-stock-and-awards), also on an entry still being
        // processed: its evaluation then echoes this win, and a rejection voids it and returns the
        // unit (voidWinOfRejectedEntry).
        const created = createAwardedAward(ctx, {
          entryId: target.id,
          campaignId: campaign.id,
          livemode,
          prizeId: prize.id,
          source: 'reassign',
          windowId: null,
          now,
          actor: actorOf(caller),
          reason: `reassigned from award ${award.id} of entry ${entry.id}`,
          reassignedFrom: award.id,
        });
        recordAudit(ctx, {
          actor: apiKeyActor(caller),
          action: 'award.reassigned',
          campaignId: campaign.id,
          details: { entry_id: entry.id, award_id: award.id, target_entry_id: target.id, new_award_id: created.id, prize_id: prize.id },
        });
        return awardObject(created);
      } catch (error) {
        // The one-live-award-per-entry index is the last word on "target already has an award".
        if (isUniqueViolation(error)) throw new AppError(409, 'award_exists', 'The target entry already has an award.');
        throw error;
      }
    })
    .immediate();
}

/** The caller's entry, its campaign (which must take declared wins) and its latest award (final unless `pending` is allowed). */
function loadSource(
  ctx: Ctx,
  caller: Caller,
  entryId: string,
  allow: { pending: boolean } = { pending: false },
): { entry: EntryRow; campaign: Campaign; award: AwardRow } {
  const entry = findScopedEntry(ctx.db, entryId, caller.campaignId, caller.livemode ? 1 : 0);
  const campaign = findCampaignById(ctx.db, caller.campaignId);
  if (!entry || !campaign) throw notFound('Entry');
  if (campaign.instant_prize !== 'INTEGRATOR_DECLARED') {
    throw new AppError(422, 'instant_prize_not_declared', 'The campaign has no integrator-declared instant-prize mechanic.');
  }
  return { entry, campaign, award: requireFinalAward(ctx, entry.id, allow) };
}

/** The entry's latest award if it is awarded or revoked (or pending, when allowed); 404 / 422 otherwise. */
function requireFinalAward(ctx: Ctx, entryId: string, allow: { pending: boolean } = { pending: false }): AwardRow {
  const award = findLatestAwardForEntry(ctx.db, entryId);
  if (!award) throw new AppError(404, 'not_found', 'The entry has no instant-prize award.');
  if (award.status === 'pending' && !allow.pending) {
    throw new AppError(422, 'award_not_final', 'The award is pending until the entry is evaluated; revoke it after entry.evaluated.');
  }
  if (award.status === 'voided' || award.status === 'declined') {
    throw new AppError(422, 'award_not_revocable', `The award is ${award.status}; there is no win to act on.`);
  }
  return award;
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationFailed([{ field: '', code: 'invalid_type', message: 'the body must be a JSON object' }]);
  }
  return body as Record<string, unknown>;
}

function parseRevokeBody(body: unknown): string | null {
  const b = asObject(body);
  const errors = structErrors(b, RevokeBodyStruct);
  errors.push(...unknownFieldErrors(b, RevokeBodyStruct));
  if (errors.length > 0) throw validationFailed(errors);
  const { reason } = b as Infer<typeof RevokeBodyStruct>;
  return typeof reason === 'string' && reason !== '' ? reason : null;
}

function parseReassignBody(body: unknown): { prizeId: string; targetEntryId: string | null } {
  const b = asObject(body);
  const errors = structErrors(b, ReassignBodyStruct);
  errors.push(...unknownFieldErrors(b, ReassignBodyStruct));
  if (errors.length > 0) throw validationFailed(errors);
  const { prize_definition_id: prizeId, target_entry_id: target } = b as Infer<typeof ReassignBodyStruct>;
  // A prize id that is not a uuid is simply not in the pool: unknown_prize, after the entry checks.
  // Ids are uuids, stored in lower case and read case-insensitively (RFC 9562), as intake does.
  return {
    prizeId: prizeId.toLowerCase(),
    targetEntryId: typeof target === 'string' && target !== '' ? target.toLowerCase() : null,
  };
}
