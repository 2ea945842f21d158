// /healthz and /metrics count the backlog on the event loop at every poll (issue 43: work that grows
// with the data). A backlog after an outage can hold millions of rows, so each count stops at
// BACKLOG_COUNT_CAP: exact below it, "at least" at it, and read from an index, never a table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliActor } from '../../src/audit/actor.ts';
import { createCampaign } from '../../src/campaigns/campaigns.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ManualClock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { BACKLOG_COUNT_CAP, countJobs, countOutboxBacklog } from '../../src/metrics/metrics.repo.ts';
import { queryPlan, reads, statementsPrepared } from '../support/query-plans.ts';

function world(): { ctx: Ctx; campaignId: string } {
  const db = openDatabase(':memory:');
  const ctx: Ctx = { db, clock: new ManualClock(), random: seededRandom(1), config: loadConfig({}, {}, false), log: createSilentLogger() };
  return { ctx, campaignId: createCampaign(ctx, { name: 'Backlog' }, cliActor('test')).id };
}

/** `n` deliveries of `status`, without entries (the foreign keys are off for the fill). */
function fill(ctx: Ctx, campaignId: string, status: string, n: number, from: number): void {
  ctx.db.pragma('foreign_keys = OFF');
  ctx.db
    .prepare(
      `WITH RECURSIVE v(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM v WHERE x + 1 < ?)
      INSERT INTO webhook_deliveries (id, campaign_id, livemode, entry_id, event_type, payload, status, attempts, created_at)
      SELECT 'evt_' || x, ?, 1, 'entry-' || x, 'entry.received', '{}', ?, 0, '2026-11-22T12:00:00.000Z' FROM v`,
    )
    .run(from, from + n, campaignId, status);
  ctx.db.pragma('foreign_keys = ON');
}

test('backlog counts are exact below the cap and stop at it', () => {
  const { ctx, campaignId } = world();
  fill(ctx, campaignId, 'pending', 7, 0);
  fill(ctx, campaignId, 'failed', 3, 100);
  assert.deepEqual(countOutboxBacklog(ctx.db), { pending: 7, failed: 3 });
  assert.equal(countJobs(ctx.db), 0);
  fill(ctx, campaignId, 'pending', BACKLOG_COUNT_CAP + 5, 1_000_000);
  fill(ctx, campaignId, 'failed', BACKLOG_COUNT_CAP + 5, 3_000_000);
  assert.deepEqual(countOutboxBacklog(ctx.db), { pending: BACKLOG_COUNT_CAP, failed: BACKLOG_COUNT_CAP });
  ctx.db.close();
});

test('backlog counts read indexes, never a whole table', () => {
  const { ctx } = world();
  const statements = statementsPrepared(ctx.db, () => {
    countOutboxBacklog(ctx.db);
    countJobs(ctx.db);
  });
  const plans = reads(statements).map((sql) => queryPlan(ctx.db, sql).join(' | '));
  assert.equal(plans.length, 3);
  for (const plan of plans) assert.doesNotMatch(plan, /SCAN d\b|SCAN webhook_deliveries(?! USING)/, plan);
  assert.ok(
    plans.some((p) => /SEARCH d USING COVERING INDEX webhook_deliveries_campaign \(campaign_id=\? AND status=\?\)/.test(p)),
    plans.join('\n'),
  );
  ctx.db.close();
});
