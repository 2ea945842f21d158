// The write stage of POST /v1/entries: everything that must be decided against stored data and
// committed atomically (idempotency, enrollment merge, uniqueness, fail-fast rejection, the
// declared win, the consent record, the first job and the outbox events). Synchronous by design:
// it runs inside one transaction, or inside one savepoint of a group commit.
import type { Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError } from '../kernel/errors.ts';
import type { Caller } from '../keys/keys.ts';
import { recordDeclaredWin } from '../mechanics/declared-win.ts';
import { uuidv7 } from '../kernel/random.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import { upsertEnrollment } from '../entries/enrollment.ts';
import { findEntryByIdempotencyKey, insertConsent, insertEntry, type EntryStatus } from '../entries/entries.repo.ts';
import { checkAccessKeyFailFast } from '../entries/fiscal-key.ts';
import type { Submission } from '../entries/submission.ts';
import { insertJob } from '../pipeline/jobs.repo.ts';

export interface IntakeResult {
  entry_id: string;
  status: EntryStatus;
  replay: boolean;
}

export function findReplay(ctx: Ctx, caller: Caller, idempotencyKey: string): IntakeResult | null {
  const existing = findEntryByIdempotencyKey(ctx.db, caller.campaignId, caller.livemode ? 1 : 0, idempotencyKey);
  return existing ? { entry_id: existing.id, status: existing.status, replay: true } : null;
}

/** Stores one accepted entry. Must run inside a transaction (or savepoint) the caller commits. */
export function writeEntry(ctx: Ctx, campaign: Campaign, caller: Caller, idempotencyKey: string, submission: Submission): IntakeResult {
  // Checked again here, inside the write lock: an earlier request of the same batch may have
  // committed this key a moment ago. Its payload wins; this one becomes a replay.
  const replay = findReplay(ctx, caller, idempotencyKey);
  if (replay) return replay;

  if (submission.instantWin && campaign.instant_prize !== 'INTEGRATOR_DECLARED') {
    throw new AppError(
      422,
      'instant_win_not_allowed',
      'This campaign has no integrator-declared instant-prize mechanic; omit instant_win.',
      [{ field: 'instant_win', code: 'instant_win_not_allowed', message: 'the campaign does not take declared instant wins' }],
    );
  }
  const now = new Date(ctx.clock.now()).toISOString();
  const livemode = caller.livemode ? 1 : 0;
  const enrollment = upsertEnrollment(ctx, campaign, caller, submission, now);
  const failFast = checkAccessKeyFailFast(submission.evidence.access_key);
  const status: EntryStatus = failFast.length > 0 ? 'REJECTED' : 'PENDING';
  const entryId = uuidv7(ctx.random, ctx.clock.now());
  insertEntry(ctx.db, {
    id: entryId,
    campaign_id: campaign.id,
    livemode,
    idempotency_key: idempotencyKey,
    enrollment_id: enrollment.id,
    api_key_id: caller.keyId,
    status,
    evidence_type: submission.evidence.type,
    access_key: submission.evidence.access_key,
    rejection_reasons: JSON.stringify(failFast),
    declared_win: submission.instantWin ? JSON.stringify(submission.instantWin) : null,
    created_at: now,
    processed_at: status === 'REJECTED' ? now : null,
  });
  insertConsent(ctx.db, {
    entry_id: entryId,
    enrollment_id: enrollment.id,
    granted_at: submission.consent.granted_at,
    ip_address: submission.consent.ip_address,
    user_agent: submission.consent.user_agent,
    term_version: submission.consent.term_version,
    choices: submission.consent.choices,
    created_at: now,
  });
  if (submission.instantWin?.won) {
    recordDeclaredWin(ctx, {
      campaign,
      livemode,
      entryId,
      prizeId: submission.instantWin.prize_definition_id!,
      actor: `api_key:${caller.keyId}`,
      rejected: status === 'REJECTED',
      now,
    });
  }
  const base = { campaignId: campaign.id, livemode: caller.livemode, entryId };
  enqueueEvent(ctx, { ...base, eventType: 'entry.received', data: { entry_id: entryId, enrollment_id: enrollment.id, status } });
  if (status === 'REJECTED') {
    enqueueEvent(ctx, {
      ...base,
      eventType: 'entry.completed',
      data: { entry_id: entryId, enrollment_id: enrollment.id, status, rejection_reasons: failFast },
    });
  } else {
    insertJob(ctx.db, { kind: 'process', entry_id: entryId, run_at: now, created_at: now });
  }
  return { entry_id: entryId, status, replay: false };
}
