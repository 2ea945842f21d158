// Crash safety: `ces serve` (a real child process, synchronous=FULL, tick every 20 ms) takes a
// concurrent load of entries for two campaigns (declared wins + automatic lucky numbers; WINDOW
// instant prizes + automatic lucky numbers) while delivering webhooks to an HTTPS receiver, and is
// SIGKILLed at seeded random moments, then restarted on the same database, several times. Requests
// whose answer was lost are retried with the same Idempotency-Key in the next cycle, as a client
// would. Afterwards, with one last clean run to let the pipeline finish:
//   - every entry that got a 202 exists, with the entry id that 202 named;
//   - every entry reaches a final state (APPROVED or REJECTED) and was evaluated;
//   - every event was delivered at least once (the receiver saw each event id; duplicates allowed);
//   - no live award is duplicated, no window is claimed twice, no lucky-number pair is held twice
//     and no entry holds more pairs than its quantity; each prize's stock matches its awards;
//   - PRAGMA integrity_check is ok.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { addWindows } from '../../src/mechanics/windows.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { patchWebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { entryBody, makeCampaign, makePrize, type World, OPERATOR } from '../support/harness.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { killServe, openFileCtx, spawnServe, type ServeProcess } from '../support/serve-process.ts';

const CYCLES = 8;
const CLIENTS = 8;
const SEED = 20261122;
const LUCKY_QUANTITY = 2;

interface Pending {
  key: string;
  i: number;
  world: 'declared' | 'window';
}

