// What the operator sees (docs/deploy.md#1-the-service-user-and-its-files,
// docs/operations.md#exports-ces-entries-export,
// docs/operations.md#cli-reference-campaigns-keys-entries-demo). Values that came from the API (a
// webhook URL, a participant's name, a receiver's answer) reach the operator's terminal through the
// real CLI: control characters are shown escaped (\u001b), never raw, so nobody can clear the
// screen and print a fake "webhook OK"; --json stays JSON of the exact values. A webhook URL is
// stored in its normalised form. Credentials in a webhook URL authorize the delivery but are never
// stored in attempt records nor printed: `https://user:***@host/…`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  configureWebhook,
  drainAll,
  entryBody,
  makeCampaign,
  ROOT,
  runCli,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
} from '../support/harness.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

/** A raw C0 or C1 control character other than a line break: what must never reach a terminal. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;
const SCREEN_CLEAR = '\u001b[2J\u001b[H\u001b[32mwebhook OK\u001b[0m';
const C1_CSI = '\u009b2J';

describe('human-readable CLI output shows control characters escaped', () => {
  let t: TestServer;
  let w: World;
  let receiver: Receiver;
  let entryId: string;
  const NAME = `Bruna ${SCREEN_CLEAR} Ferraz ${C1_CSI}\u0007`;
  const ANSWER = `${SCREEN_CLEAR}${C1_CSI}`;

  before(async () => {
    t = await startTestServer();
    w = makeCampaign(t.ctx);
    receiver = await startReceiver({ respond: () => ({ status: 200, body: ANSWER }) });
    await configureWebhook(t, w.liveKey, receiver.url);
    entryId = (await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: NAME } }, 0), 'escape-1')).entry_id;
    await drainAll(t);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('ces webhook show: an endpoint_url holding ESC sequences (stored by an older ces) is printed escaped; --json keeps it', async () => {
    const hostile = `${receiver.url}/${SCREEN_CLEAR}`;
    t.ctx.db.prepare('UPDATE webhook_configs SET endpoint_url = ? WHERE campaign_id = ?').run(hostile, w.campaign.id);
    try {
      const human = await runCli(['webhook', 'show', '--campaign', w.campaign.id], { dbPath: t.dbPath });
      assert.equal(human.code, 0, human.stderr);
      assert.doesNotMatch(human.stdout, RAW_CONTROL);
      assert.ok(human.stdout.includes('\\u001b[2J\\u001b[H\\u001b[32mwebhook OK\\u001b[0m'), human.stdout);
      const json = await runCli(['webhook', 'show', '--campaign', w.campaign.id, '--json'], { dbPath: t.dbPath });
      assert.equal(json.json.endpoint_url, hostile, '--json is JSON of the exact value');
    } finally {
      t.ctx.db.prepare('UPDATE webhook_configs SET endpoint_url = ? WHERE campaign_id = ?').run(receiver.url, w.campaign.id);
    }
  });

  test("ces webhook deliveries: the receiver's answer, ESC and C1 CSI alike, is printed escaped", async () => {
    const human = await runCli(['webhook', 'deliveries', '--campaign', w.campaign.id], { dbPath: t.dbPath });
    assert.equal(human.code, 0, human.stderr);
    assert.doesNotMatch(human.stdout, RAW_CONTROL);
    assert.ok(human.stdout.includes('\\u001b[2J'), human.stdout);
    const json = await runCli(['webhook', 'deliveries', '--campaign', w.campaign.id, '--json'], { dbPath: t.dbPath });
    assert.equal(json.code, 0, json.stderr);
    assert.ok(
      json.json.every((d: { last_response_excerpt: string }) => d.last_response_excerpt === ANSWER),
      'stored and given to --json as answered',
    );
    assert.doesNotMatch(json.stdout, RAW_CONTROL, 'the JSON text escapes C1 too (\\u009b), which parses back to the same value');
  });

  test("ces entries show: the participant's name with ESC, BEL and C1 CSI is printed escaped; --json keeps it", async () => {
    const human = await runCli(['entries', 'show', entryId], { dbPath: t.dbPath });
    assert.equal(human.code, 0, human.stderr);
    assert.doesNotMatch(human.stdout, RAW_CONTROL);
    assert.ok(human.stdout.includes('\\u009b2J'), human.stdout);
    const json = await runCli(['entries', 'show', entryId, '--json'], { dbPath: t.dbPath });
    assert.equal(json.json.enrollment.full_name, NAME);
  });

  test('ces entries export on a terminal shows names escaped; into a pipe it is the data as stored', async () => {
    const onTerminal = await runCliOnTerminal([
      'entries',
      'export',
      '--campaign',
      w.campaign.id,
      '--format',
      'csv',
      '--no-progress',
      '--db',
      t.dbPath,
    ]);
    assert.ok(onTerminal.includes('Bruna \\u001b[2J'), onTerminal);
    assert.doesNotMatch(onTerminal, RAW_CONTROL);
    const piped = await runCli(['entries', 'export', '--campaign', w.campaign.id, '--format', 'csv'], { dbPath: t.dbPath });
    assert.ok(piped.stdout.includes(NAME), 'a pipe gets the exact bytes');
  });
});

/** Runs the real CLI with stdout on a pseudo-terminal (util-linux `script`); what the terminal received. */
function runCliOnTerminal(args: string[]): Promise<string> {
  const quote = (a: string): string => `'${a.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, '--import', 'tsx', join(ROOT, 'cli/ces.ts'), ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    execFile('script', ['-qefc', command, '/dev/null'], { cwd: ROOT }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.replaceAll('\r\n', '\n')),
    );
  });
}

describe('PATCH /v1/webhook stores the URL in its normalised form', () => {
  let t: TestServer;
  let w: World;

  before(async () => {
    t = await startTestServer();
    w = makeCampaign(t.ctx);
  });
  after(() => t.close());

  test('control characters are percent-encoded, in the answer, in GET and in the stored row', async () => {
    const sent = `https://hooks.example/in/${SCREEN_CLEAR}\u001b]0;pwned\u0007/end`;
    const created = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: sent } });
    assert.equal(created.status, 201, created.text);
    const normal = new URL(sent).href;
    assert.equal(created.body.endpoint_url, normal);
    assert.match(normal, /^https:\/\/hooks\.example\/in\/%1B\[2J%1B\[H%1B\[32mwebhook%20OK%1B\[0m%1B\]0;pwned%07\/end$/);
    const read = await t.request('GET', '/v1/webhook', { key: w.liveKey });
    assert.equal(read.body.endpoint_url, normal);
    assert.equal(t.ctx.db.prepare('SELECT endpoint_url FROM webhook_configs WHERE campaign_id = ?').pluck().get(w.campaign.id), normal);
  });

  test('an URL is answered as the delivery reads it; a PATCH with the same URL changes nothing', async () => {
    const res = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://Hooks.Example:443/a/../b' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.endpoint_url, 'https://hooks.example/b');
    const again = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://hooks.example/b' } });
    assert.equal(again.body.updated_at, res.body.updated_at, 'the same URL, normalised: nothing changed');
  });

  test('a control character in the host is a 422 webhook_url_not_https, never a 5xx', async () => {
    const res = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://hooks\u001b.example/x' } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.code, 'webhook_url_not_https');
  });
});

