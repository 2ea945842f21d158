// Graceful shutdown: SIGTERM (and SIGINT) to a `ces serve` under load. In-flight requests complete
// (no connection is reset mid-response and every 202 names an entry that exists afterwards), the
// tick in progress finishes, the database is closed cleanly, and the process exits 0.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { entryBody, makeCampaign, startTestServer } from '../support/harness.ts';
import { fileWithLongCheck } from '../support/long-check.ts';
import { killServe, openFileCtx, spawnServe, type ServeProcess } from '../support/serve-process.ts';

interface Outcome {
  key: string;
  status: number | 'refused' | 'reset';
  entryId?: string;
}

/** One POST on its own connection, classified: an HTTP status, a refused connection, or a reset mid-exchange. */
async function post(url: string, apiKey: string, i: number, key: string): Promise<Outcome> {
  try {
    const res = await fetch(`${url}/v1/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': key, 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify(entryBody({}, i)),
    });
    const body = (await res.json()) as { entry_id?: string };
    return { key, status: res.status, entryId: body.entry_id };
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    return { key, status: code === 'ECONNREFUSED' ? 'refused' : 'reset' };
  }
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  describe(`${signal} during load`, () => {
    let dir: string;
    let serve: ServeProcess | undefined;
    after(async () => {
      await killServe(serve);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('in-flight requests finish, every 202 entry exists, the tick completes and the exit code is 0', async () => {
      dir = mkdtempSync(join(tmpdir(), 'ces-shutdown-'));
      const dbPath = join(dir, 'ces.db');
      const setup = await openFileCtx(dbPath);
      const world = makeCampaign(setup);
      setup.db.close();
      serve = await spawnServe({ dbPath, tickMs: 5 });
      const url = serve.url;

      // Load: 8 concurrent clients sending until the server stops answering (bounded: 400 requests or 20 s).
      const outcomes: Outcome[] = [];
      let n = 0;
      let stopAt = Number.POSITIVE_INFINITY;
      const deadline = Date.now() + 20_000;
      let accepted = 0;
      let signalled = false;
      const client = async (): Promise<void> => {
        while (n < 400 && Date.now() < deadline) {
          const i = n++;
          if (i >= stopAt) return;
          const outcome = await post(url, world.liveKey, i, `sd-${i}`);
          outcomes.push(outcome);
          if (outcome.status === 202) accepted++;
          if (outcome.status === 'refused') return;
          if (!signalled && accepted >= 40) {
            signalled = true;
            serve!.child.kill(signal);
            // Clients keep sending a little after the signal, so some requests are in flight when it lands.
            stopAt = n + 30;
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, client));
      const exit = await serve.exited;
      assert.deepEqual(exit, { code: 0, signal: null }, serve.output().slice(-2000));
      assert.match(serve.output(), new RegExp(`${signal} received`));

      const check = await openFileCtx(dbPath);
      try {
        const ok = outcomes.filter((o) => o.status === 202);
        for (const o of ok) {
          const row = check.db.prepare('SELECT id FROM entries WHERE idempotency_key = ?').get(o.key) as { id: string } | undefined;
          assert.equal(row?.id, o.entryId, `202 for ${o.key} but no such entry after shutdown`);
        }
        // Nothing is cut off mid-response: every request either got its complete answer or was never
        // read at all. A connection still in the kernel's accept queue when the listening socket
        // closes is reset by the OS before the server sees a byte; such a request must not exist in
        // the database (its retry with the same Idempotency-Key is then a first attempt).
        const statuses = outcomes.map((o) => o.status);
        assert.ok(
          statuses.every((s) => s === 'refused' || s === 'reset' || s === 202),
          `unexpected statuses ${JSON.stringify(statuses)}`,
        );
        const resets = outcomes.filter((o) => o.status === 'reset');
        for (const r of resets) {
          assert.equal(
            check.db.prepare('SELECT id FROM entries WHERE idempotency_key = ?').get(r.key),
            undefined,
            `${r.key} was stored but its connection was reset`,
          );
        }
        // Every request the server accepted is also in the database, and no entry exists without its 202
        // except ones whose answer was lost to a refused connection (none: refusals happen before reading).
        const stored = (check.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;
        assert.equal(stored, ok.length);
        // The database was closed cleanly: no leftover leases of a tick cut short, integrity ok.
        assert.equal((check.db.pragma('integrity_check') as Array<{ integrity_check: string }>)[0].integrity_check, 'ok');
        const leasedJobs = (check.db.prepare('SELECT count(*) AS n FROM jobs WHERE locked_until IS NOT NULL').get() as { n: number }).n;
        const leasedDeliveries = (
          check.db.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending' AND locked_until IS NOT NULL").get() as {
            n: number;
          }
        ).n;
        assert.equal(leasedJobs + leasedDeliveries, 0, 'a lease was left behind: the tick in progress did not finish');
        // The tick ran during the load: some entries were already processed before the signal.
        const processed = (check.db.prepare("SELECT count(*) AS n FROM entries WHERE status <> 'PENDING'").get() as { n: number }).n;
        assert.ok(processed > 0, 'the tick never ran');
        console.log(
          `${signal}: ${outcomes.length} requests, ${ok.length} accepted and stored, ${outcomes.filter((o) => o.status === 'refused').length} refused and ${resets.length} reset before being read`,
        );
      } finally {
        check.db.close();
      }
    });
  });
}

describe('closing while a request is in flight', () => {
  test('the request that was mid-body is answered in full (202), with Connection: close', async () => {
    const s = await startTestServer({ socket: true });
    const w = makeCampaign(s.ctx);
    const body = JSON.stringify(entryBody({}, 1));
    const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // A keep-alive request (HTTP/1.1, no Connection header) whose body is cut in two.
    const head = [
      'POST /v1/entries HTTP/1.1',
      'Host: ces',
      `Authorization: Bearer ${w.liveKey}`,
      'Content-Type: application/json',
      'Idempotency-Key: mid-close',
      `Content-Length: ${body.length}`,
      '',
      '',
    ];
    socket.write(head.join('\r\n') + body.slice(0, 10));
    while (s.server.service.inflight.size === 0) await new Promise((resolve) => setImmediate(resolve));
    const closed = s.close();
    socket.write(body.slice(10));
    await ended;
    const response = Buffer.concat(received).toString('utf8');
    assert.match(response, /^HTTP\/1\.1 202 /, response);
    assert.match(response, /\r\nconnection: close\r\n/i, response);
    await closed;
  });
});

// An operator may start the service with `npm start`. npm passes SIGTERM to the script's
// shell; Debian's /bin/sh (dash) dies of it without passing it on, so the script execs node: the
// signal then reaches ces itself, which stops gracefully, and npm exits 0 with it.
describe('npm start', () => {
  let dir: string;
  let serve: ServeProcess | undefined;
  after(async () => {
    await killServe(serve);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('SIGTERM to npm reaches ces: it stops gracefully, npm exits 0, and nothing keeps listening', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ces-npm-start-'));
    const dbPath = join(dir, 'ces.db');
    // A tick of 1 s: at 20 ms, /healthz counts the tick dead after a 200 ms stall of a busy machine.
    serve = await spawnServe({ dbPath, npmStart: true, tickMs: 1_000 });
    const health = await fetch(`${serve.url}/healthz`);
    assert.equal(health.status, 200);
    serve.child.kill('SIGTERM');
    const exit = await serve.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, serve.output().slice(-2000));
    assert.match(serve.output(), /SIGTERM received/);
    assert.match(serve.output(), /"message":"stopped"/);
    // No server left behind by a shell that died of the signal.
    const after = await fetch(`${serve.url}/healthz`).then(
      () => 'answered',
      (error: { cause?: { code?: string } }) => error.cause?.code,
    );
    assert.equal(after, 'ECONNREFUSED');
  });
});

// The full check of a file the server has not opened before runs for minutes on a large file, much
// of it inside single SQLite statements: a stop must not wait for it (src/db/integrity-child.ts).
describe('SIGTERM during the full integrity check after start', () => {
  let dir: string;
  let serve: ServeProcess | undefined;
  after(async () => {
    await killServe(serve);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('is answered within CES_SHUTDOWN_TIMEOUT_MS though the check is inside a long SQLite statement, and the check ends with the server', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ces-shutdown-check-'));
    const dbPath = fileWithLongCheck(join(dir, 'ces.db'));
    serve = await spawnServe({ dbPath, tickMs: 1_000, env: { CES_SHUTDOWN_TIMEOUT_MS: '1000' } });
    const pid = Number(/"check_pid":(\d+)/.exec(serve.output())?.[1]);
    assert.ok(pid > 0, serve.output());
    await delay(1_000); // inside integrity_check(bulk), which takes seconds
    const health = (await (await fetch(`${serve.url}/healthz`)).json()) as { integrity: { state: string } };
    assert.equal(health.integrity.state, 'checking');
    const signalled = performance.now();
    serve.child.kill('SIGTERM');
    const exit = await serve.exited;
    const took = performance.now() - signalled;
    assert.deepEqual(exit, { code: 0, signal: null }, serve.output().slice(-2000));
    // Within the 1 s timeout, plus the process's own exit on a busy machine; waiting for the
    // statement took 5.8 s here.
    assert.ok(took < 2_500, `the server took ${Math.round(took)} ms to stop`);
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the check outlived the server');
  });
});
