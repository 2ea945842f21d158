// The `ces` binary itself. The suites run the commander program in process (runCli in
// test/support/harness.ts), so this is what keeps the binary's wiring tested: every command family
// run as a real child process (cli/ces.ts through tsx: its arguments, streams, environment and exit
// status), and for the ones that only read, the very output the in-process run gives. Pipes,
// terminals, signals and `ces serve` have suites of their own (cli-pipe, operator-output, shutdown,
// database-sharing, cli-config).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  configureWebhook,
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  runCli,
  startTestServer,
  submitEntry,
  type CliResult,
  type TestServer,
  type World,
} from '../support/harness.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

let t: TestServer;
let w: World;
let entryId: string;
let receiver: Receiver;
let dir: string;

before(async () => {
  t = await startTestServer();
  receiver = await startReceiver();
  w = makeCampaign(t.ctx, { instantPrize: 'WINDOW' });
  makePrize(t.ctx, w.campaign.id, 'live');
  await configureWebhook(t, w.liveKey, receiver.url);
  entryId = (await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: 'Ana Process' } }, 0), 'process-1')).entry_id;
  await drainAll(t);
  dir = mkdtempSync(join(tmpdir(), 'ces-binary-'));
});
after(async () => {
  await t.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const inProcess = (args: string[]): Promise<CliResult> => runCli(args, { dbPath: t.dbPath });
const binary = (args: string[]): Promise<CliResult> => runCli(args, { dbPath: t.dbPath, process: true });

describe('the binary and the in-process program answer alike', () => {
  test('commands that only read: the same status, stdout and stderr, byte for byte', async () => {
    const id = w.campaign.id;
    // One read per command family, and two failures: a parent command without its subcommand, a
    // record that is not there (usage errors go through the binary in test/slow/cli-pipe.test.ts).
    const cases: string[][] = [
      ['campaign', 'show', id],
      ['key', 'list', '--campaign', id, '--json'],
      ['entries', 'show', entryId, '--json'],
      ['stats', '--campaign', id, '--json'],
      ['prize', 'list', '--campaign', id, '--mode', 'live'],
      ['window', 'list', '--campaign', id, '--json'],
      ['award', 'list', '--campaign', id, '--json'],
      ['webhook', 'deliveries', '--campaign', id],
      ['audit', 'list', '--campaign', id, '--json'],
      ['openapi'],
      ['key'],
      ['entries', 'show', '00000000-0000-4000-8000-000000000000', '--json'],
    ];
    // What differs from run to run: when stats were made, how long an export to stdout took.
    const timeless = (r: CliResult): Omit<CliResult, 'json'> => ({
      code: r.code,
      stdout: r.stdout.replace(/"generated_at": "[^"]+"/, '"generated_at": "…"'),
      stderr: r.stderr.replace(/ in \d+ ms$/m, ' in N ms'),
    });
    const children = await Promise.all(cases.map(binary));
    for (const [i, args] of cases.entries()) {
      assert.deepEqual(timeless(await inProcess(args)), timeless(children[i]), `ces ${args.join(' ')}`);
    }
  });

  test('an export to stdout: the same bytes (each run records entries.exported, so it is not among the reads above)', async () => {
    const args = ['entries', 'export', '--campaign', w.campaign.id, '--format', 'jsonl'];
    const child = await binary(args);
    const own = await inProcess(args);
    assert.equal(child.code, 0, child.stderr);
    assert.deepEqual([own.code, own.stdout], [child.code, child.stdout]);
    assert.match(child.stdout, new RegExp(`"entry_id":"${entryId}"`));
  });
});

describe('commands that write, through the binary', () => {
  test('campaign create, key issue, webhook set, participant anonymize: exit 0, one JSON document, the change stored', async () => {
    const [created, issued, set, anonymized] = await Promise.all([
      binary(['campaign', 'create', '--name', 'From the binary', '--json']),
      binary(['key', 'issue', '--campaign', w.campaign.id, '--mode', 'test', '--json']),
      binary(['webhook', 'set', '--campaign', w.campaign.id, '--inactive', '--json']),
      binary(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', '52998224725', '--reason', 'binary', '--json']),
    ]);
    for (const r of [created, issued, set, anonymized]) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.notEqual(r.json, undefined, r.stdout);
    }
    assert.equal(t.ctx.db.prepare('SELECT name FROM campaigns WHERE id = ?').pluck().get(created.json.id), 'From the binary');
    assert.equal(t.ctx.db.prepare('SELECT mode FROM api_keys WHERE id = ?').pluck().get(issued.json.id), 'test');
    assert.equal(set.json.is_active, false);
    assert.equal(t.ctx.db.prepare("SELECT count(*) FROM enrollments WHERE full_name = 'Ana Process'").pluck().get(), 0);
  });

  test('backup, restore, demo and an export to a file', async () => {
    const backup = join(dir, 'copy.db');
    const copied = await binary(['backup', backup, '--json']);
    assert.equal(copied.code, 0, copied.stderr);
    const restored = join(dir, 'restored.db');
    const out = join(dir, 'entries.csv');
    const [restore, exported] = await Promise.all([
      runCli(['restore', backup, '--db', restored, '--json'], { process: true }),
      binary(['entries', 'export', '--campaign', w.campaign.id, '--out', out, '--json']),
    ]);
    assert.equal(restore.code, 0, restore.stderr);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.json.rows, 1);
    assert.match(readFileSync(out, 'utf8'), /^entry_id,/);
    const demo = await runCli(['demo', '--url', 'http://127.0.0.1:9', '--json'], { dbPath: restored, process: true });
    assert.equal(demo.code, 0, demo.stderr);
    assert.match(demo.json.curl, /^curl -i -X POST http:\/\/127\.0\.0\.1:9\/v1\/entries/);
  });
});