describe('credentials in a webhook URL authorize deliveries and are never stored in attempts or printed', () => {
  let t: TestServer;
  let w: World;
  let receiver: Receiver;
  let withCredentials: string;
  let masked: string;
  const PASSWORD = 'Pa55-w0rd-kept-secret';

  before(async () => {
    t = await startTestServer();
    w = makeCampaign(t.ctx);
    receiver = await startReceiver();
    withCredentials = receiver.url.replace('https://', `https://hook-user:${PASSWORD}@`);
    masked = receiver.url.replace('https://', 'https://hook-user:***@');
    const res = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: withCredentials } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.endpoint_url, withCredentials, 'the integrator gets back the URL as set');
    receiver.setSecret(res.body.hmac_secret);
    await submitEntry(t, w.liveKey, entryBody({}, 0), 'creds-1');
    await drainAll(t);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('the delivery carries them as Basic authorization; the configuration keeps the real URL', async () => {
    assert.ok(receiver.requests.length > 0);
    const basic = `Basic ${Buffer.from(`hook-user:${PASSWORD}`).toString('base64')}`;
    assert.deepEqual(
      receiver.requests.map((r) => [r.headers.authorization, r.signatureMatches]),
      receiver.requests.map(() => [basic, true]),
    );
    const read = await t.request('GET', '/v1/webhook', { key: w.liveKey });
    assert.equal(read.body.endpoint_url, withCredentials);
  });

  test('attempt records hold the URL with its password masked, and nothing else holds the password', () => {
    const urls = t.ctx.db.prepare('SELECT DISTINCT url FROM webhook_attempts').pluck().all();
    assert.deepEqual(urls, [masked]);
    const rows =
      JSON.stringify(t.ctx.db.prepare('SELECT * FROM webhook_attempts').all()) +
      JSON.stringify(t.ctx.db.prepare('SELECT * FROM webhook_deliveries').all());
    assert.ok(!rows.includes(PASSWORD));
  });

  test('ces webhook show, test and deliveries print the URL masked, as text and as JSON', async () => {
    const runs = [
      ['webhook', 'show', '--campaign', w.campaign.id],
      ['webhook', 'show', '--campaign', w.campaign.id, '--json'],
      ['webhook', 'test', '--campaign', w.campaign.id],
      ['webhook', 'test', '--campaign', w.campaign.id, '--json'],
      ['webhook', 'deliveries', '--campaign', w.campaign.id, '--json'],
    ];
    for (const args of runs) {
      const res = await runCli(args, {
        dbPath: t.dbPath,
        env: { CES_ALLOW_PRIVATE_WEBHOOKS: '1' },
      });
      assert.equal(res.code, 0, `${args.join(' ')}: ${res.stderr}`);
      assert.ok(!(res.stdout + res.stderr).includes(PASSWORD), args.join(' '));
    }
    const show = await runCli(['webhook', 'show', '--campaign', w.campaign.id, '--json'], { dbPath: t.dbPath });
    assert.equal(show.json.endpoint_url, masked);
    const ping = await runCli(['webhook', 'test', '--campaign', w.campaign.id, '--json'], {
      dbPath: t.dbPath,
      env: { CES_ALLOW_PRIVATE_WEBHOOKS: '1' },
    });
    assert.equal(ping.json.url, masked);
    assert.equal(ping.json.result, 'delivered', 'the ping was authorized with the real password');
  });
});
