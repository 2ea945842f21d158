// Prize pools per campaign and mode (docs/api.md#prizes-stock-and-awards). The operator registers prizes; a confirmed win
// takes a unit, a revoke or reassign returns it; a win is never blocked by an empty pool.
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, type FieldError } from '../kernel/errors.ts';
import { toMode, type Mode } from '../keys/keys.ts';
import { MAX_NAME_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import { insertPrize, listPrizes, type PrizeRow } from './prizes.repo.ts';

/** The integrator-facing prize (GET /v1/prizes). */
interface Prize {
  id: string;
  name: string;
  type: string;
  unit_value: number;
  initial_stock: number;
  current_stock: number;
}

/** The operator's view adds the mode and the wins confirmed beyond the pool. */
export interface OperatorPrize extends Prize {
  campaign_id: string;
  livemode: boolean;
  awarded_beyond_pool: number;
  created_at: string;
}

export function rowToPrize(row: PrizeRow): Prize {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    unit_value: row.unit_value,
    initial_stock: row.initial_stock,
    current_stock: row.current_stock,
  };
}

function rowToOperatorPrize(row: PrizeRow): OperatorPrize {
  return {
    ...rowToPrize(row),
    campaign_id: row.campaign_id,
    livemode: row.livemode === 1,
    awarded_beyond_pool: row.awarded_beyond_pool,
    created_at: row.created_at,
  };
}

/**
 * A prize of the campaign's pool in one mode. `unitValue` and `stock` arrive as numbers, read from
 * the operator's text at the edge (src/kernel/numbers.ts parseDecimal: NaN when not digits, which
 * the checks here refuse like any other bad value, beside the other fields' problems).
 */
export function addPrize(
  ctx: Ctx,
  input: { campaignId: string; mode: Mode; name: string; type: string; unitValue: number; stock: number },
  actor: Actor,
): OperatorPrize {
  const { mode, unitValue, stock } = input;
  getCampaign(ctx, input.campaignId);
  const errors: FieldError[] = [];
  for (const field of ['name', 'type'] as const) {
    const text = input[field].trim();
    const problem = operatorTextProblem(fieldName(field), text, MAX_NAME_LENGTH);
    if (text === '') errors.push({ field, code: 'required', message: `${fieldName(field)} must not be empty` });
    else if (problem) errors.push({ field, ...problem });
  }
  if (!Number.isFinite(unitValue) || unitValue < 0)
    errors.push({ field: 'unit_value', code: 'invalid_option', message: '`unit_value` must be a number >= 0' });
  if (!Number.isSafeInteger(stock) || stock < 0)
    errors.push({
      field: 'stock',
      code: 'invalid_option',
      message: `${fieldName('stock')} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
    });
  if (errors.length > 0) throw new AppError(422, 'invalid_prize', errors.map((e) => e.message).join('; '), errors);
  const row: PrizeRow = {
    id: ctx.random.uuid(),
    campaign_id: input.campaignId,
    livemode: mode === 'live' ? 1 : 0,
    name: input.name.trim(),
    type: input.type.trim(),
    unit_value: unitValue,
    initial_stock: stock,
    current_stock: stock,
    awarded_beyond_pool: 0,
    created_at: nowIso(ctx.clock),
  };
  return ctx.db
    .transaction(() => {
      insertPrize(ctx.db, row);
      recordAudit(ctx, {
        actor,
        action: 'prize.added',
        campaignId: row.campaign_id,
        details: { prize_id: row.id, mode, name: row.name, type: row.type, unit_value: row.unit_value, stock: row.initial_stock },
      });
      return rowToOperatorPrize(row);
    })
    .immediate();
}

export function listOperatorPrizes(ctx: Ctx, campaignId: string, mode: string): OperatorPrize[] {
  const m = toMode(mode);
  getCampaign(ctx, campaignId);
  return listPrizes(ctx.db, campaignId, m === 'live' ? 1 : 0).map(rowToOperatorPrize);
}
