// `ces stats`: one campaign's numbers for one mode, as a plain object (the --json document) that
// the CLI also renders as terminal tables.
import { getCampaign } from '../campaigns/campaigns.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import {
  countDeliveriesByStatus,
  countEntriesByDay,
  countEntriesByStatus,
  countLuckyNumbers,
  countRejectionReasons,
  listPrizeStats,
  type PrizeStatsRow,
} from './stats.repo.ts';

const STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
/** Pairs per series: order numbers 00000..99999. */
const PAIRS_PER_SERIES = 100_000;

interface DayStats {
  day: string;
  total: number;
  PENDING: number;
  APPROVED: number;
  REJECTED: number;
}

export interface CampaignStats {
  campaign_id: string;
  mode: 'live' | 'test';
  generated_at: string;
  time_zone: 'America/Sao_Paulo';
  entries: { total: number; by_status: Record<(typeof STATUSES)[number], number>; by_day: DayStats[] };
  rejection_reasons: Array<{ code: string; count: number }>;
  prizes: PrizeStatsRow[];
  lucky_numbers: { mechanic: string; assigned: number; entries_with_numbers: number; capacity: number; fill_percent: number };
  deliveries: { pending: number; delivered: number; failed: number; skipped: number; success_rate_percent: number | null };
}

export function collectCampaignStats(ctx: Ctx, campaignId: string, livemode: number): CampaignStats {
  const campaign = getCampaign(ctx, campaignId);
  const scope = { campaign_id: campaignId, livemode };
  // One read transaction: every number comes from the same snapshot even while the server writes.
  return ctx.db.transaction(() => {
    const byStatus = { PENDING: 0, APPROVED: 0, REJECTED: 0 };
    for (const r of countEntriesByStatus(ctx.db, scope)) byStatus[r.status as keyof typeof byStatus] = r.count;
    const days = new Map<string, DayStats>();
    for (const r of countEntriesByDay(ctx.db, scope)) {
      const day = days.get(r.day) ?? { day: r.day, total: 0, PENDING: 0, APPROVED: 0, REJECTED: 0 };
      day[r.status as (typeof STATUSES)[number]] = r.count;
      day.total += r.count;
      days.set(r.day, day);
    }
    const lucky = countLuckyNumbers(ctx.db, scope);
    const capacity = campaign.series_count * PAIRS_PER_SERIES;
    const deliveries = { pending: 0, delivered: 0, failed: 0, skipped: 0 };
    for (const r of countDeliveriesByStatus(ctx.db, scope)) deliveries[r.status as keyof typeof deliveries] = r.count;
    const settled = deliveries.delivered + deliveries.failed;
    return {
      campaign_id: campaignId,
      mode: livemode === 1 ? 'live' : 'test',
      generated_at: nowIso(ctx.clock),
      time_zone: 'America/Sao_Paulo',
      entries: { total: byStatus.PENDING + byStatus.APPROVED + byStatus.REJECTED, by_status: byStatus, by_day: [...days.values()] },
      rejection_reasons: countRejectionReasons(ctx.db, scope),
      prizes: listPrizeStats(ctx.db, scope),
      lucky_numbers: {
        mechanic: campaign.lucky_numbers,
        assigned: lucky.numbers,
        entries_with_numbers: lucky.entries,
        capacity,
        fill_percent: round((lucky.numbers / capacity) * 100, 4),
      },
      deliveries: { ...deliveries, success_rate_percent: settled === 0 ? null : round((deliveries.delivered / settled) * 100, 2) },
    } satisfies CampaignStats;
  })();
}

function round(n: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}
