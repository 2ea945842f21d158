// Page speed by construction for the operations pages (issue 25: ≤ 100 ms p95 at a million
// entries), as test/unit/dashboard-plans.test.ts does for the live pages: every statement that
// the keys, webhook, prizes, participants, exports and audit pages read runs on an index. The
// statements are caught as the domain functions prepare them, then EXPLAIN QUERY PLAN'd.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliActor } from '../../src/audit/actor.ts';
import { listAuditRecords } from '../../src/audit/audit.ts';
import { createCampaign } from '../../src/campaigns/campaigns.ts';
import { ManualClock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { countEntriesFromTotals } from '../../src/exports/entries-export.ts';
import { listKeys } from '../../src/keys/keys.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { listOperatorPrizes } from '../../src/mechanics/prizes.ts';
import { summarizePrizeWindows } from '../../src/mechanics/windows.ts';
import { findParticipantSummary } from '../../src/participants/participants.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { queryPlan, reads, statementsPrepared } from '../support/query-plans.ts';
import { findOperatorWebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { listRecentDeliveryViews } from '../../src/webhooks/deliveries.ts';

test("the operations pages' reads search indexes; none scans a table", () => {
  const db = openDatabase(':memory:');
  const ctx: Ctx = { db, clock: new ManualClock(), random: seededRandom(1), config: loadConfig({}, {}, false), log: createSilentLogger() };
  const campaign = createCampaign(ctx, { name: 'Plans', instantPrize: 'WINDOW' }, cliActor('test'));
  const statements = statementsPrepared(db, () => {
    listKeys(ctx, campaign.id);
    findOperatorWebhookConfig(ctx, campaign.id);
    for (const status of [undefined, 'failed']) listRecentDeliveryViews(ctx, campaign.id, status, 50);
    listOperatorPrizes(ctx, campaign.id, 'live');
    summarizePrizeWindows(ctx, campaign.id, 'live', 20);
    for (const livemode of [undefined, 1] as const) countEntriesFromTotals(ctx, { campaignId: campaign.id, livemode, status: 'APPROVED' });
    listAuditRecords(ctx, { limit: 51 });
    listAuditRecords(ctx, { campaignId: campaign.id, limit: 51, beforeId: 100 });
    listAuditRecords(ctx, { campaignId: campaign.id, action: 'key.issued', limit: 51 });
    listAuditRecords(ctx, { action: 'key.issued', limit: 51, beforeId: 100 });
    assert.throws(() => findParticipantSummary(ctx, { campaignId: campaign.id, livemode: 1, document: '529.982.247-25' }), /not found/i);
  });
  assert.ok(statements.size >= 10, `caught ${statements.size} statements`);
  const scans: string[] = [];
  for (const sql of reads(statements)) {
    const plan = queryPlan(db, sql);
    // A subquery's rows (the per-status lists merged) are not a table read whole; the audit log
    // unfiltered is read newest first on its primary key and stops at the page's size.
    const bad = plan.filter((step) => step.startsWith('SCAN ') && !/^SCAN \(subquery|^SCAN audit_log$|pragma_table_info/.test(step));
    if (bad.length > 0) scans.push(`${sql.replace(/\s+/g, ' ')}\n  ${plan.join('\n  ')}`);
    // The deliveries walked per status on the campaign's index (never sorted whole), the windows
    // on the index of the unclaimed ones (not on claimed_by_entry_id IS NULL, every campaign's).
    if (/FROM webhook_deliveries\b/.test(sql))
      assert.ok(
        plan.some((step) => step.includes('webhook_deliveries_campaign (campaign_id=? AND status=?)')),
        plan.join('\n'),
      );
    if (/FROM prize_windows\b/.test(sql))
      assert.ok(
        plan.some((step) => step.includes('INDEX prize_windows_open')),
        plan.join('\n'),
      );
  }
  assert.deepEqual(scans, []);
  db.close();
});