let dir: string | undefined;
let serve: ServeProcess | undefined;
let receiver: Receiver | undefined;
after(async () => {
  await killServe(serve);
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('SIGKILL at random moments under load loses no accepted entry, event, or award invariant', { timeout: 300_000 }, async () => {
  const started = Date.now();
  const random = seededRandom(SEED);
  dir = mkdtempSync(join(tmpdir(), 'ces-crash-'));
  const dbPath = join(dir, 'ces.db');
  receiver = await startReceiver();

  // The world, set up through the same domain functions the CLI uses.
  const setup = await openFileCtx(dbPath);
  const declared: World = makeCampaign(setup, {
    name: 'Declared',
    instantPrize: 'INTEGRATOR_DECLARED',
    luckyNumbers: 'auto',
    luckyQuantity: LUCKY_QUANTITY,
  });
  const declaredPrize = makePrize(setup, declared.campaign.id, 'live', 100_000, 'Declared prize').id;
  const windowed: World = makeCampaign(setup, {
    name: 'Windows',
    instantPrize: 'WINDOW',
    luckyNumbers: 'auto',
    luckyQuantity: LUCKY_QUANTITY,
  });
  const windowPrize = makePrize(setup, windowed.campaign.id, 'live', 100_000, 'Window prize').id;
  // 40 windows, all already open: entries race to claim them across crashes.
  addWindows(
    setup,
    {
      campaignId: windowed.campaign.id,
      mode: 'live',
      prizeId: windowPrize,
      opensAt: new Date(setup.clock.now() - 3_600_000).toISOString(),
      count: 40,
      every: 1,
    },
    OPERATOR,
  );
  for (const w of [declared, windowed]) patchWebhookConfig(setup, w.campaign.id, { endpointUrl: receiver.url }, OPERATOR);
  setup.db.close();

  const env = { CES_WEBHOOK_RETRY_SCHEDULE: '0.05,0.1,0.2,0.5,1,1,1,1', CES_WEBHOOK_TIMEOUT_MS: '2000', CES_RATE_LIMIT_RPS: '0' };
  const acceptedIds = new Map<string, string>(); // idempotency key -> entry id from a 202
  let retryQueue: Pending[] = [];
  let next = 0;
  let requests = 0;
  let killedWhileInFlight = 0;

  const send = async (url: string, p: Pending): Promise<'ok' | 'lost'> => {
    const w = p.world === 'declared' ? declared : windowed;
    const body =
      p.world === 'declared' ? entryBody({ instant_win: { won: true, prize_definition_id: declaredPrize } }, p.i) : entryBody({}, p.i);
    requests++;
    try {
      const res = await fetch(`${url}/v1/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.liveKey}`, 'idempotency-key': p.key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const json = (await res.json()) as { entry_id?: string };
      assert.equal(res.status, 202, `${p.key}: ${JSON.stringify(json)}`);
      const known = acceptedIds.get(p.key);
      // A replay after a crash must name the same entry as the first 202.
      if (known) assert.equal(json.entry_id, known, `${p.key}: a replay named a different entry`);
      acceptedIds.set(p.key, json.entry_id!);
      return 'ok';
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      return 'lost';
    }
  };

  for (let cycle = 0; cycle < CYCLES; cycle++) {
    serve = await spawnServe({ dbPath, tickMs: 20, env });
    const url = serve.url;
    const killAfterMs = 200 + random.int(1200);
    let killed = false;
    const lost: Pending[] = [];
    const work = [...retryQueue];
    retryQueue = [];
    const cycleStart = Date.now();
    const client = async (): Promise<void> => {
      // Bounded: at most 400 requests per client per cycle, and never past the kill.
      for (let k = 0; k < 400 && !killed; k++) {
        const p = work.shift() ?? { key: `crash-${next}`, i: next, world: next++ % 2 === 0 ? 'declared' : 'window' };
        if ((await send(url, p)) === 'lost') {
          lost.push(p);
          if (killed) killedWhileInFlight++;
        }
      }
    };
    const acceptedBefore = acceptedIds.size;
    const killer = (async () => {
      // Kill at the seeded moment, but only once this cycle has had some 202s (a slow, loaded
      // machine may not have answered any yet), and never later than 60 s into the cycle.
      while ((Date.now() - cycleStart < killAfterMs || acceptedIds.size < acceptedBefore + 10) && Date.now() - cycleStart < 60_000) {
        await new Promise((r) => setTimeout(r, 5));
      }
      killed = true;
      serve!.child.kill('SIGKILL');
    })();
    await Promise.all([killer, ...Array.from({ length: CLIENTS }, client)]);
    const exit = await serve.exited;
    assert.equal(exit.signal, 'SIGKILL');
    retryQueue = [...lost, ...work];
  }

  // One last clean run: retry what was lost, then let the pipeline finish everything.
  serve = await spawnServe({ dbPath, tickMs: 20, env });
  for (const p of retryQueue) assert.equal(await send(serve.url, p), 'ok', `${p.key} failed after recovery`);
  const check = await openFileCtx(dbPath);
  try {
    const count = (sql: string): number => (check.db.prepare(sql).get() as { n: number }).n;
    const deadline = Date.now() + 120_000;
    while (
      count("SELECT count(*) AS n FROM entries WHERE status = 'PENDING' OR evaluated_at IS NULL AND status = 'APPROVED'") +
        count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'") >
      0
    ) {
      assert.ok(Date.now() < deadline, 'the pipeline did not finish within 120 s after recovery');
      await new Promise((r) => setTimeout(r, 50));
    }
    serve.child.kill('SIGTERM');
    assert.deepEqual(await serve.exited, { code: 0, signal: null });

    // Every 202 names an entry that exists, in the right campaign.
    const entries = check.db.prepare('SELECT id, campaign_id, idempotency_key, status, evaluated_at FROM entries').all() as Array<{
      id: string;
      campaign_id: string;
      idempotency_key: string;
      status: string;
      evaluated_at: string | null;
    }>;
    const byKey = new Map(entries.map((e) => [e.idempotency_key, e]));
    assert.ok(acceptedIds.size >= CYCLES * 10, `only ${acceptedIds.size} entries were accepted`);
    for (const [key, id] of acceptedIds) {
      assert.equal(byKey.get(key)?.id, id, `202 for ${key} (${id}) but the entry is missing`);
    }
    assert.equal(entries.length, acceptedIds.size, 'an entry exists that no client was ever told about and never retried');
    // Every entry is final and evaluated.
    for (const e of entries) {
      assert.ok(e.status === 'APPROVED' || e.status === 'REJECTED', `${e.id} is ${e.status}`);
      if (e.status === 'APPROVED') assert.ok(e.evaluated_at, `${e.id} was never evaluated`);
    }
    // Every event was delivered, and the receiver saw each event id at least once.
    const deliveries = check.db.prepare('SELECT id, entry_id, event_type, status FROM webhook_deliveries').all() as Array<{
      id: string;
      entry_id: string;
      event_type: string;
      status: string;
    }>;
    const seen = new Set(receiver.requests.filter((r) => r.status === 200).map((r) => r.headers['webhook-id']));
    for (const d of deliveries) {
      assert.equal(d.status, 'delivered', `${d.id} (${d.event_type}) is ${d.status}`);
      assert.ok(seen.has(d.id), `the receiver never saw event ${d.id} (${d.event_type})`);
    }
    for (const e of entries) {
      const types = deliveries
        .filter((d) => d.entry_id === e.id)
        .map((d) => d.event_type)
        .sort();
      const expected =
        e.status === 'APPROVED' ? ['entry.completed', 'entry.evaluated', 'entry.received'] : ['entry.completed', 'entry.received'];
      assert.deepEqual(types, expected, `events of ${e.id} (${e.status})`);
    }
    const duplicates = receiver.requests.length - seen.size;

    // No duplicated award, window claim or lucky-number pair; stock matches the awards.
    assert.equal(
      count(
        "SELECT count(*) AS n FROM (SELECT entry_id FROM awards WHERE status IN ('pending','awarded') GROUP BY entry_id HAVING count(*) > 1)",
      ),
      0,
      'an entry has two live awards',
    );
    assert.equal(
      count(
        "SELECT count(*) AS n FROM (SELECT window_id FROM awards WHERE window_id IS NOT NULL AND status IN ('pending','awarded') GROUP BY window_id HAVING count(*) > 1)",
      ),
      0,
      'a window was awarded twice',
    );
    assert.equal(
      count(
        'SELECT count(*) AS n FROM (SELECT claimed_by_entry_id FROM prize_windows WHERE claimed_by_entry_id IS NOT NULL GROUP BY claimed_by_entry_id HAVING count(*) > 1)',
      ),
      0,
      'an entry claimed two windows',
    );
    assert.equal(
      count(`SELECT count(*) AS n FROM (SELECT entry_id FROM lucky_numbers GROUP BY entry_id HAVING count(*) > ${LUCKY_QUANTITY})`),
      0,
      'an entry holds too many pairs',
    );
    assert.equal(
      count(
        "SELECT count(*) AS n FROM entries e WHERE e.status = 'APPROVED' AND (SELECT count(*) FROM lucky_numbers l WHERE l.entry_id = e.id) <> " +
          LUCKY_QUANTITY,
      ),
      0,
      'an approved entry lacks its pairs',
    );
    assert.equal(
      count(
        "SELECT count(*) AS n FROM entries e WHERE e.campaign_id = '" +
          declared.campaign.id +
          "' AND e.status = 'APPROVED' AND NOT EXISTS (SELECT 1 FROM awards a WHERE a.entry_id = e.id AND a.status = 'awarded')",
      ),
      0,
      'an approved declared win has no award',
    );
    const windowsClaimed = count('SELECT count(*) AS n FROM prize_windows WHERE claimed_by_entry_id IS NOT NULL');
    assert.equal(
      windowsClaimed,
      count("SELECT count(*) AS n FROM awards WHERE source = 'window' AND status = 'awarded'"),
      'claimed windows and window awards differ',
    );
    for (const prize of check.db.prepare('SELECT id, initial_stock, current_stock FROM prizes').all() as Array<{
      id: string;
      initial_stock: number;
      current_stock: number;
    }>) {
      const awarded = (
        check.db
          .prepare("SELECT count(*) AS n FROM awards WHERE prize_id = ? AND status = 'awarded' AND beyond_pool = 0")
          .get(prize.id) as { n: number }
      ).n;
      assert.equal(
        prize.initial_stock - prize.current_stock,
        awarded,
        `prize ${prize.id}: stock taken ${prize.initial_stock - prize.current_stock} vs ${awarded} awards`,
      );
    }
    assert.equal((check.db.pragma('integrity_check') as Array<{ integrity_check: string }>)[0].integrity_check, 'ok');
    console.log(
      `crash-safety: ${CYCLES} SIGKILL cycles, ${requests} requests (${killedWhileInFlight} cut by a kill, all retried), ${entries.length} entries checked, ` +
        `${deliveries.length} events delivered (${duplicates} duplicate deliveries), ${windowsClaimed} windows claimed, ${Math.round((Date.now() - started) / 1000)} s`,
    );
  } finally {
    check.db.close();
  }
});
