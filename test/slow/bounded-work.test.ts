// Work that grows with the data, in a real `ces serve`: a campaign switched to automatic lucky
// numbers with 999,990 of its 1,000,000 pairs held by manual numbers makes its next evaluation
// skip held pairs for minutes. Those skips are spread over short transactions, so SIGTERM is
// answered in the middle of the walk, and the walk goes on from where it stopped at the next start.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { updateCampaign } from '../../src/campaigns/campaigns.ts';
import { parseSubmission } from '../../src/entries/submission.ts';
import { writeEntry } from '../../src/intake/write-stage.ts';
import { entryBody, makeCampaign, OPERATOR } from '../support/harness.ts';
import { killServe, openFileCtx, spawnServe, type ServeProcess } from '../support/serve-process.ts';

let dir: string;
let serve: ServeProcess | undefined;
after(async () => {
  await killServe(serve);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const poll = async (what: string, ok: () => boolean, ms: number): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

test('SIGTERM in the middle of a walk over a million held pairs: the server exits 0 at once, the walk kept so far stays', async () => {
  dir = mkdtempSync(join(tmpdir(), 'ces-bounded-'));
  const dbPath = join(dir, 'ces.db');
  const setup = await openFileCtx(dbPath);
  const world = makeCampaign(setup, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 10 });
  const caller = { keyId: world.liveKeyId, campaignId: world.campaign.id, mode: 'live' as const, livemode: true };
  const now = setup.clock.now();
  const write = (i: number): string =>
    setup.db
      .transaction(() => writeEntry(setup, world.campaign, caller, `bounded-${i}`, parseSubmission(entryBody({}, i), now)))
      .immediate().entry_id;
  const filler = write(1);
  setup.db
    .prepare(
      `WITH RECURSIVE v(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM v WHERE x + 1 < 999990)
      INSERT INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
      SELECT ?, 1, x / 100000, x % 100000, ?, 'manual', ? FROM v`,
    )
    .run(world.campaign.id, filler, new Date(now).toISOString());
  // The filler was decided and evaluated while the campaign was manual (its numbers submitted then).
  setup.db.prepare(`DELETE FROM jobs WHERE entry_id = ?`).run(filler);
  setup.db
    .prepare(
      `UPDATE entries SET status = 'APPROVED', rejection_reasons = '[]', processed_at = @at, mechanics = '[]', evaluated_at = @at WHERE id = @id`,
    )
    .run({ at: new Date(now).toISOString(), id: filler });
  const campaign = updateCampaign(setup, world.campaign.id, { luckyNumbers: 'auto' }, OPERATOR);
  const entry = write(2);
  assert.equal(campaign.lucky_numbers, 'auto');
  setup.db.close();

  serve = await spawnServe({ dbPath, tickMs: 20, env: { CES_SHUTDOWN_TIMEOUT_MS: '2000' }, startTimeoutMs: 120_000 });
  const reader = new Database(dbPath, { readonly: true });
  try {
    const drawn = (): number =>
      (reader.prepare('SELECT drawn FROM lucky_pools WHERE campaign_id = ?').get(world.campaign.id) as { drawn: number } | undefined)
        ?.drawn ?? 0;
    // Committed progress, seen from another connection: the walk runs in transactions of its own.
    await poll('the first skips committed', () => drawn() > 2_000, 60_000);
    serve.child.kill('SIGTERM');
    const exit = await Promise.race([serve.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000).unref())]);
    assert.deepEqual(exit, { code: 0, signal: null }, serve.output());
    const stoppedAt = drawn();
    assert.ok(stoppedAt > 2_000 && stoppedAt < 999_990, `drawn ${stoppedAt}`);
    const row = reader.prepare('SELECT status, evaluated_at FROM entries WHERE id = ?').get(entry) as {
      status: string;
      evaluated_at: string | null;
    };
    assert.deepEqual(row, { status: 'APPROVED', evaluated_at: null });
    // The evaluation waits as a job of its own, unattempted.
    const job = reader.prepare(`SELECT kind, attempts, locked_until FROM jobs WHERE entry_id = ?`).get(entry);
    assert.deepEqual(job, { kind: 'evaluate', attempts: 0, locked_until: null });
  } finally {
    reader.close();
  }
});
