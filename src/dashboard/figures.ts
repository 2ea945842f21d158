// The figures the dashboard shows, gathered from the same tables the CLI reads, through the
// statements of figures.repo.ts. Days are America/Sao_Paulo calendar days (fixed UTC-3, as
// `ces stats`: Brazil has had no daylight-saving time since 2019).
import { listCampaigns, registrationClosedReason, type Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Mode } from '../keys/keys.ts';
import type { DeliveryScheduler } from '../webhooks/scheduler.ts';
import { findWebhookConfig } from '../webhooks/webhook-config.repo.ts';
import { saoPauloDay } from '../input/timestamps.ts';
import { PAIRS_PER_SERIES } from '../mechanics/lucky-pairs.ts';
import { countedLately, lastDayByHour, type HourBar, type StatusCounts } from './hourly.ts';
import {
  countLuckyPairs,
  countPendingDeliveries,
  entryCountsOf,
  lastSettledDeliveries,
  listPrizeStock,
  oldestPendingDelivery,
  recentAttempts,
  recentRejectionReasons,
  type PrizeStockRow,
  type SettledDelivery,
} from './figures.repo.ts';

type WindowState = 'open' | 'not_started' | 'ended';

/** Where the registration window stands at `nowMs` (the API switch is shown apart). */
export function windowState(campaign: Campaign, nowMs: number): WindowState {
  if (campaign.starts_at && nowMs < Date.parse(campaign.starts_at)) return 'not_started';
  if (campaign.ends_at && nowMs >= Date.parse(campaign.ends_at)) return 'ended';
  return 'open';
}

interface ModeFigures {
  mode: Mode;
  /** Entries per hour and status over the last 24 hours, oldest first. */
  hours: HourBar[];
  total: number;
  today: number;
  byStatus: StatusCounts;
  /** Approved of the entries processed (approved + rejected), 0 to 1; null before any is processed. */
  approvalRate: number | null;
}

export interface WebhookHealth {
  configured: boolean;
  active: boolean;
  lastDelivered: SettledDelivery | null;
  lastFailed: SettledDelivery | null;
  /** Attempts that failed in a row, as the running server's scheduler counts them. */
  failuresInARow: number;
  backedOff: boolean;
  backedOffForMs: number;
  inFlight: number;
}

export interface CampaignSummary {
  campaign: Campaign;
  window: WindowState;
  /** Null when entries are accepted now; else why POST /v1/entries answers 403. */
  closedReason: string | null;
  modes: ModeFigures[];
  webhook: WebhookHealth;
  backlog: { pendingDeliveries: number; unprocessedEntries: number };
}

function emptyCounts(): StatusCounts {
  return { PENDING: 0, APPROVED: 0, REJECTED: 0 };
}

function approvalRate(c: StatusCounts): number | null {
  const processed = c.APPROVED + c.REJECTED;
  return processed === 0 ? null : c.APPROVED / processed;
}

/** Every campaign with its figures, newest first as `ces campaign list`; one read transaction. */
export function summarizeCampaigns(ctx: Ctx, scheduler: DeliveryScheduler | null): CampaignSummary[] {
  return ctx.db.transaction(() => listCampaigns(ctx).map((campaign) => summarize(ctx, campaign, scheduler)))();
}

function summarize(ctx: Ctx, campaign: Campaign, scheduler: DeliveryScheduler | null): CampaignSummary {
  const now = ctx.clock.now();
  const dayStart = saoPauloDay(now).start;
  const counts = { live: emptyCounts(), test: emptyCounts() };
  for (const row of entryCountsOf(ctx.db, campaign.id))
    counts[row.livemode === 1 ? 'live' : 'test'][row.status as keyof StatusCounts] = row.n;
  const modes = (['live', 'test'] as const).map((mode): ModeFigures => {
    const byStatus = counts[mode];
    const hours = lastDayByHour(ctx, { campaign_id: campaign.id, livemode: mode === 'live' ? 1 : 0 });
    // The Sao Paulo day starts on a whole UTC hour (03:00Z), less than 24 hours ago.
    const today = hours.filter((h) => Date.parse(h.start) >= dayStart).reduce((n, h) => n + h.PENDING + h.APPROVED + h.REJECTED, 0);
    return {
      mode,
      total: byStatus.PENDING + byStatus.APPROVED + byStatus.REJECTED,
      today,
      byStatus,
      approvalRate: approvalRate(byStatus),
      hours,
    };
  });
  return {
    campaign,
    window: windowState(campaign, now),
    closedReason: registrationClosedReason(campaign, now),
    modes,
    webhook: webhookHealth(ctx, campaign.id, scheduler),
    backlog: {
      pendingDeliveries: countPendingDeliveries(ctx.db, campaign.id),
      unprocessedEntries: counts.live.PENDING + counts.test.PENDING,
    },
  };
}

