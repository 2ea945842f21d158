// Configuration through the real `ces` program (README.md#configuration): --db on every command
// (env CES_DB; its folder is created if missing; the flag wins), and `ces serve` reading its flags
// and variables: a bad value stops it with one line on stderr, a flag wins over a bad variable.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../support/harness.ts';
import { killServe, spawnServe, type ServeProcess } from '../support/serve-process.ts';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ces-cli-config-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('--db in folders that do not exist yet: they and the database are created', async () => {
  const dbPath = join(dir, 'a', 'b', 'ces.db');
  assert.equal(existsSync(join(dir, 'a')), false);
  const r = await runCli(['campaign', 'list', '--json'], { dbPath });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json, []);
  assert.ok(existsSync(dbPath), `${dbPath} exists`);
  // A real ces database: the next command on it sees what the first one stored.
  const created = await runCli(['campaign', 'create', '--name', 'Nested', '--json'], { dbPath });
  assert.equal(created.code, 0, created.stderr);
  const listed = await runCli(['campaign', 'list', '--json'], { dbPath });
  assert.deepEqual(
    listed.json.map((c: { id: string }) => c.id),
    [created.json.id],
  );
});

test('CES_DB names the database when --db is absent, and --db wins over it', async () => {
  const fromEnv = join(dir, 'env', 'c', 'ces.db');
  const fromFlag = join(dir, 'flag', 'ces.db');
  // Once through the binary: the variable read from the real process's environment.
  const viaEnv = await runCli(['campaign', 'create', '--name', 'From env', '--json'], { env: { CES_DB: fromEnv }, process: true });
  assert.equal(viaEnv.code, 0, viaEnv.stderr);
  assert.ok(existsSync(fromEnv));

  const viaFlag = await runCli(['campaign', 'list', '--json'], { dbPath: fromFlag, env: { CES_DB: fromEnv } });
  assert.equal(viaFlag.code, 0, viaFlag.stderr);
  assert.deepEqual(viaFlag.json, [], 'the flag’s database, not the one CES_DB names');
  assert.ok(existsSync(fromFlag));
  const envAgain = await runCli(['campaign', 'list', '--json'], { env: { CES_DB: fromEnv } });
  assert.deepEqual(
    envAgain.json.map((c: { name: string }) => c.name),
    ['From env'],
  );
});

test('a command other than ces serve ignores the variables only ces serve reads; only ces webhook test refuses a bad delivery setting', async () => {
  const dbPath = join(dir, 'serve-only', 'ces.db');
  const serveOnly = {
    PORT: 'http',
    CES_PORT: '70000',
    CES_HOST: 'api_internal',
    CES_TICK_MS: '0',
    CES_LOG_FORMAT: 'xml',
    CES_WEBHOOK_RETRY_SCHEDULE: 'later',
    CES_VERIFIER_TIMEOUT_MS: '0',
    CES_BODY_LIMIT_BYTES: '1',
    CES_RATE_LIMIT_RPS: '-1',
    CES_RATE_LIMIT_BURST: '0',
    CES_REQUEST_TIMEOUT_MS: '1',
    CES_METRICS_TOKEN: 'my token',
    CES_CHECKPOINT_THREAD: 'maybe',
  };
  const created = await runCli(['campaign', 'create', '--name', 'On a platform', '--json'], { dbPath, env: serveOnly });
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stderr, '');
  for (const args of [
    ['campaign', 'list'],
    ['backup', join(dir, 'serve-only', 'copy.db')],
    ['entries', 'export', '--campaign', created.json.id, '--out', join(dir, 'serve-only', 'e.csv')],
  ]) {
    const r = await runCli([...args, '--json'], { dbPath, env: serveOnly });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  // The delivery settings matter only to a command that sends a webhook.
  const badDelivery = { CES_WEBHOOK_TIMEOUT_MS: 'soon', CES_ALLOW_PRIVATE_WEBHOOKS: 'perhaps', CES_DELIVERY_CONCURRENCY: '0' };
  for (const args of [
    ['campaign', 'list'],
    ['backup', join(dir, 'serve-only', 'copy2.db')],
    ['webhook', 'deliveries', '--campaign', created.json.id],
  ]) {
    const r = await runCli([...args, '--json'], { dbPath, env: badDelivery });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  // `ces webhook test` delivers a ping: the delivery settings still count.
  const ping = await runCli(['webhook', 'test', '--campaign', created.json.id, '--json'], {
    dbPath,
    env: { CES_WEBHOOK_TIMEOUT_MS: 'soon' },
  });
  assert.equal(ping.code, 1);
  assert.equal(ping.json.error.code, 'invalid_config');
  assert.match(ping.json.error.message, /^CES_WEBHOOK_TIMEOUT_MS must be an integer/);
});

// [arguments after `serve`, environment, the one line on stderr]
const REFUSED: Array<[string[], Record<string, string>, string]> = [
  [['--port', 'abc'], {}, '--port must be an integer from 0 to 65535, got "abc"'],
  [[], { CES_PORT: '70000' }, 'CES_PORT must be an integer from 0 to 65535, got "70000"'],
  [[], { PORT: 'http' }, 'PORT must be an integer from 0 to 65535, got "http"'],
  [['--tick-ms', '0'], {}, '--tick-ms must be an integer from 1 to 3600000, got "0"'],
  [[], { CES_LOG_FORMAT: 'xml' }, 'CES_LOG_FORMAT must be pretty or json, got "xml"'],
  [
    [],
    { CES_WEBHOOK_RETRY_SCHEDULE: '5,later' },
    'CES_WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds from 0 to 2592000 (30 days), got "5,later"',
  ],
  // The listener would silently listen on every interface instead of a host it cannot parse.
  [
    ['--host', 'api_internal'],
    {},
    "--host must be an IP address or a host name (letters, digits, '.', ':' and '-', at most 63 characters), got \"api_internal\"",
  ],
  [
    [],
    { CES_HOST: 'fe80::1%eth0' },
    "CES_HOST must be an IP address or a host name (letters, digits, '.', ':' and '-', at most 63 characters), got \"fe80::1%eth0\"",
  ],
  // `Authorization: Bearer my token` can never match: the server would refuse every scrape for ever.
  [
    [],
    { CES_METRICS_TOKEN: 'my token' },
    'CES_METRICS_TOKEN must be a bearer token (letters, digits and -._~+/, then only trailing =); character 3 is " "',
  ],
];
for (const [args, env, message] of REFUSED) {
  test(
    `ces serve ${[...args, ...Object.entries(env).map(([k, v]) => `(${k}=${v})`)].join(' ')} stops with one line, before opening the database`,
    { timeout: 60_000 },
    async () => {
      const dbPath = join(dir, `refused-${REFUSED.findIndex((r) => r[2] === message)}`, 'ces.db');
      const r = await runCli(['serve', ...args], { dbPath, env, process: true });
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.stderr, `ces: ${message}\n`);
      assert.equal(r.stdout, '');
      assert.equal(existsSync(dbPath), false);
    },
  );
}

