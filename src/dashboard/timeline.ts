// Everything that happened to one entry, for its dashboard page: the entry and its participant,
// its processing job if one is still queued, its awards with their history, its lucky numbers,
// and each webhook event with every attempt and answer. One read transaction; each list is read
// by the entry's id through an index.
import { getCampaign, type Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { prepare } from '../db/statements.ts';
import { findEnrollmentById, type EnrollmentRow } from '../entries/enrollments.repo.ts';
import type { EntryRow } from '../entries/entries.repo.ts';
import { getEntry, listLuckyNumbersOfEntry } from '../mechanics/entry-view.ts';
import { listAwardHistory, listAwardsOfEntry, type AwardRow } from '../mechanics/awards.repo.ts';
import { listEntryDeliveryViews, type DeliveryView } from '../webhooks/deliveries.ts';
import { listAttempts, type AttemptRow } from '../webhooks/outbox.repo.ts';

export interface EntryTimeline {
  entry: EntryRow;
  campaign: Campaign;
  enrollment: EnrollmentRow;
  consent: { granted_at: string; term_version: string; choices: Array<{ consent_type: string; granted: boolean }> } | null;
  jobs: Array<{ kind: string; run_at: string; attempts: number; last_error: string | null }>;
  awards: Array<AwardRow & { prize_name: string | null; history: ReturnType<typeof listAwardHistory> }>;
  luckyNumbers: Array<{ series: string; order_number: string }>;
  deliveries: Array<DeliveryView & { attempt_log: AttemptRow[] }>;
}

export function entryTimeline(ctx: Ctx, entryId: string): EntryTimeline {
  return ctx.db.transaction(() => {
    const entry = getEntry(ctx, entryId);
    const consent = prepare<[string], { granted_at: string; term_version: string; choices: string }>(
      ctx.db,
      `SELECT granted_at, term_version, choices FROM consents WHERE entry_id = ?`,
    ).get(entry.id);
    return {
      entry,
      campaign: getCampaign(ctx, entry.campaign_id),
      enrollment: findEnrollmentById(ctx.db, entry.enrollment_id)!,
      consent: consent ? { ...consent, choices: JSON.parse(consent.choices) } : null,
      jobs: prepare<[string], EntryTimeline['jobs'][number]>(
        ctx.db,
        `SELECT kind, run_at, attempts, last_error FROM jobs WHERE entry_id = ? ORDER BY id`,
      ).all(entry.id),
      awards: listAwardsOfEntry(ctx.db, entry.id).map((award) => ({
        ...award,
        prize_name: prepare<[string], string>(ctx.db, `SELECT name FROM prizes WHERE id = ?`).pluck().get(award.prize_id) ?? null,
        history: listAwardHistory(ctx.db, award.id),
      })),
      luckyNumbers: listLuckyNumbersOfEntry(ctx, entry.id),
      deliveries: listEntryDeliveryViews(ctx, entry.id).map((d) => ({ ...d, attempt_log: listAttempts(ctx.db, d.id) })),
    };
  })();
}
