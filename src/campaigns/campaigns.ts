// Campaigns: the operator's settings that every rule of intake, processing and the mechanics
// reads. Created and updated only through the CLI; the API sees the campaign of its key.
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { maskUrlCredentials } from '../tools/url-credentials.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, notFound, type FieldError } from '../kernel/errors.ts';
import { parseDecimal } from '../kernel/numbers.ts';
import { MAX_NAME_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import { applyIdentity, type IdentityOptions } from './identity.ts';
import { EARLIEST_MS, EARLIEST_TIMESTAMP, LATEST_MS, LATEST_TIMESTAMP, parseZonedInstant } from '../input/timestamps.ts';
import {
  INSTANT_PRIZE_MODES,
  LUCKY_NUMBER_MODES,
  NOTIFY_DAYS,
  REQUIRED_FIELDS,
  WEBHOOK_API_ACCESS,
  type Campaign,
  type RequiredField,
  type WebhookApiAccess,
} from './campaign.ts';
import { findCampaignById, insertCampaign, listCampaigns as listCampaignRows, updateCampaignRow } from './campaigns.repo.ts';

export { REQUIRED_FIELDS, INSTANT_PRIZE_MODES, LUCKY_NUMBER_MODES, WEBHOOK_API_ACCESS };
export type { Campaign, RequiredField };

/** Operator input: strings as typed on the command line; `null` clears an optional setting. */
export interface CampaignOptions extends IdentityOptions {
  name?: string;
  startsAt?: string | null;
  endsAt?: string | null;
  purchaseFrom?: string | null;
  purchaseTo?: string | null;
  require?: string | null;
  allowCompanies?: boolean;
  apiEnabled?: boolean;
  instantPrize?: string;
  luckyNumbers?: string;
  luckyQuantity?: string | number;
  seriesCount?: string | number;
  maxEntriesPerParticipant?: string | number | null;
  maxEntriesPerDay?: string | number | null;
  fiscalVerifierUrl?: string | null;
  webhookApi?: string;
  notifyWithin?: string | number;
  notifyDays?: string;
  deliverWithin?: string | number;
}

/** Longest fiscal verifier URL, as a webhook endpoint's. */
const MAX_URL_LENGTH = 2048;

/** Largest series_count: pairs are series x 100000 and must stay well inside a JS integer. */
const MAX_SERIES_COUNT = 100_000;

export function createCampaign(ctx: Ctx, options: CampaignOptions, actor: Actor): Campaign {
  // An empty or blank name is refused by applyOptions, with the code and words of an update's.
  if (options.name === undefined) {
    throw new AppError(422, 'invalid_campaign_options', 'name is required', [
      { field: 'name', code: 'required', message: 'name is required' },
    ]);
  }
  const now = nowIso(ctx.clock);
  const base: Campaign = {
    id: ctx.random.uuid(),
    name: '',
    starts_at: null,
    ends_at: null,
    purchase_from: null,
    purchase_to: null,
    required_fields: [],
    allow_companies: false,
    api_enabled: true,
    instant_prize: 'none',
    lucky_numbers: 'none',
    lucky_quantity: 1,
    series_count: 1,
    max_entries_per_participant: null,
    max_entries_per_day: null,
    fiscal_verifier_url: null,
    webhook_api: 'any',
    authorization: null,
    promoter: null,
    promoter_document: null,
    promoter_address: null,
    notify_within: 10,
    notify_days: 'calendar',
    deliver_within: 30,
    closed_at: null,
    closed_by: null,
    close_reason: null,
    created_at: now,
    updated_at: now,
  };
  const campaign = applyOptions(base, options);
  return ctx.db
    .transaction(() => {
      insertCampaign(ctx.db, campaign);
      recordAudit(ctx, { actor, action: 'campaign.created', campaignId: campaign.id, details: { settings: auditedSettings(campaign) } });
      return campaign;
    })
    .immediate();
}

export function updateCampaign(ctx: Ctx, id: string, options: CampaignOptions, actor: Actor): Campaign {
  return ctx.db
    .transaction(() => {
      const current = getCampaign(ctx, id);
      assertCampaignOpen(current);
      const next = applyOptions(current, options);
      // No option, or only the values it already has: nothing changed, so neither does updated_at.
      if (JSON.stringify(next) === JSON.stringify(current)) return current;
      next.updated_at = nowIso(ctx.clock);
      updateCampaignRow(ctx.db, next);
      const before = auditedSettings(current);
      const after = auditedSettings(next);
      const changed = Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])));
      recordAudit(ctx, { actor, action: 'campaign.updated', campaignId: id, details: { changed } });
      return next;
    })
    .immediate();
}

