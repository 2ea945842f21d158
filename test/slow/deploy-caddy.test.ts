// The deployment of docs/deploy.md for real: Caddy (Debian package `caddy`) terminating TLS in
// front of `ces serve`, with deploy/Caddyfile as shipped (only a `tls` line added: the test
// certificate instead of one from Let's Encrypt) and CES_TRUSTED_PROXIES naming Caddy. Skipped
// when caddy is not installed (.ci/run installs it when it can).
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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
import { entryBody, ROOT, runCli } from '../support/harness.ts';
import { OPERATOR } from '../support/harness.ts';
import { spawnServe } from '../support/serve-process.ts';

const caddy = spawnSync('caddy', ['version'], { encoding: 'utf8' });
const installed = caddy.status === 0;

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

test(
  'ces behind Caddy: HTTPS to the API, the client address from Caddy’s X-Forwarded-For, a spoofed header ignored',
  { skip: installed ? false : 'caddy is not installed (apt-get install caddy)' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ces-caddy-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'ces.db');
    const db = openDatabase(dbPath);
    const ctx: Ctx = { db, clock: systemClock, random: cryptoRandom, config: loadConfig({ db: dbPath }, {}), log: createSilentLogger() };
    const campaign = createCampaign(ctx, { name: 'Behind Caddy' }, OPERATOR);
    const key = issueKey(ctx, { campaignId: campaign.id, mode: 'live' }, OPERATOR).key;
    db.close();

    const ces = await spawnServe({ dbPath, env: { CES_TRUSTED_PROXIES: '127.0.0.1,::1' } });
    cleanups.push(async () => {
      ces.child.kill('SIGTERM');
      await ces.exited;
    });
    const cesPort = new URL(ces.url).port;
    const httpsPort = await freePort();
    const tls = join(ROOT, 'test/fixtures/tls');
    const shipped = readFileSync(join(ROOT, 'deploy/Caddyfile'), 'utf8');
    const caddyfile = `{\n\tadmin off\n}\n${shipped.replace('{$CES_DOMAIN} {', `{$CES_DOMAIN} {\n\ttls ${tls}/server.pem ${tls}/server-key.pem`)}`;
    assert.notEqual(caddyfile, shipped, 'the site block of deploy/Caddyfile was found');
    writeFileSync(join(dir, 'Caddyfile'), caddyfile);
    const proxy: ChildProcess = spawn('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      env: {
        ...process.env,
        HOME: dir,
        XDG_DATA_HOME: join(dir, 'data'),
        XDG_CONFIG_HOME: join(dir, 'config'),
        CES_DOMAIN: `https://127.0.0.1:${httpsPort}`,
        CES_PORT: cesPort,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let caddyLog = '';
    proxy.stderr!.on('data', (d: Buffer) => (caddyLog += d.toString()));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (proxy.exitCode !== null) return resolve();
          proxy.once('exit', () => resolve());
          proxy.kill('SIGTERM');
        }),
    );
    const base = `https://127.0.0.1:${httpsPort}`;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const ok = await fetch(`${base}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline || proxy.exitCode !== null) throw new Error(`caddy did not serve ${base} in time:\n${caddyLog}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const post = await fetch(`${base}/v1/entries`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'idempotency-key': 'behind-caddy-1',
        'content-type': 'application/json',
        'x-forwarded-for': '203.0.113.9',
      },
      body: JSON.stringify(entryBody({}, 1)),
    });
    assert.equal(post.status, 202, await post.clone().text());
    const entry = (await post.json()) as { entry_id: string };

    // CES_PUBLIC_URL, the proxy's https URL: ces demo's quick start goes through Caddy as printed.
    const demo = await runCli(['demo', '--json'], { dbPath, env: { CES_PUBLIC_URL: `${base}/` } });
    assert.equal(demo.code, 0, demo.stderr);
    assert.match(demo.json.curl, new RegExp(`^curl -i -X POST ${base.replace(/[.]/g, '\\.')}/v1/entries`));
    const viaDemo = await fetch(`${base}/v1/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.json.key.key}`, 'idempotency-key': 'behind-caddy-demo', 'content-type': 'application/json' },
      body: JSON.stringify(entryBody({}, 2)),
    });
    assert.equal(viaDemo.status, 202, await viaDemo.text());
    const read = await fetch(`${base}/v1/entries/${entry.entry_id}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(read.status, 200);

    await new Promise((resolve) => setTimeout(resolve, 200));
    const requests = ces
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { message?: string; route?: string; client_address?: string })
      .filter((r) => r.message === 'request' && r.route?.startsWith('/v1/entries'));
    assert.equal(requests.length, 3, ces.output());
    // Caddy does not pass on a header its client made up: the address is the real client's.
    assert.deepEqual(
      requests.map((r) => r.client_address),
      ['127.0.0.1', '127.0.0.1', '127.0.0.1'],
    );
  },
);
