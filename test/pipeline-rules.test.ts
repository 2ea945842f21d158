// Pure rules of processing: backoff bounds, São Paulo calendar arithmetic, and the issue-month
// checks against the purchase period (its end exclusive, like the registration window's).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Campaign } from '../src/campaigns/campaigns.ts';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import { JOB_RETRY_CAP_MS, jobRetryDelayMs } from '../src/pipeline/backoff.ts';
import { checkIssueMonth } from '../src/pipeline/checks.ts';
import { saoPauloDay, saoPauloMonthIndex } from '../src/input/timestamps.ts';
import { seededRandom } from '../src/kernel/random.ts';

test('job backoff: between half and all of base * 2^(n-1), capped at one hour', () => {
  const random = seededRandom(7);
  for (let attempts = 1; attempts <= 40; attempts++) {
    const ceiling = Math.min(JOB_RETRY_CAP_MS, 5_000 * 2 ** Math.min(attempts - 1, 30));
    for (let k = 0; k < 50; k++) {
      const d = jobRetryDelayMs(attempts, random);
      assert.ok(d >= Math.floor(ceiling / 2) && d <= ceiling, `attempt ${attempts}: ${d} not in [${ceiling / 2}, ${ceiling}]`);
    }
  }
  const spread = new Set(Array.from({ length: 50 }, () => jobRetryDelayMs(3, random)));
  assert.ok(spread.size > 10, 'jittered');
});

test('São Paulo days and months are UTC-3', () => {
  const day = saoPauloDay(Date.parse('2026-11-23T02:59:59.999Z'));
  assert.equal(new Date(day.start).toISOString(), '2026-11-22T03:00:00.000Z');
  assert.equal(new Date(day.end).toISOString(), '2026-11-23T03:00:00.000Z');
  assert.equal(saoPauloDay(Date.parse('2026-11-23T03:00:00.000Z')).start, day.end);
  assert.equal(saoPauloMonthIndex(Date.parse('2026-12-01T02:59:00Z')), 2026 * 12 + 10, 'still November in São Paulo');
  assert.equal(saoPauloMonthIndex(Date.parse('2026-12-01T03:00:00Z')), 2026 * 12 + 11);
});

const campaign = (from: string | null, to: string | null, startsAt: string | null = null, endsAt: string | null = null): Campaign =>
  ({ purchase_from: from, purchase_to: to, starts_at: startsAt, ends_at: endsAt }) as Campaign;
const codes = (c: Campaign, yymm: string, now = '2026-11-22T12:00:00Z'): string[] =>
  checkIssueMonth(c, makeAccessKey({ yymm }), Date.parse(now)).map((r) => r.code);

test('issue month against the purchase period and the current month', () => {
  const nov = campaign('2026-11-01T03:00:00Z', '2026-12-01T03:00:00Z');
  assert.deepEqual(codes(nov, '2611'), []);
  assert.deepEqual(codes(nov, '2610'), ['purchase_outside_period']);
  assert.deepEqual(
    codes(nov, '2612', '2026-12-05T12:00:00Z'),
    ['purchase_outside_period'],
    'the period ends with November (end exclusive)',
  );
  assert.deepEqual(codes(nov, '2612'), ['access_key_issued_in_future', 'purchase_outside_period']);
  assert.deepEqual(codes(campaign(null, null), '2611'), []);
  assert.deepEqual(codes(campaign(null, null), '2612'), ['access_key_issued_in_future']);
  assert.deepEqual(
    codes(campaign(null, null), '2612', '2026-12-01T02:00:00Z'),
    ['access_key_issued_in_future'],
    'still November in São Paulo',
  );
  assert.deepEqual(codes(campaign(null, null), '2612', '2026-12-01T03:00:00Z'), []);
  assert.deepEqual(
    codes(campaign(null, null, '2026-11-10T03:00:00Z', null), '2610'),
    ['purchase_outside_period'],
    'defaults to the registration window',
  );
  assert.deepEqual(codes(campaign('2026-01-01T03:00:00Z', null, '2026-11-10T03:00:00Z', null), '2610'), [], 'an explicit period wins');
  assert.deepEqual(codes(campaign(null, null), '2600'), ['access_key_invalid_month']);
  assert.deepEqual(
    checkIssueMonth(campaign(null, null), '1'.repeat(48), Date.parse('2026-11-22T12:00:00Z')),
    [],
    'longer keys have no month to judge',
  );
});
