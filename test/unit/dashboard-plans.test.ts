// Page speed by construction (issue 25: ≤ 100 ms p95 at a million entries): every statement the
// dashboard's pages run is planned on an index, never a scan of a table. The statements are
// caught as the page functions prepare them on a migrated database, then EXPLAIN QUERY PLAN'd.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliActor } from '../../src/audit/actor.ts';
import { createCampaign } from '../../src/campaigns/campaigns.ts';
import { ManualClock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { listCampaignEntries, parseEntryFilter } from '../../src/dashboard/entries.ts';
import { liveFigures, summarizeCampaigns } from '../../src/dashboard/figures.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { queryPlan, reads, statementsPrepared } from '../support/query-plans.ts';

test("the dashboard's statements search indexes; none scans a table", () => {
  const db = openDatabase(':memory:');
  const ctx: Ctx = { db, clock: new ManualClock(), random: seededRandom(1), config: loadConfig({}, {}, false), log: createSilentLogger() };
  const campaign = createCampaign(ctx, { name: 'Plans', luckyNumbers: 'auto' }, cliActor('test'));
  const statements = statementsPrepared(db, () => {
    summarizeCampaigns(ctx, null);
    liveFigures(ctx, campaign, 'live', null);
    for (const query of [
      '',
      'status=REJECTED&from=2026-11-01&to=2026-11-22',
      'q=529.982.247-25',
      'q=maria@example.com',
      'before=2026-11-22T12:00:00.000Z|0196a1b2-0000-7000-8000-000000000000',
    ])
      listCampaignEntries(ctx, campaign.id, parseEntryFilter(new URLSearchParams(query), 'live'));
  });
  assert.ok(statements.size >= 12, `caught ${statements.size} statements`);
  const scans: string[] = [];
  for (const sql of reads(statements)) {
    // A number where one is counted: the attempts window.
    const plan = queryPlan(db, sql, (text) => text.replace(/- @window/g, '- 5000'));
    // A co-routine's rows (SCAN e) and json_each (a VIRTUAL TABLE) are not tables read whole; the
    // overview lists every campaign (a handful of rows, as `ces campaign list`).
    const bad = plan.filter((step) => step.startsWith('SCAN ') && !/VIRTUAL TABLE|^SCAN (e|\(subquery|campaigns$)/.test(step));
    if (bad.length > 0) scans.push(`${sql.replace(/\s+/g, ' ')}\n  ${plan.join('\n  ')}`);
    // Recent attempts: by the attempts' primary key first, then each delivery by its id.
    if (/FROM webhook_attempts a (CROSS )?JOIN/.test(sql)) assert.match(plan[0], /^SEARCH a USING INTEGER PRIMARY KEY \(rowid>\?\)/);
  }
  assert.deepEqual(scans, []);
  db.close();
});
