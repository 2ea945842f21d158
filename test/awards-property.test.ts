// Property test (fast-check): random sequences of declare / approve / reject / revoke / reassign,
// window entries and window creation, over a declared campaign (with automatic lucky numbers on a
// nearly full pool) and a WINDOW campaign, through the same domain functions the HTTP handlers
// and the pipeline call. After every step:
//   - per prize: current_stock = max(0, initial_stock - awarded units) and
//     awarded_beyond_pool = max(0, awarded units - initial_stock) = awards flagged beyond_pool;
//   - at most one live (pending|awarded) award per entry, none on a rejected entry, and a pending
//     one only on an entry not evaluated yet;
//   - no window is given to two entries, and every window award matches its window's claim;
//   - no lucky-number pair is given to two entries, and each entry's outcome matches its rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createCampaign, type Campaign } from '../src/campaigns/campaigns.ts';
import { ManualClock, nowIso } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import type { Ctx } from '../src/context.ts';
import { openDatabase } from '../src/db/open.ts';
import { findEntryById } from '../src/entries/entries.repo.ts';
import { writeEntry } from '../src/entries/intake.ts';
import { parseSubmission } from '../src/entries/submission.ts';
import { AppError } from '../src/errors.ts';
import { issueKey, type Caller } from '../src/keys/keys.ts';
import { createSilentLogger } from '../src/log.ts';
import { findLatestAwardForEntry } from '../src/mechanics/awards.repo.ts';
import { reassignInstantPrize, revokeInstantPrize } from '../src/mechanics/instant-prize.ts';
import { addPrize } from '../src/mechanics/prizes.ts';
import { addWindows } from '../src/mechanics/windows.ts';
import { approveEntry, evaluateEntry, rejectEntry } from '../src/pipeline/processing.ts';
import { seededRandom } from '../src/random.ts';
import { entryBody } from './support/harness.ts';

/** Free pairs left in the declared campaign's pool at the start: collisions and exhaustion happen. */
const FREE_PAIRS = 12;

type Op =
  | { kind: 'declare'; prize: number | null | 'none' }
  | { kind: 'window_entry' }
  | { kind: 'approve'; entry: number }
  | { kind: 'reject'; entry: number }
  | { kind: 'revoke'; entry: number; any: boolean }
  | { kind: 'reassign'; entry: number; any: boolean; target: number | null; prize: number }
  | { kind: 'add_window'; prize: number; offsetMin: number }
  | { kind: 'advance'; minutes: number };

/** true one time in five. */
const rarely = fc.integer({ min: 0, max: 4 }).map((n) => n === 0);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('declare' as const), prize: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant(null), fc.constant('none' as const)) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('window_entry' as const) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('approve' as const), entry: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reject' as const), entry: fc.nat(40) }) },
  // `any: false` picks among entries that hold an award (the interesting case); true, any entry.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('revoke' as const), entry: fc.nat(40), any: rarely }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reassign' as const), entry: fc.nat(40), any: rarely, target: fc.option(fc.nat(40)), prize: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('add_window' as const), prize: fc.integer({ min: 0, max: 1 }), offsetMin: fc.integer({ min: -30, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 20 }) }) },
);

interface World {
  ctx: Ctx;
  clock: ManualClock;
  declared: { campaign: Campaign; caller: Caller; prizes: string[] };
  window: { campaign: Campaign; caller: Caller; prizes: string[] };
  entries: Array<{ id: string; campaign: Campaign }>;
}

function buildWorld(seed: number, stocks: number[]): World {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const config = loadConfig({ db: ':memory:' }, {}, false);
  const ctx: Ctx = { db: openDatabase(':memory:'), clock, random: seededRandom(seed), config, log: createSilentLogger() };
  const make = (options: Parameters<typeof createCampaign>[1], prizeStocks: number[]) => {
    const campaign = createCampaign(ctx, { name: 'property', ...options });
    const key = issueKey(ctx, { campaignId: campaign.id, mode: 'live' });
    const caller: Caller = { keyId: key.id, campaignId: campaign.id, mode: 'live', livemode: true };
    const prizes = prizeStocks.map((stock, i) => addPrize(ctx, { campaignId: campaign.id, mode: 'live', name: `P${i}`, type: 'voucher', unitValue: 10, stock }).id);
    return { campaign, caller, prizes };
  };
  const declared = make({ instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'auto', luckyQuantity: 2 }, stocks);
  const window = make({ instantPrize: 'WINDOW' }, stocks.slice(0, 2));
  // The pool as 100,000 - FREE_PAIRS boundary draws leave it (the drawn pairs are left out of
  // lucky_numbers to keep each run fast; only the FREE_PAIRS undrawn ones can be handed out).
  ctx.db.prepare('INSERT INTO lucky_pools (campaign_id, livemode, size, drawn) VALUES (?, 1, 100000, ?)').run(declared.campaign.id, 100_000 - FREE_PAIRS);
  return { ctx, clock, declared, window, entries: [] };
}

