// POST /v1/entries/{entry_id}/lucky-numbers: the integrator's own numbers for a manual-mode
// campaign (docs/api.md#mechanics-lucky-numbers-and-instant-prizes). Checks run in a fixed order, state
// before body, so a client learns first whether it may submit at all. The first accepted
// submission is final; pair uniqueness is the primary key of lucky_numbers.
import { unknownFieldErrors } from '../validation/unknown-fields.ts';
import { findCampaignById } from '../campaigns/campaigns.repo.ts';
import type { Ctx } from '../kernel/context.ts';
import { isUniqueViolation } from '../db/statements.ts';
import { findScopedEntry, type EntryRow } from '../entries/entries.repo.ts';
import { AppError, notFound, validationFailed, type FieldError } from '../kernel/errors.ts';
import type { Caller } from '../keys/keys.ts';
import { countLuckyNumbersForEntry, insertLuckyNumber } from './lucky-numbers.repo.ts';
import { array, type, type Infer } from 'superstruct';
import { describedString, structErrors } from '../validation/described.ts';

/** The request body's shape and field rules (also its OpenAPI schema); the entry's terms are checked after it. */
export const LuckyNumbersBodyStruct = type({
  numbers: array(
    type({
      series: describedString({
        pattern: /^[0-9]{1,9}$/,
        code: 'invalid_series',
        message: 'series must be a non-negative integer string such as "0"',
        description: 'Non-negative integer string, 0 to series_count - 1 (outcome.series_count).',
      }),
      order_number: describedString({
        pattern: /^[0-9]{5}$/,
        code: 'invalid_order_number',
        message: 'order_number must be a string of exactly 5 digits, "00000" to "99999"',
        description: 'Exactly 5 digits, "00000" to "99999".',
      }),
    }),
  ),
});

interface LuckyNumbersAssigned {
  entry_id: string;
  assigned_count: number;
  status: 'ASSIGNED';
}

export function submitManualLuckyNumbers(ctx: Ctx, caller: Caller, entryId: string, body: unknown, now: string): LuckyNumbersAssigned {
  return ctx.db
    .transaction(() => {
      const livemode = caller.livemode ? 1 : 0;
      const entry = findScopedEntry(ctx.db, entryId, caller.campaignId, livemode);
      const campaign = findCampaignById(ctx.db, caller.campaignId);
      if (!entry || !campaign) throw notFound('Entry');
      if (campaign.lucky_numbers !== 'manual') {
        throw new AppError(
          422,
          'mechanic_not_manual',
          `The campaign's lucky-numbers mechanic is "${campaign.lucky_numbers}", not manual; the service does not take submitted numbers.`,
        );
      }
      if (entry.status === 'REJECTED') throw new AppError(422, 'entry_rejected', 'The entry was rejected; it holds no lucky numbers.');
      if (entry.evaluated_at === null) {
        throw new AppError(
          409,
          'not_evaluated',
          'The entry has not been evaluated yet; wait for entry.evaluated before submitting lucky numbers.',
        );
      }
      if (countLuckyNumbersForEntry(ctx.db, entry.id) > 0) {
        throw new AppError(
          409,
          'lucky_numbers_already_submitted',
          'Lucky numbers were already submitted for this entry; the first accepted submission is final.',
        );
      }
      const terms = manualTerms(entry);
      if (!terms) {
        throw new AppError(
          409,
          'not_evaluated',
          'The entry was not evaluated for manual lucky numbers: its entry.evaluated has no lucky_numbers outcome with quantity and series_count (the campaign took no manual numbers then).',
        );
      }
      const pairs = parseNumbers(body);
      if (pairs.length !== terms.quantity) {
        throw new AppError(
          422,
          'quantity_mismatch',
          `Send exactly ${terms.quantity} lucky number(s) (outcome.quantity); got ${pairs.length}.`,
          [{ field: 'numbers', code: 'quantity_mismatch', message: `expected ${terms.quantity} items` }],
        );
      }
      const outOfRange: FieldError[] = [];
      pairs.forEach((p, i) => {
        if (p.series >= terms.series_count) {
          outOfRange.push({
            field: `numbers[${i}].series`,
            code: 'series_out_of_range',
            message: `series must be 0 to ${terms.series_count - 1}`,
          });
        }
      });
      if (outOfRange.length > 0)
        throw new AppError(422, 'series_out_of_range', `Every series must be from 0 to ${terms.series_count - 1}.`, outOfRange);
      const seen = new Map<string, number>();
      const duplicates: FieldError[] = [];
      pairs.forEach((p, i) => {
        const k = `${p.series}/${p.order_number}`;
        const first = seen.get(k);
        if (first !== undefined)
          duplicates.push({ field: `numbers[${i}]`, code: 'duplicate_pairs', message: `same pair as numbers[${first}]` });
        else seen.set(k, i);
      });
      if (duplicates.length > 0)
        throw new AppError(422, 'duplicate_pairs', 'The request repeats a (series, order_number) pair.', duplicates);
      pairs.forEach((p, i) => {
        try {
          insertLuckyNumber(ctx.db, {
            campaign_id: caller.campaignId,
            livemode,
            series: p.series,
            order_number: p.order_number,
            entry_id: entry.id,
            source: 'manual',
            created_at: now,
          });
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // Throwing rolls the whole submission back: nothing of it is kept.
          throw new AppError(422, 'pair_taken', `The pair series ${p.series}, order_number ${p.raw} is already held in this campaign.`, [
            { field: `numbers[${i}]`, code: 'pair_taken', message: 'pair already held in the campaign' },
          ]);
        }
      });
      return { entry_id: entry.id, assigned_count: pairs.length, status: 'ASSIGNED' as const };
    })
    .immediate();
}

/**
 * quantity and series_count as the integrator saw them in entry.evaluated
 * (docs/api.md#mechanics-lucky-numbers-and-instant-prizes: submit exactly outcome.quantity); null when
 * that event carried no manual lucky-numbers outcome, as for an entry evaluated while the campaign had
 * no manual mechanic and changed to manual afterwards.
 */
function manualTerms(entry: EntryRow): { quantity: number; series_count: number } | null {
  const mechanics =
    entry.mechanics === null ? [] : (JSON.parse(entry.mechanics) as Array<{ mechanic_type: string; outcome: Record<string, unknown> }>);
  const lucky = mechanics.find((m) => m.mechanic_type === 'lucky_numbers');
  const q = lucky?.outcome.quantity;
  const s = lucky?.outcome.series_count;
  return typeof q === 'number' && typeof s === 'number' ? { quantity: q, series_count: s } : null;
}

interface ParsedPair {
  series: number;
  order_number: number;
  raw: string;
}

function parseNumbers(body: unknown): ParsedPair[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationFailed([{ field: '', code: 'invalid_type', message: 'the body must be a JSON object {numbers: [...]}' }]);
  }
  const errors = structErrors(body, LuckyNumbersBodyStruct, 'bracket');
  errors.push(...unknownFieldErrors(body, LuckyNumbersBodyStruct, 'bracket'));
  if (errors.length > 0) throw validationFailed(errors);
  const { numbers } = body as Infer<typeof LuckyNumbersBodyStruct>;
  return numbers.map((item) => ({ series: Number(item.series), order_number: Number(item.order_number), raw: item.order_number }));
}