test('ces serve: flags win over bad variables, and CES_HOST is read when --host is absent', { timeout: 90_000 }, async () => {
  let serve: ServeProcess | undefined;
  try {
    // spawnServe passes --port 0 --tick-ms 1000 --log-format json (and no --host). (At 20 ms, /healthz
    // would count the tick dead after a 200 ms stall of a busy machine.)
    serve = await spawnServe({
      dbPath: join(dir, 'serve', 'ces.db'),
      tickMs: 1_000,
      env: { CES_PORT: 'bogus', PORT: 'bogus', CES_TICK_MS: '0', CES_LOG_FORMAT: 'xml', CES_HOST: 'localhost' },
    });
    assert.match(serve.url, /^http:\/\/localhost:\d+$/);
    assert.notEqual(new URL(serve.url).port, '3000');
    const listening = serve
      .output()
      .split('\n')
      .find((line) => line.includes('listening on'))!;
    assert.equal(JSON.parse(listening).url, serve.url, 'a JSON log record (--log-format json beat CES_LOG_FORMAT=xml)');
    const health = await fetch(`${serve.url}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { tick: { interval_ms: number } }).tick.interval_ms, 1_000);
    serve.child.kill('SIGTERM');
    assert.deepEqual(await serve.exited, { code: 0, signal: null });
  } finally {
    await killServe(serve);
  }
});

test(
  'ces serve --host ::1 (IPv6 loopback) listens there without a listhen warning about a public private host',
  { timeout: 90_000 },
  async () => {
    let serve: ServeProcess | undefined;
    try {
      serve = await spawnServe({ dbPath: join(dir, 'serve-v6', 'ces.db'), tickMs: 1_000, env: { CES_HOST: '::1' } });
      assert.match(serve.url, /^http:\/\/\[::1\]:\d+$/);
      assert.equal((await fetch(`${serve.url}/healthz`)).status, 200);
      serve.child.kill('SIGTERM');
      assert.deepEqual(await serve.exited, { code: 0, signal: null });
      assert.doesNotMatch(serve.output(), /listhen|public option/);
    } finally {
      await killServe(serve);
    }
  },
);

test(
  'ces serve --port on a port the listener refuses (6667, which browsers block) fails instead of listening on 3000, even with 3000 taken; --json adds the error document',
  { timeout: 60_000 },
  async () => {
    const dbPath = join(dir, 'unsafe-port', 'ces.db');
    // With 3000 busy, the listener's fallback used to report "no available port" instead of the reason.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.once('error', () => resolve()).listen(3000, '127.0.0.1', () => resolve()));
    let r;
    try {
      r = await runCli(['serve', '--port', '6667', '--json'], { dbPath, process: true });
    } finally {
      if (taken.listening) await new Promise((resolve) => taken.close(resolve));
    }
    assert.equal(r.code, 1, r.stdout);
    assert.equal(existsSync(dbPath), false, 'refused before the database is opened');
    const message = 'cannot start: port 6667 is refused by the HTTP listener (a port browsers block); choose another one';
    assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').at(-1)!), { error: { code: 'cannot_start', message } });
    assert.match(r.stderr, new RegExp(`^(.*\\n)?ces: ${message.replace(/[()]/g, '\\$&')}\\n$`, 's'));
  },
);

test('ces serve --json with a bad value prints the error document on stdout too', { timeout: 60_000 }, async () => {
  const r = await runCli(['serve', '--port', 'abc', '--json'], { dbPath: join(dir, 'json-refused', 'ces.db'), process: true });
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout), {
    error: { code: 'invalid_config', message: '--port must be an integer from 0 to 65535, got "abc"' },
  });
  assert.equal(r.stderr, 'ces: --port must be an integer from 0 to 65535, got "abc"\n');
});
