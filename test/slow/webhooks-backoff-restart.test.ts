// An endpoint's back-off survives a restart (issue 32, item 10): the scheduler keeps it in memory,
// and a server that starts on the same database rebuilds it from the attempts recorded lately
// (src/webhooks/endpoint-health.ts), so it does not start by sending a dead endpoint
// CES_DELIVERY_PER_ENDPOINT attempts at once. The failures are made by the real sender against a
// receiver that answers 503, on a real SQLite file; the restart is a second server on that file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ManualClock } from '../../src/kernel/clock.ts';
import { replayFailures } from '../../src/webhooks/scheduler.ts';
import { configureWebhook, entryBody, makeCampaign, startTestServer, submitEntry, type TestServer } from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';

const START = Date.parse('2026-11-22T12:00:00.000Z');
// One attempt per event while the test's clock stands still: the retry is a minute later.
const ENV = { CES_WEBHOOK_RETRY_SCHEDULE: '60,60,60', CES_DELIVERY_PER_ENDPOINT: '4' };
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * A database whose campaign's endpoint failed 6 attempts in a row (503: the 3 events of each of 2
 * entries), then, with `recovered`, answered their retries 200; then the server stopped.
 */
async function failedEndpoint(recovered = false): Promise<{ dbPath: string; campaignId: string; endedAt: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'ces-restart-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const dbPath = join(dir, 'ces.db');
  let answer = 503;
  const receiver = await startReceiver({ respond: () => answer });
  cleanups.push(() => receiver.close());
  const clock = new ManualClock(START);
  const t = await startTestServer({ dbPath, env: ENV, clock });
  const w = makeCampaign(t.ctx);
  await configureWebhook(t, w.liveKey, receiver.url);
  await submitEntry(t, w.liveKey, entryBody({}, 1), 'e-1');
  await submitEntry(t, w.liveKey, entryBody({}, 2), 'e-2');
  // Ticks by hand, the real sender recording each attempt: the entries are processed, their events sent.
  while (receiver.requests.length < 6) await t.tick();
  const endedAt = (
    t.ctx.db.prepare(`SELECT attempted_at, latency_ms FROM webhook_attempts ORDER BY id`).all() as Array<{
      attempted_at: string;
      latency_ms: number;
    }>
  ).map((a) => Date.parse(a.attempted_at) + a.latency_ms);
  if (recovered) {
    answer = 200;
    clock.advance(60_000);
    await t.tick();
  }
  await t.close();
  return { dbPath, campaignId: w.campaign.id, endedAt };
}

async function restart(dbPath: string, atMs: number): Promise<TestServer> {
  const t = await startTestServer({ dbPath, env: ENV, clock: new ManualClock(atMs) });
  cleanups.push(() => t.close());
  return t;
}

test('restarted half a second after its fifth failure in a row, the endpoint is still cooling down: no attempt may start', async () => {
  const { dbPath, campaignId, endedAt } = await failedEndpoint();
  assert.equal(endedAt.length, 6);
  const t = await restart(dbPath, START + 500);
  const scheduler = t.server.service.deliveries;
  const [endpoint] = scheduler.view();
  assert.equal(endpoint.key, campaignId);
  assert.equal(endpoint.failuresInARow, 6);
  assert.equal(endpoint.backedOff, true);
  // The fifth failure began a 1 s cool-down; the sixth ended inside it and did not lengthen it.
  const coolDownLeft = endedAt[4] + 1_000 - (START + 500);
  assert.ok(endpoint.backedOffForMs > 0 && endpoint.backedOffForMs <= coolDownLeft, `${endpoint.backedOffForMs} ms of ${coolDownLeft}`);
  assert.deepEqual(scheduler.plan([campaignId], false), [], 'nothing starts while it cools down');
});

test('restarted after the cool-down ended, a failing endpoint gets one probe at a time, not CES_DELIVERY_PER_ENDPOINT attempts', async () => {
  const { dbPath, campaignId } = await failedEndpoint();
  const t = await restart(dbPath, START + 10 * 60_000);
  assert.deepEqual(t.server.service.deliveries.plan([campaignId], false), [{ key: campaignId, room: 1 }]);
});

test('an endpoint whose last attempt succeeded, or whose failures are older than an hour, starts afresh', async () => {
  const recovered = await failedEndpoint(true);
  const t1 = await restart(recovered.dbPath, START + 60_500);
  assert.deepEqual(t1.server.service.deliveries.view(), []);
  assert.deepEqual(t1.server.service.deliveries.plan([recovered.campaignId], false), [{ key: recovered.campaignId, room: 4 }]);

  const old = await failedEndpoint();
  const t2 = await restart(old.dbPath, START + 3600_000 + 60_000);
  assert.deepEqual(t2.server.service.deliveries.plan([old.campaignId], false), [{ key: old.campaignId, room: 4 }]);
});

test('replayFailures: the threshold begins a cool-down, a failure inside it does not lengthen it, a failed probe doubles it, up to the cap', () => {
  const settings = { failuresBeforeBackoff: 3, backoffBaseMs: 1_000, backoffMaxMs: 4_000 };
  assert.deepEqual(replayFailures([], settings), { failuresInARow: 0, backoffStep: 0, backedOffUntilMs: null });
  assert.deepEqual(replayFailures([0, 10], settings), { failuresInARow: 2, backoffStep: 0, backedOffUntilMs: null });
  assert.deepEqual(replayFailures([0, 10, 20, 30], settings), { failuresInARow: 4, backoffStep: 1, backedOffUntilMs: 1_020 });
  // Probes failing after each cool-down: 1 s, 2 s, 4 s, then 4 s again (the cap).
  assert.deepEqual(replayFailures([0, 10, 20, 1_100, 3_200, 7_300], settings), {
    failuresInARow: 6,
    backoffStep: 4,
    backedOffUntilMs: 11_300,
  });
});
