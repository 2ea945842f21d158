// WINDOW instant prizes (docs/api.md#instant-prize-window): the operator creates time-gated windows, one prize unit
// each; on evaluation an approved entry claims the earliest open, unclaimed window (windows.repo.ts).
// `count` N creates N windows: all at `opens_at`, or spread `every` seconds apart, or evenly from
// `opens_at` to `until` (first at `opens_at`, last at `until`). The numbers arrive as numbers, read
// from the operator's text at the edge (src/kernel/numbers.ts parseDecimal: NaN when not digits,
// which the checks here refuse like any other bad value, beside the other fields' problems).
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, type FieldError } from '../kernel/errors.ts';
import { toLivemode, toMode, type Mode } from '../keys/keys.ts';
import { EARLIEST_MS, EARLIEST_TIMESTAMP, LATEST_MS, LATEST_TIMESTAMP, parseZonedInstant } from '../input/timestamps.ts';
import { findScopedPrize } from './prizes.repo.ts';
import {
  countUnclaimedWindowsByPrize,
  insertWindow,
  listUnclaimedWindows,
  listWindows,
  type PrizeWindowRow,
  type WindowCountsRow,
} from './windows.repo.ts';

export interface PrizeWindow {
  id: number;
  campaign_id: string;
  livemode: boolean;
  prize_id: string;
  opens_at: string;
  claimed_by_entry_id: string | null;
  claimed_at: string | null;
  created_at: string;
}

function rowToWindow(row: PrizeWindowRow): PrizeWindow {
  return { ...row, livemode: row.livemode === 1 };
}

/** Most windows one command creates. */
const MAX_WINDOWS_PER_ADD = 100_000;

interface AddWindowsInput {
  campaignId: string;
  mode: Mode;
  prizeId: string;
  opensAt: string;
  count?: number;
  every?: number;
  until?: string;
}

export function addWindows(ctx: Ctx, input: AddWindowsInput, actor: Actor): PrizeWindow[] {
  const mode = input.mode;
  const livemode = mode === 'live' ? 1 : 0;
  const campaign = getCampaign(ctx, input.campaignId);
  const errors: FieldError[] = [];
  const fail = (field: string, message: string): void => {
    errors.push({ field, code: 'invalid_option', message });
  };
  if (campaign.instant_prize !== 'WINDOW')
    fail('campaign', `the campaign's instant-prize mechanic is ${campaign.instant_prize}, not WINDOW`);
  if (!findScopedPrize(ctx.db, input.prizeId, campaign.id, livemode))
    fail('prize', `${fieldName('prize')} is not a prize of this campaign in ${mode} mode`);
  const opensMs = parseZonedInstant(input.opensAt);
  if (opensMs === null)
    fail('opens_at', `${fieldName('opens_at')} must be an ISO 8601 date-time with its zone (Z or ±hh:mm), got "${input.opensAt}"`);
  else if (opensMs < EARLIEST_MS) fail('opens_at', `${fieldName('opens_at')} must be no earlier than ${EARLIEST_TIMESTAMP}`);
  const count = input.count ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > MAX_WINDOWS_PER_ADD)
    fail('count', `${fieldName('count')} must be an integer from 1 to ${MAX_WINDOWS_PER_ADD}`);
  if (input.every !== undefined && input.until !== undefined) fail('every', 'give `every` or `until`, not both');
  let stepMs = 0;
  if (input.every !== undefined) {
    if (!Number.isFinite(input.every) || input.every <= 0) fail('every', '`every` must be a number of seconds > 0');
    else stepMs = input.every * 1000;
  }
  if (input.until !== undefined) {
    const untilMs = parseZonedInstant(input.until);
    if (untilMs === null)
      fail('until', `${fieldName('until')} must be an ISO 8601 date-time with its zone (Z or ±hh:mm), got "${input.until}"`);
    else if (opensMs !== null && untilMs < opensMs) fail('until', '`until` must not be before `opens_at`');
    else if (opensMs !== null && count > 1) stepMs = (untilMs - opensMs) / (count - 1);
  }
  // No window opens after the last four-digit year (LATEST_TIMESTAMP): beyond it a time is no longer
  // ISO 8601 as stored (+010000-…), and a large --every overflowed JavaScript's dates altogether.
  if (errors.length === 0 && opensMs! + (count - 1) * stepMs > LATEST_MS) {
    if (opensMs! > LATEST_MS) fail('opens_at', `${fieldName('opens_at')} must be no later than ${LATEST_TIMESTAMP}`);
    else if (input.until !== undefined) fail('until', `${fieldName('until')} must be no later than ${LATEST_TIMESTAMP}`);
    else
      fail(
        'every',
        `${fieldName('every')} ${input.every} puts the last of ${count} windows after ${LATEST_TIMESTAMP}, the latest a window can open`,
      );
  }
  if (errors.length > 0) throw new AppError(422, 'invalid_window', errors.map((e) => e.message).join('; '), errors);
  const now = nowIso(ctx.clock);
  return ctx.db
    .transaction(() => {
      const out: PrizeWindow[] = [];
      for (let i = 0; i < count; i++) {
        const opensAt = new Date(Math.round(opensMs! + i * stepMs)).toISOString();
        out.push(
          rowToWindow(
            insertWindow(ctx.db, { campaign_id: campaign.id, livemode, prize_id: input.prizeId, opens_at: opensAt, created_at: now }),
          ),
        );
      }
      // One record per command: a spread of 100,000 windows is one change.
      recordAudit(ctx, {
        actor,
        action: 'window.added',
        campaignId: campaign.id,
        details: {
          prize_id: input.prizeId,
          mode,
          count,
          window_ids: [out[0].id, out.at(-1)!.id],
          opens_at: [out[0].opens_at, out.at(-1)!.opens_at],
        },
      });
      return out;
    })
    .immediate();
}

export function listPrizeWindows(ctx: Ctx, campaignId: string, mode?: string): PrizeWindow[] {
  getCampaign(ctx, campaignId);
  return listWindows(ctx.db, campaignId, toLivemode(mode) ?? null).map(rowToWindow);
}

export interface WindowsOverview {
  byPrize: WindowCountsRow[];
  /** The next unclaimed windows, in the order entries claim them. */
  next: PrizeWindow[];
}

/**
 * A campaign's windows still to be won at a glance (the dashboard's prizes page): per prize, and
 * the next `limit` in claim order; never the whole list (a campaign may hold a hundred thousand).
 */
export function summarizePrizeWindows(ctx: Ctx, campaignId: string, mode: string, limit: number): WindowsOverview {
  const livemode = toMode(mode) === 'live' ? 1 : 0;
  getCampaign(ctx, campaignId);
  return {
    byPrize: countUnclaimedWindowsByPrize(ctx.db, campaignId, livemode),
    next: listUnclaimedWindows(ctx.db, campaignId, livemode, limit).map(rowToWindow),
  };
}
