// What a `process` or `evaluate` job does to its entry. Every function here is synchronous and
// runs inside the job's transaction, so the entry's new state, the outbox event, the next job and
// the deletion of this job commit together or not at all. The transitions are guarded
// (`WHERE status = 'PENDING'`, `evaluated_at IS NULL`): a job that runs twice cannot produce a
// second, different result.
import type { Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import type { EntryRow } from '../entries/entries.repo.ts';
import { voidWinOfRejectedEntry } from '../mechanics/awards.ts';
import { evaluateMechanics, type MechanicResult } from '../mechanics/evaluate.ts';
import type { StepBudget } from '../mechanics/lucky-numbers.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import type { RejectionReason } from './checks.ts';
import { insertJob } from './jobs.repo.ts';
import { finishProcessing, recordEvaluation } from './processing.repo.ts';

/**
 * PENDING -> APPROVED: entry.completed, then (unless the caller evaluates at once) the evaluation
 * job. False if no longer PENDING.
 */
export function approveEntry(ctx: Ctx, entry: EntryRow, now: string, queueEvaluation = true): boolean {
  if (!finishProcessing(ctx.db, entry.id, 'APPROVED', '[]', now)) return false;
  enqueueEvent(ctx, {
    campaignId: entry.campaign_id,
    livemode: entry.livemode === 1,
    entryId: entry.id,
    eventType: 'entry.completed',
    data: { entry_id: entry.id, enrollment_id: entry.enrollment_id, status: 'APPROVED', rejection_reasons: [] },
  });
  if (queueEvaluation) insertJob(ctx.db, { kind: 'evaluate', entry_id: entry.id, run_at: now, created_at: now });
  return true;
}

/** PENDING -> REJECTED: the entry's win (declared, or reassigned onto it) is voided, entry.completed, no evaluation. */
export function rejectEntry(ctx: Ctx, entry: EntryRow, reasons: RejectionReason[], now: string): boolean {
  if (!finishProcessing(ctx.db, entry.id, 'REJECTED', JSON.stringify(reasons), now)) return false;
  voidWinOfRejectedEntry(ctx, entry.id, now);
  enqueueEvent(ctx, {
    campaignId: entry.campaign_id,
    livemode: entry.livemode === 1,
    entryId: entry.id,
    eventType: 'entry.completed',
    data: { entry_id: entry.id, enrollment_id: entry.enrollment_id, status: 'REJECTED', rejection_reasons: reasons },
  });
  return true;
}

/**
 * Runs the campaign's mechanics once for an APPROVED entry and queues entry.evaluated; 'deferred'
 * when they spent the transaction's `steps` first (nothing recorded: run it again later).
 */
export function evaluateEntry(
  ctx: Ctx,
  campaign: Campaign,
  entry: EntryRow,
  now: string,
  steps?: StepBudget,
): MechanicResult[] | 'deferred' | null {
  if (entry.status !== 'APPROVED' || entry.evaluated_at !== null) return null;
  const mechanics = evaluateMechanics(ctx, campaign, entry, now, steps);
  if (mechanics === 'deferred') return mechanics;
  if (!recordEvaluation(ctx.db, entry.id, JSON.stringify(mechanics), now)) return null;
  enqueueEvent(ctx, {
    campaignId: entry.campaign_id,
    livemode: entry.livemode === 1,
    entryId: entry.id,
    eventType: 'entry.evaluated',
    data: { entry_id: entry.id, enrollment_id: entry.enrollment_id, mechanics },
  });
  return mechanics;
}
