// Crash safety of the pipeline: `ces serve` (the real entry point, a child process) is killed with
// SIGKILL while entries are PENDING (their verifier calls failed and wait for a retry) and
// deliveries are queued or in flight (the receiver has not answered). Restarted on the same
// database, it finishes every entry and delivers every event, with the same event ids.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createCampaign } from '../../src/campaigns/campaigns.ts';
import { systemClock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { issueKey } from '../../src/keys/keys.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { cryptoRandom } from '../../src/kernel/random.ts';
import { entryBody, request, ROOT, OPERATOR } from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';

interface Child {
  url: string;
  proc: ChildProcess;
  exited: Promise<unknown>;
}

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'ces-crash-'));
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function serve(dbPath: string): Promise<Child> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'cli/ces.ts'), 'serve', '--port', '0', '--db', dbPath, '--tick-ms', '20', '--log-format', 'json'],
    {
      cwd: ROOT,
      // NODE_EXTRA_CA_CERTS comes from the test process, so the child trusts the test receiver.
      env: {
        ...process.env,
        CES_ALLOW_PRIVATE_WEBHOOKS: '1',
        CES_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1',
        CES_WEBHOOK_TIMEOUT_MS: '30000',
        CES_VERIFIER_TIMEOUT_MS: '5000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(proc);
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  let out = '';
  return new Promise((resolve, reject) => {
    // A guard against a server that never starts, not a measure: on a loaded machine tsx may take over
    // half a minute to compile the sources before `ces serve` says it listens.
    const timer = setTimeout(() => reject(new Error(`ces serve did not start:\n${out}`)), 120_000);
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], proc, exited });
      }
    });
    exited.then(() => reject(new Error(`ces serve exited early:\n${out}`)));
  });
}

async function until(pred: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!pred()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test(
  'SIGKILL with entries PENDING and deliveries in flight: after restart every entry finishes and every event is delivered',
  { timeout: 120_000 },
  async () => {
    // The fiscal verifier: down (503) before the crash, answering after it.
    let verifierUp = false;
    const tls = new URL('../fixtures/tls/', import.meta.url);
    const verifierCalls: string[] = [];
    const verifier: Server = createServer(
      { key: readFileSync(new URL('server-key.pem', tls)), cert: readFileSync(new URL('server.pem', tls)) },
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c));
        req.on('end', () => {
          verifierCalls.push(JSON.parse(body).entry_id);
          if (verifierUp) res.writeHead(200, { 'content-type': 'application/json' }).end('{"valid":true}');
          else res.writeHead(503).end();
        });
      },
    );
    await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
    // The receiver: holds every request open before the crash, answers 200 after it.
    let receiverUp = false;
    const receiver = await startReceiver({ respond: () => (receiverUp ? 200 : { status: 200, delayMs: 120_000 }) });
    after(async () => {
      await receiver.close();
      verifier.closeAllConnections();
      verifier.close();
    });

    const dbPath = join(dir, 'ces.db');
    const db = openDatabase(dbPath);
    const ctx: Ctx = { db, clock: systemClock, random: cryptoRandom, config: loadConfig({ db: dbPath }, {}), log: createSilentLogger() };
    const campaign = createCampaign(
      ctx,
      { name: 'Crash', fiscalVerifierUrl: `https://127.0.0.1:${(verifier.address() as AddressInfo).port}/verify` },
      OPERATOR,
    );
    const key = issueKey(ctx, { campaignId: campaign.id, mode: 'live' }, OPERATOR).key;

    let server = await serve(dbPath);
    const hook = await request(server.url, 'PATCH', '/v1/webhook', { key, body: { endpoint_url: receiver.url } });
    assert.equal(hook.status, 201);
    receiver.setSecret(hook.body.hmac_secret);

    const entryIds: string[] = [];
    const submit = async (i: number): Promise<void> => {
      const res = await request(server.url, 'POST', '/v1/entries', { key, idempotencyKey: `crash-${i}`, body: entryBody({}, i) });
      assert.equal(res.status, 202, res.text);
      entryIds.push(res.body.entry_id);
    };
    for (let i = 0; i < 4; i++) await submit(i);
    // The tick has asked the verifier (503: retry later) and is now stuck on deliveries the
    // receiver holds open.
    await until(() => verifierCalls.length >= 1 && receiver.requests.length >= 1, 'a verifier call and a delivery in flight');
    for (let i = 4; i < 6; i++) await submit(i);

    const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
    assert.equal(count(`SELECT count(*) AS n FROM entries WHERE status = 'PENDING'`), 6);
    assert.ok(count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`) >= 6);
    assert.ok(
      count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending' AND locked_until IS NOT NULL`) >= 1,
      'a delivery is in flight',
    );
    const inFlightIds = receiver.requests.map((r) => r.headers['webhook-id']);

    server.proc.kill('SIGKILL');
    await server.exited;
    const crashedAt = Date.now();

    verifierUp = true;
    receiverUp = true;
    server = await serve(dbPath);

    const answered = () => receiver.requests.filter((r) => r.receivedAt >= crashedAt && r.status === 200);
    const done = (): boolean => {
      const types = new Map<string, Set<string>>();
      for (const r of answered()) {
        const set = types.get(r.json.data.entry_id) ?? new Set();
        set.add(r.json.event_type);
        types.set(r.json.data.entry_id, set);
      }
      return entryIds.every((id) => types.get(id)?.size === 3);
    };
    await until(done, 'every entry to be approved and its three events delivered', 60_000);

    const statuses = db.prepare(`SELECT status, count(*) AS n FROM entries GROUP BY status`).all();
    assert.deepEqual(statuses, [{ status: 'APPROVED', n: 6 }]);
    await until(
      () =>
        count(`SELECT count(*) AS n FROM jobs`) === 0 &&
        count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'delivered'`) === 0,
      'the queues to empty',
    );
    // Every event arrived signed, and the ones cut off by the crash came again with the same id.
    assert.ok(answered().every((r) => r.signatureMatches === true));
    const afterIds = new Set(answered().map((r) => r.headers['webhook-id']));
    for (const id of inFlightIds) assert.ok(afterIds.has(id), `event ${id} redelivered with the same id`);
    // Exactly one entry.completed per entry: processing ran once despite the crash.
    const completed = db
      .prepare(`SELECT entry_id, count(*) AS n FROM webhook_deliveries WHERE event_type = 'entry.completed' GROUP BY entry_id`)
      .all() as Array<{ n: number }>;
    assert.deepEqual(
      completed.map((r) => r.n),
      [1, 1, 1, 1, 1, 1],
    );

    server.proc.kill('SIGTERM');
    await server.exited;
    assert.equal(server.proc.exitCode, 0);
    db.close();
  },
);