let participant = 0;

function submit(w: World, side: World['declared'], instantWin: unknown): string {
  const i = ++participant;
  const body = entryBody(instantWin === undefined ? {} : { instant_win: instantWin }, i);
  const submission = parseSubmission(body, w.clock.now());
  return w.ctx.db.transaction(() => writeEntry(w.ctx, side.campaign, side.caller, `k-${i}`, submission)).immediate().entry_id;
}

/** Runs one step; domain refusals (4xx AppError) are expected outcomes, anything else fails. */
function apply(w: World, op: Op): void {
  const { ctx } = w;
  const now = nowIso(w.clock);
  const from = <T>(list: T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
  const withStatus = (status: string) => w.entries.filter((e) => findEntryById(ctx.db, e.id)!.status === status);
  const withAward = () => w.entries.filter((e) => findLatestAwardForEntry(ctx.db, e.id) !== undefined);
  const pick = (n: number) => from(w.entries, n);
  try {
    switch (op.kind) {
      case 'declare': {
        const win = op.prize === 'none' ? undefined : op.prize === null ? { won: false } : { won: true, prize_definition_id: w.declared.prizes[op.prize] };
        w.entries.push({ id: submit(w, w.declared, win), campaign: w.declared.campaign });
        break;
      }
      case 'window_entry':
        w.entries.push({ id: submit(w, w.window, undefined), campaign: w.window.campaign });
        break;
      case 'approve': {
        const e = from(withStatus('PENDING'), op.entry);
        if (!e) return;
        ctx.db.transaction(() => {
          const row = findEntryById(ctx.db, e.id)!;
          if (row.status !== 'PENDING') return;
          approveEntry(ctx, row, now);
          evaluateEntry(ctx, e.campaign, findEntryById(ctx.db, e.id)!, now);
        }).immediate();
        break;
      }
      case 'reject': {
        const e = from(withStatus('PENDING'), op.entry);
        if (!e) return;
        ctx.db.transaction(() => {
          const row = findEntryById(ctx.db, e.id)!;
          if (row.status === 'PENDING') rejectEntry(ctx, row, [{ code: 'property', message: 'rejected by the property test' }], now);
        }).immediate();
        break;
      }
      case 'revoke': {
        const e = op.any ? pick(op.entry) : from(withAward(), op.entry);
        if (!e) return;
        revokeInstantPrize(ctx, callerOf(w, e.campaign), e.id, { reason: 'property' }, now);
        break;
      }
      case 'reassign': {
        const e = op.any ? pick(op.entry) : from(withAward(), op.entry);
        if (!e) return;
        // Targets mostly among approved entries, where a reassignment can succeed.
        const target = op.target === null ? undefined : (op.any ? pick(op.target) : from(withStatus('APPROVED'), op.target))?.id;
        const side = e.campaign.id === w.declared.campaign.id ? w.declared : w.window;
        reassignInstantPrize(ctx, side.caller, e.id, { prize_definition_id: side.prizes[op.prize % side.prizes.length], target_entry_id: target }, now);
        break;
      }
      case 'add_window':
        addWindows(ctx, { campaignId: w.window.campaign.id, mode: 'live', prizeId: w.window.prizes[op.prize], opensAt: new Date(w.clock.now() + op.offsetMin * 60_000).toISOString() });
        break;
      case 'advance':
        w.clock.advance(op.minutes * 60_000);
        break;
    }
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return;
    throw error;
  }
}

function callerOf(w: World, campaign: Campaign): Caller {
  return campaign.id === w.declared.campaign.id ? w.declared.caller : w.window.caller;
}

function checkInvariants(w: World): void {
  const db = w.ctx.db;
  const prizes = db.prepare(`SELECT p.id, p.initial_stock, p.current_stock, p.awarded_beyond_pool,
      (SELECT count(*) FROM awards a WHERE a.prize_id = p.id AND a.status = 'awarded') AS awarded,
      (SELECT count(*) FROM awards a WHERE a.prize_id = p.id AND a.status = 'awarded' AND a.beyond_pool = 1) AS flagged
    FROM prizes p`).all() as Array<{ id: string; initial_stock: number; current_stock: number; awarded_beyond_pool: number; awarded: number; flagged: number }>;
  for (const p of prizes) {
    assert.equal(p.current_stock, Math.max(0, p.initial_stock - p.awarded), `stock of ${p.id}`);
    assert.equal(p.awarded_beyond_pool, Math.max(0, p.awarded - p.initial_stock), `beyond pool of ${p.id}`);
    assert.equal(p.flagged, p.awarded_beyond_pool, `flagged awards of ${p.id}`);
  }
  const live = db.prepare(`SELECT entry_id, count(*) AS n FROM awards WHERE status IN ('pending', 'awarded') GROUP BY entry_id HAVING n > 1`).all();
  assert.deepEqual(live, []);
  // A pending win (declared, or reassigned before evaluation) waits only for an entry still to be
  // evaluated: evaluation confirms it, rejection voids it.
  const stranded = db.prepare(`SELECT a.id FROM awards a JOIN entries e ON e.id = a.entry_id WHERE a.status = 'pending' AND (e.status = 'REJECTED' OR e.evaluated_at IS NOT NULL)`).all();
  assert.deepEqual(stranded, [], 'a pending award on a rejected or evaluated entry');
  // A rejected entry keeps no win, not even one a reassignment registered on it while it was processed.
  const kept = db.prepare(`SELECT a.id FROM awards a JOIN entries e ON e.id = a.entry_id WHERE a.status = 'awarded' AND e.status = 'REJECTED'`).all();
  assert.deepEqual(kept, [], 'an awarded win on a rejected entry');
  const windowAwards = db.prepare(`SELECT a.entry_id, a.window_id, w.claimed_by_entry_id FROM awards a JOIN prize_windows w ON w.id = a.window_id WHERE a.source = 'window'`).all() as Array<{ entry_id: string; window_id: number; claimed_by_entry_id: string }>;
  assert.equal(new Set(windowAwards.map((a) => a.window_id)).size, windowAwards.length, 'a window given twice');
  for (const a of windowAwards) assert.equal(a.claimed_by_entry_id, a.entry_id);
  const claimed = (db.prepare('SELECT count(*) AS n FROM prize_windows WHERE claimed_by_entry_id IS NOT NULL').get() as { n: number }).n;
  assert.equal(claimed, windowAwards.length);
  // Lucky numbers: outcomes never share a pair, and each outcome is what the table holds.
  const seen = new Set<string>();
  const evaluated = db.prepare(`SELECT id, mechanics FROM entries WHERE mechanics IS NOT NULL`).all() as Array<{ id: string; mechanics: string }>;
  for (const e of evaluated) {
    const lucky = (JSON.parse(e.mechanics) as Array<{ mechanic_type: string; status: string; outcome: { numbers?: Array<{ series: string; order_number: string }> } }>)
      .find((m) => m.mechanic_type === 'lucky_numbers');
    if (!lucky || lucky.status !== 'APPROVED') continue;
    const pairs = lucky.outcome.numbers!.map((n) => `${n.series}/${n.order_number}`);
    for (const p of pairs) {
      assert.ok(!seen.has(p), `pair ${p} given twice`);
      seen.add(p);
    }
    const rows = (db.prepare('SELECT series, order_number FROM lucky_numbers WHERE entry_id = ?').all(e.id) as Array<{ series: number; order_number: number }>)
      .map((r) => `${r.series}/${String(r.order_number).padStart(5, '0')}`);
    assert.deepEqual(new Set(rows), new Set(pairs));
  }
  // Every award's status is the last step of its history.
  const mismatched = db.prepare(`SELECT a.id FROM awards a WHERE a.status != (SELECT h.to_status FROM award_history h WHERE h.award_id = a.id ORDER BY h.id DESC LIMIT 1)`).all();
  assert.deepEqual(mismatched, []);
}

test('random declare/approve/reject/revoke/reassign and window sequences keep the stock and claim invariants', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }), fc.array(opArb, { minLength: 20, maxLength: 60 }), (seed, stocks, ops) => {
      const w = buildWorld(seed, stocks);
      try {
        for (const op of ops) {
          apply(w, op);
          checkInvariants(w);
        }
      } finally {
        w.ctx.db.close();
      }
    }),
    { numRuns: Number(process.env.CES_PROPERTY_RUNS ?? 80), includeErrorInReport: true },
  );
});
