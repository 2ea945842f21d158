// SQL of the campaigns table and the row <-> Campaign conversion.
import type { Db } from '../db/open.ts';
import { cachedRow, invalidateRows } from '../db/row-cache.ts';
import { prepare } from '../db/statements.ts';
import type { Campaign, RequiredField } from './campaign.ts';

/** The stored shape: booleans as 0/1, the required fields as JSON text. */
type CampaignRow = Omit<Campaign, 'required_fields' | 'allow_companies' | 'api_enabled'> & {
  required_fields: string;
  allow_companies: number;
  api_enabled: number;
};

function rowToCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    name: row.name,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    purchase_from: row.purchase_from,
    purchase_to: row.purchase_to,
    required_fields: JSON.parse(row.required_fields) as RequiredField[],
    allow_companies: row.allow_companies === 1,
    api_enabled: row.api_enabled === 1,
    instant_prize: row.instant_prize,
    lucky_numbers: row.lucky_numbers,
    lucky_quantity: row.lucky_quantity,
    series_count: row.series_count,
    max_entries_per_participant: row.max_entries_per_participant,
    max_entries_per_day: row.max_entries_per_day,
    fiscal_verifier_url: row.fiscal_verifier_url,
    webhook_api: row.webhook_api,
    authorization: row.authorization,
    promoter: row.promoter,
    promoter_document: row.promoter_document,
    promoter_address: row.promoter_address,
    notify_within: row.notify_within,
    notify_days: row.notify_days,
    deliver_within: row.deliver_within,
    closed_at: row.closed_at,
    closed_by: row.closed_by,
    close_reason: row.close_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function campaignToRow(c: Campaign): CampaignRow {
  return {
    ...c,
    required_fields: JSON.stringify(c.required_fields),
    allow_companies: c.allow_companies ? 1 : 0,
    api_enabled: c.api_enabled ? 1 : 0,
  };
}

const COLUMNS = `id, name, starts_at, ends_at, purchase_from, purchase_to, required_fields, allow_companies, api_enabled,
  instant_prize, lucky_numbers, lucky_quantity, series_count, max_entries_per_participant, max_entries_per_day,
  fiscal_verifier_url, webhook_api, authorization, promoter, promoter_document, promoter_address, notify_within, notify_days,
  deliver_within, closed_at, closed_by, close_reason, created_at, updated_at`;

export function insertCampaign(db: Db, c: Campaign): void {
  prepare(
    db,
    `INSERT INTO campaigns (${COLUMNS}) VALUES (@id, @name, @starts_at, @ends_at, @purchase_from, @purchase_to,
    @required_fields, @allow_companies, @api_enabled, @instant_prize, @lucky_numbers, @lucky_quantity, @series_count,
    @max_entries_per_participant, @max_entries_per_day, @fiscal_verifier_url, @webhook_api, @authorization, @promoter, @promoter_document, @promoter_address,
    @notify_within, @notify_days, @deliver_within, @closed_at, @closed_by, @close_reason, @created_at, @updated_at)`,
  ).run(campaignToRow(c));
  invalidateRows(db);
}

export function updateCampaignRow(db: Db, c: Campaign): void {
  prepare(
    db,
    `UPDATE campaigns SET name = @name, starts_at = @starts_at, ends_at = @ends_at, purchase_from = @purchase_from,
    purchase_to = @purchase_to, required_fields = @required_fields, allow_companies = @allow_companies,
    api_enabled = @api_enabled, instant_prize = @instant_prize, lucky_numbers = @lucky_numbers,
    lucky_quantity = @lucky_quantity, series_count = @series_count,
    max_entries_per_participant = @max_entries_per_participant, max_entries_per_day = @max_entries_per_day,
    fiscal_verifier_url = @fiscal_verifier_url, webhook_api = @webhook_api,
    authorization = @authorization, promoter = @promoter, promoter_document = @promoter_document,
    promoter_address = @promoter_address, notify_within = @notify_within, notify_days = @notify_days,
    deliver_within = @deliver_within, updated_at = @updated_at WHERE id = @id`,
  ).run(campaignToRow(c));
  invalidateRows(db);
}

/** Marks the campaign closed; false when it already was (the closing checks first, in its transaction). */
export function closeCampaignRow(db: Db, id: string, at: string, by: string, reason: string | null): boolean {
  const changed = prepare(
    db,
    `UPDATE campaigns SET closed_at = ?, closed_by = ?, close_reason = ?, updated_at = ? WHERE id = ? AND closed_at IS NULL`,
  ).run(at, by, reason, at, id).changes;
  invalidateRows(db);
  return changed === 1;
}

export function findCampaignById(db: Db, id: string): Campaign | undefined {
  const row = prepare<[string], CampaignRow>(db, `SELECT ${COLUMNS} FROM campaigns WHERE id = ?`).get(id);
  return row && rowToCampaign(row);
}

/**
 * findCampaignById through the row memo (db/row-cache.ts), for intake, which reads the campaign on
 * every request. The object is shared between requests and frozen.
 */
export function findCampaignByIdCached(db: Db, id: string): Readonly<Campaign> | undefined {
  return cachedRow(db, 'campaigns', id, () => {
    const campaign = findCampaignById(db, id);
    return campaign && deepFreeze(campaign);
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export function listCampaigns(db: Db): Campaign[] {
  return prepare<[], CampaignRow>(db, `SELECT ${COLUMNS} FROM campaigns ORDER BY created_at, id`).all().map(rowToCampaign);
}