/**
 * A campaign's settings as its audit records show them: every option but the id and timestamps,
 * the verifier URL without a password. None is personal data (the name is the campaign's).
 */
function auditedSettings(c: Campaign): Record<string, unknown> {
  const { id: _id, created_at: _created, updated_at: _updated, ...settings } = c;
  return {
    ...settings,
    fiscal_verifier_url: settings.fiscal_verifier_url === null ? null : maskUrlCredentials(settings.fiscal_verifier_url),
  };
}

/**
 * 409 campaign_closed: a closed campaign's prestação de contas is made and stored, so nothing it
 * reports (settings, draws, winners' steps) changes after it.
 */
export function assertCampaignOpen(campaign: Campaign): void {
  if (campaign.closed_at === null) return;
  throw new AppError(
    409,
    'campaign_closed',
    `campaign ${campaign.id} was closed at ${campaign.closed_at}: its prestação de contas is made and nothing it reports changes`,
  );
}

export function getCampaign(ctx: Ctx, id: string): Campaign {
  const campaign = findCampaignById(ctx.db, id);
  if (!campaign) throw notFound('Campaign');
  return campaign;
}

export function listCampaigns(ctx: Ctx): Campaign[] {
  return listCampaignRows(ctx.db);
}

/** Where registration stands at `nowMs`: open, or the reason POST /v1/entries answers 403. */
export function registrationClosedReason(campaign: Campaign, nowMs: number): string | null {
  if (campaign.closed_at !== null) return `The campaign was closed at ${campaign.closed_at}.`;
  if (!campaign.api_enabled) return 'The campaign is not enabled for the API channel.';
  if (campaign.starts_at && nowMs < Date.parse(campaign.starts_at)) return `Registration opens at ${campaign.starts_at}.`;
  if (campaign.ends_at && nowMs >= Date.parse(campaign.ends_at)) return `Registration closed at ${campaign.ends_at}.`;
  return null;
}

/** The purchase period that access keys must fall in: explicit, else the registration window. */
export function purchasePeriod(campaign: Campaign): { from: string | null; to: string | null } {
  return { from: campaign.purchase_from ?? campaign.starts_at, to: campaign.purchase_to ?? campaign.ends_at };
}

