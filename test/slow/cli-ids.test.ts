// Ids that ces generates as uuids (campaigns, API keys, prizes, entries) are read case-insensitively
// by every CLI command that takes one, as the HTTP API reads them (RFC 9562): an id pasted from a
// system that prints uuids upper-case names the same record. Run as the real `ces` program on the
// server's database file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addWindows } from '../../src/mechanics/windows.ts';
import {
  configureWebhook,
  cpf,
  makeCampaign,
  makePrize,
  runCli,
  startTestServer,
  type CliResult,
  type TestServer,
  OPERATOR,
} from '../support/harness.ts';
import { nextIndex, settle, submitEntry } from '../support/mechanics.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

describe('CLI: uuid ids in upper case name the same record', () => {
  let s: TestServer;
  let receiver: Receiver;
  before(async () => {
    s = await startTestServer();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await s.close();
  });

  // The receiver listens on 127.0.0.1.
  const cli = (args: string[]): Promise<CliResult> => runCli(args, { dbPath: s.dbPath, env: { CES_ALLOW_PRIVATE_WEBHOOKS: '1' } });
  const up = (id: string): string => id.toUpperCase();
  const same = (id: string): string => id;

  /**
   * A declared-win campaign with a webhook, a prize and one won, delivered entry; and a WINDOW
   * campaign with a prize and one window: every kind of id the commands take.
   */
  async function makeWorld() {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    await configureWebhook(s, w.liveKey, receiver.url);
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 5, 'Bike');
    const i = nextIndex();
    const entryId = await submitEntry(s, w.liveKey, { i, instantWin: { won: true, prize_definition_id: prize.id } });
    await settle(s);
    const windows = makeCampaign(s.ctx, { instantPrize: 'WINDOW' });
    const windowPrize = makePrize(s.ctx, windows.campaign.id, 'live', 3, 'Mug');
    addWindows(
      s.ctx,
      { campaignId: windows.campaign.id, mode: 'live', prizeId: windowPrize.id, opensAt: '2026-12-01T00:00:00Z' },
      OPERATOR,
    );
    return {
      w,
      campaignId: w.campaign.id,
      prizeId: prize.id,
      entryId,
      document: cpf(i),
      windowCampaignId: windows.campaign.id,
      windowPrizeId: windowPrize.id,
    };
  }

  test('commands that read print for the upper-cased id exactly what they print for the id as stored', async () => {
    const world = await makeWorld();
    const { campaignId: c, entryId: e } = world;
    const reads: Array<[string, (f: (id: string) => string) => string[]]> = [
      ['campaign show', (f) => ['campaign', 'show', f(c), '--json']],
      ['key list', (f) => ['key', 'list', '--campaign', f(c), '--json']],
      ['prize list', (f) => ['prize', 'list', '--campaign', f(c), '--mode', 'live', '--json']],
      ['window list', (f) => ['window', 'list', '--campaign', f(world.windowCampaignId), '--json']],
      ['webhook show', (f) => ['webhook', 'show', '--campaign', f(c), '--json']],
      ['webhook deliveries', (f) => ['webhook', 'deliveries', '--campaign', f(c), '--json']],
      ['entries list', (f) => ['entries', 'list', '--campaign', f(c), '--json']],
      ['entries show', (f) => ['entries', 'show', f(e), '--json']],
      // CSV on stdout: --json would need --out.
      ['entries export', (f) => ['entries', 'export', '--campaign', f(c), '--no-progress']],
      ['award list', (f) => ['award', 'list', '--campaign', f(c), '--json']],
      ['stats', (f) => ['stats', '--campaign', f(c), '--json']],
      ['participant export', (f) => ['participant', 'export', '--campaign', f(c), '--document', world.document, '--json']],
    ];
    const results = await Promise.all(reads.map(([, args]) => Promise.all([cli(args(same)), cli(args(up))])));
    // Left out: the time a command ran at, and the audit records of the participant exports
    // themselves (the second export lists the first).
    const stable = (r: CliResult): unknown =>
      r.json === undefined ? r.stdout : JSON.parse(r.stdout, (k, v) => (k === 'generated_at' || k === 'requests' ? undefined : v));
    results.forEach(([stored, upper], n) => {
      const what = reads[n][0];
      assert.equal(stored.code, 0, `${what}: ${stored.stderr}`);
      assert.equal(upper.code, 0, `${what} with the id upper-cased: ${upper.stderr}`);
      assert.deepEqual(stable(upper), stable(stored), what);
    });
    // Not vacuous: the listings found the records.
    const found = new Map(results.map(([stored], n) => [reads[n][0], stored]));
    assert.equal(found.get('key list')!.json.length, 2);
    assert.deepEqual(
      found.get('prize list')!.json.map((p: { id: string }) => p.id),
      [world.prizeId],
    );
    assert.deepEqual(
      found.get('window list')!.json.map((x: { prize_id: string }) => x.prize_id),
      [world.windowPrizeId],
    );
    assert.ok(found.get('webhook deliveries')!.json.length >= 3, found.get('webhook deliveries')!.stdout);
    assert.deepEqual(
      found.get('entries list')!.json.map((x: { entry_id: string }) => x.entry_id),
      [e],
    );
    assert.equal(found.get('entries export')!.stdout.trim().split('\n').length, 2, found.get('entries export')!.stdout);
    assert.deepEqual(
      found.get('award list')!.json.map((a: { entry_id: string }) => a.entry_id),
      [e],
    );
    // Both exports are recorded against the campaign id as stored.
    const audited = s.ctx.db.prepare("SELECT campaign_id FROM audit_log WHERE action = 'participant.exported'").pluck().all() as string[];
    assert.deepEqual(audited, [c, c]);
  });

  test('commands that write act on the record of the upper-cased id, and store ids in lower case', async () => {
    const world = await makeWorld();
    const { w, campaignId: c, entryId: e } = world;
    const storedSecret = (): unknown => s.ctx.db.prepare('SELECT secret FROM webhook_configs WHERE campaign_id = ?').pluck().get(c);
    const secretBefore = storedSecret();
    const [update, issue, prize, window, rotate, revokeAward, rotateSecret, redeliver, ping, anonymize] = await Promise.all([
      cli(['campaign', 'update', up(c), '--name', 'Renamed', '--json']),
      cli(['key', 'issue', '--campaign', up(c), '--mode', 'test', '--json']),
      cli([
        'prize',
        'add',
        '--campaign',
        up(c),
        '--mode',
        'test',
        '--name',
        'Cap',
        '--type',
        'gift',
        '--unit-value',
        '10',
        '--stock',
        '1',
        '--json',
      ]),
      cli([
        'window',
        'add',
        '--campaign',
        up(world.windowCampaignId),
        '--mode',
        'live',
        '--prize',
        up(world.windowPrizeId),
        '--opens-at',
        '2026-12-02T00:00:00Z',
        '--json',
      ]),
      cli(['key', 'rotate', up(w.testKeyId), '--json']),
      cli(['award', 'revoke', up(e), '--reason', 'audit', '--json']),
      cli(['webhook', 'rotate-secret', '--campaign', up(c), '--json']),
      cli(['webhook', 'redeliver', '--campaign', up(c), '--failed', '--json']),
      cli(['webhook', 'test', '--campaign', up(c), '--mode', 'live', '--json']),
      cli(['participant', 'anonymize', '--campaign', up(c), '--document', world.document, '--json']),
    ]);
    for (const [what, r] of Object.entries({
      update,
      issue,
      prize,
      window,
      rotate,
      revokeAward,
      rotateSecret,
      redeliver,
      ping,
      anonymize,
    })) {
      assert.equal(r.code, 0, `${what}: ${r.stderr}`);
    }
    assert.deepEqual([update.json.id, update.json.name], [c, 'Renamed']);
    assert.equal(issue.json.campaign_id, c);
    assert.equal(prize.json.campaign_id, c);
    assert.deepEqual([window.json[0].campaign_id, window.json[0].prize_id], [world.windowCampaignId, world.windowPrizeId]);
    assert.deepEqual([rotate.json.revoked.id, rotate.json.key.campaign_id], [w.testKeyId, c]);
    assert.ok(rotate.json.revoked.revoked_at);
    assert.deepEqual(revokeAward.json, { entry_id: e, won: true, prize_definition_id: world.prizeId, status: 'revoked' });
    assert.match(rotateSecret.json.hmac_secret, /^whsec_/);
    assert.notEqual(storedSecret(), secretBefore);
    assert.deepEqual(redeliver.json, []);
    assert.equal(ping.json.result, 'delivered');
    assert.deepEqual([anonymize.json.campaign_id, anonymize.json.kept.entries], [c, 1]);

    const revoked = await cli(['key', 'revoke', up(issue.json.id), '--json']);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.json.id, issue.json.id);
    assert.ok(revoked.json.revoked_at);
    // Nothing was stored under an upper-case id.
    const upperCase = s.ctx.db
      .prepare(
        `SELECT
      (SELECT count(*) FROM api_keys WHERE campaign_id <> lower(campaign_id)) +
      (SELECT count(*) FROM prizes WHERE campaign_id <> lower(campaign_id)) +
      (SELECT count(*) FROM prize_windows WHERE campaign_id <> lower(campaign_id) OR prize_id <> lower(prize_id))`,
      )
      .pluck()
      .get();
    assert.equal(upperCase, 0);
  });
});