function webhookHealth(ctx: Ctx, campaignId: string, scheduler: DeliveryScheduler | null): WebhookHealth {
  const config = findWebhookConfig(ctx.db, campaignId);
  const settled = lastSettledDeliveries(ctx.db, campaignId);
  const endpoint = scheduler?.view().find((e) => e.key === campaignId);
  return {
    configured: config !== undefined,
    active: config?.is_active === 1,
    lastDelivered: settled.find((d) => d.status === 'delivered') ?? null,
    lastFailed: settled.find((d) => d.status === 'failed') ?? null,
    failuresInARow: endpoint?.failuresInARow ?? 0,
    backedOff: endpoint?.backedOff ?? false,
    backedOffForMs: endpoint?.backedOffForMs ?? 0,
    inFlight: endpoint?.inFlight ?? 0,
  };
}

/** Rejection reasons are read from this many newest rejected entries. */
export const REJECTION_SAMPLE = 1000;
/** Webhook success and lag are read from the server's newest attempts, this many. */
export const ATTEMPT_WINDOW = 5000;
export interface LiveFigures {
  summary: CampaignSummary;
  mode: ModeFigures;
  /** The last 24 hours, oldest first, the current hour last. */
  hours: HourBar[];
  rejections: { entries: number; reasons: Array<{ code: string; n: number }> };
  prizes: PrizeStockRow[];
  lucky: { mechanic: Campaign['lucky_numbers']; used: number; capacity: number };
  deliveries: {
    attempts: number;
    successes: number;
    /** Median answer time of the receiver, ms. */
    latencyP50: number | null;
    /** From the event's creation to its successful attempt: median and 95th percentile, ms. */
    lagP50: number | null;
    lagP95: number | null;
    oldestPendingAgeMs: number | null;
  };
}

/** A campaign's live page in one mode; one read transaction. */
export function liveFigures(ctx: Ctx, campaign: Campaign, mode: Mode, scheduler: DeliveryScheduler | null): LiveFigures {
  return ctx.db.transaction(() => {
    const summary = summarize(ctx, campaign, scheduler);
    const scope = { campaign_id: campaign.id, livemode: mode === 'live' ? 1 : 0 };
    const now = ctx.clock.now();
    const modeFigures = summary.modes.find((m) => m.mode === mode)!;
    const attempts = recentAttempts(ctx.db, { ...scope, window: ATTEMPT_WINDOW });
    const ok = attempts.filter((a) => a.status_code !== null && a.status_code >= 200 && a.status_code < 300);
    const lags = ok.map((a) => Date.parse(a.attempted_at) - Date.parse(a.event_created_at));
    const oldest = oldestPendingDelivery(ctx.db, scope);
    return {
      summary,
      mode: modeFigures,
      hours: modeFigures.hours,
      rejections: recentRejectionReasons(ctx.db, { ...scope, limit: REJECTION_SAMPLE }),
      prizes: listPrizeStock(ctx.db, scope),
      lucky: {
        mechanic: campaign.lucky_numbers,
        used:
          campaign.lucky_numbers === 'none'
            ? 0
            : countedLately(ctx, `lucky|${campaign.id}|${scope.livemode}`, () => countLuckyPairs(ctx.db, scope)),
        capacity: campaign.series_count * PAIRS_PER_SERIES,
      },
      deliveries: {
        attempts: attempts.length,
        successes: ok.length,
        latencyP50: quantile(
          attempts.map((a) => a.latency_ms).filter((n): n is number => n !== null),
          0.5,
        ),
        lagP50: quantile(lags, 0.5),
        lagP95: quantile(lags, 0.95),
        oldestPendingAgeMs: oldest === null ? null : Math.max(0, now - Date.parse(oldest)),
      },
    };
  })();
}

/** The q-quantile (nearest rank) of some numbers; null for none. */
function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