function applyOptions(current: Campaign, o: CampaignOptions): Campaign {
  const errors: FieldError[] = [];
  const next: Campaign = { ...current };
  const fail = (field: string, message: string): void => {
    errors.push({ field, code: 'invalid_option', message });
  };
  if (o.name !== undefined) {
    const name = o.name.trim();
    const problem = operatorTextProblem('name', name, MAX_NAME_LENGTH);
    if (name === '') fail('name', 'name must not be empty');
    else if (problem) errors.push({ field: 'name', ...problem });
    else next.name = name;
  }
  const instant = (field: string, value: string | null | undefined): string | null | undefined => {
    if (value === undefined || value === null || value === '') return value === '' ? null : value;
    const ms = parseZonedInstant(value);
    if (ms === null) {
      fail(field, `${field} must be an ISO 8601 date-time with its zone (Z or ±hh:mm, e.g. 2026-12-01T00:00:00-03:00), got "${value}"`);
      return undefined;
    }
    // 9999-12-31T23:00:00-03:00 is a four-digit year as typed but +010000-… in UTC, as stored.
    if (ms > LATEST_MS) {
      fail(field, `${field} must be no later than ${LATEST_TIMESTAMP} (the last four-digit year in UTC), got "${value}"`);
      return undefined;
    }
    if (ms < EARLIEST_MS) {
      fail(field, `${field} must be no earlier than ${EARLIEST_TIMESTAMP} (the first four-digit year in UTC), got "${value}"`);
      return undefined;
    }
    return new Date(ms).toISOString();
  };
  const setInstant = (field: 'starts_at' | 'ends_at' | 'purchase_from' | 'purchase_to', value: string | null | undefined): void => {
    const parsed = instant(field, value);
    if (parsed !== undefined) next[field] = parsed;
  };
  setInstant('starts_at', o.startsAt);
  setInstant('ends_at', o.endsAt);
  setInstant('purchase_from', o.purchaseFrom);
  setInstant('purchase_to', o.purchaseTo);
  if (o.require !== undefined) {
    const list = (o.require ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const unknown = list.filter((f) => !(REQUIRED_FIELDS as readonly string[]).includes(f));
    if (unknown.length > 0) fail('require', `unknown required field(s) ${unknown.join(', ')}; allowed: ${REQUIRED_FIELDS.join(', ')}`);
    else next.required_fields = [...new Set(list)] as RequiredField[];
  }
  if (o.allowCompanies !== undefined) next.allow_companies = o.allowCompanies;
  if (o.apiEnabled !== undefined) next.api_enabled = o.apiEnabled;
  if (o.instantPrize !== undefined) {
    if (!(INSTANT_PRIZE_MODES as readonly string[]).includes(o.instantPrize))
      fail('instant_prize', `${fieldName('instant_prize')} must be one of ${INSTANT_PRIZE_MODES.join(', ')}`);
    else next.instant_prize = o.instantPrize as Campaign['instant_prize'];
  }
  if (o.luckyNumbers !== undefined) {
    if (!(LUCKY_NUMBER_MODES as readonly string[]).includes(o.luckyNumbers))
      fail('lucky_numbers', `${fieldName('lucky_numbers')} must be one of ${LUCKY_NUMBER_MODES.join(', ')}`);
    else next.lucky_numbers = o.luckyNumbers as Campaign['lucky_numbers'];
  }
  const integer = (field: string, value: string | number, min: number, max: number): number | undefined => {
    const n = parseDecimal(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      fail(field, `${field} must be an integer from ${min} to ${max}, got "${value}"`);
      return undefined;
    }
    return n;
  };
  if (o.luckyQuantity !== undefined) next.lucky_quantity = integer('lucky_quantity', o.luckyQuantity, 1, 1000) ?? next.lucky_quantity;
  if (o.seriesCount !== undefined) next.series_count = integer('series_count', o.seriesCount, 1, MAX_SERIES_COUNT) ?? next.series_count;
  if (o.maxEntriesPerParticipant !== undefined) {
    next.max_entries_per_participant =
      o.maxEntriesPerParticipant === null
        ? null
        : (integer('max_entries_per_participant', o.maxEntriesPerParticipant, 1, 1_000_000_000) ?? null);
  }
  if (o.maxEntriesPerDay !== undefined) {
    next.max_entries_per_day =
      o.maxEntriesPerDay === null ? null : (integer('max_entries_per_day', o.maxEntriesPerDay, 1, 1_000_000_000) ?? null);
  }
  if (o.fiscalVerifierUrl !== undefined) {
    const url = o.fiscalVerifierUrl;
    const problem = url ? operatorTextProblem(fieldName('fiscal_verifier_url'), url, MAX_URL_LENGTH) : null;
    if (url === null || url === '') next.fiscal_verifier_url = null;
    // Checked before parsing: the URL parser drops tabs and line breaks, but the text is stored as typed.
    else if (problem) errors.push({ field: 'fiscal_verifier_url', ...problem });
    else if (!isHttpsUrl(url)) fail('fiscal_verifier_url', '`fiscal_verifier_url` must be an https:// URL');
    else next.fiscal_verifier_url = url;
  }
  if (o.webhookApi !== undefined) {
    if (!(WEBHOOK_API_ACCESS as readonly string[]).includes(o.webhookApi))
      fail('webhook_api', `webhook_api must be one of ${WEBHOOK_API_ACCESS.join(', ')}, got "${o.webhookApi}"`);
    else next.webhook_api = o.webhookApi as WebhookApiAccess;
  }
  if (o.notifyWithin !== undefined) next.notify_within = integer('notify_within', o.notifyWithin, 1, 365) ?? next.notify_within;
  if (o.notifyDays !== undefined) {
    if (!(NOTIFY_DAYS as readonly string[]).includes(o.notifyDays))
      fail('notify_days', `${fieldName('notify_days')} must be one of ${NOTIFY_DAYS.join(', ')}, got "${o.notifyDays}"`);
    else next.notify_days = o.notifyDays as Campaign['notify_days'];
  }
  // A prize is delivered within 30 days of the apuração (SPA's terms: docs/operations.md#the-rules-and-their-sources); a plan may promise sooner.
  if (o.deliverWithin !== undefined) next.deliver_within = integer('deliver_within', o.deliverWithin, 1, 30) ?? next.deliver_within;
  applyIdentity(next, o, errors);
  if (next.starts_at && next.ends_at && Date.parse(next.ends_at) <= Date.parse(next.starts_at))
    fail('ends_at', 'ends_at must be after starts_at');
  if (next.purchase_from && next.purchase_to && Date.parse(next.purchase_to) <= Date.parse(next.purchase_from))
    fail('purchase_to', 'purchase_to must be after purchase_from');
  if (errors.length > 0) throw new AppError(422, 'invalid_campaign_options', errors.map((e) => e.message).join('; '), errors);
  return next;
}

export function isHttpsUrl(value: string): boolean {
  if (!value.startsWith('https://')) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}
