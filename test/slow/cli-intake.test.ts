// The operator CLI of issue 2 (docs/operations.md#cli-reference-campaigns-keys-entries-demo):
// campaign create|update|list|show, key issue|list|revoke, entries list|show and demo, run as the
// `ces` program (in process; as a real process where TZ or contention between processes is what is
// tested) on the same SQLite file as a running server.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DEMO_RECEIVER_URL } from '../../cli/commands/demo.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { entryBody, makeCampaign, makePrize, runCli, startTestServer, type CliResult, type TestServer } from '../support/harness.ts';

let s: TestServer;
before(async () => {
  // The load below sends one key faster than the default per-key limit (200/s): it is locking
  // between the server and the CLI that is tested, not the limiter (test/slow/limits.test.ts).
  s = await startTestServer({ env: { CES_RATE_LIMIT_RPS: '0' } });
});
after(() => s.close());

const cli = (...args: string[]): Promise<CliResult> => runCli(args, { dbPath: s.dbPath });
let seq = 0;
const post = (key: string, body: unknown) => s.request('POST', '/v1/entries', { key, body, idempotencyKey: `cli-${++seq}` });

/** --json success: exit 0, exactly one JSON document on stdout, nothing on stderr. */
function okJson(r: CliResult): any {
  assert.equal(r.code, 0, `exit ${r.code}\nstderr: ${r.stderr}\nstdout: ${r.stdout}`);
  assert.equal(r.stderr, '');
  assert.ok(r.stdout.endsWith('\n'));
  assert.doesNotThrow(() => JSON.parse(r.stdout), r.stdout);
  return r.json;
}

/** Failure: non-zero exit, one line on stderr, and with --json {"error": {code, message}} alone on stdout. */
function failed(r: CliResult, code: string, json = true): void {
  assert.notEqual(r.code, 0, r.stdout);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  const seen = `stderr: ${r.stderr}\nstdout: ${r.stdout}`;
  assert.equal(lines.length, 1, `one stderr line, got: ${r.stderr}`);
  assert.match(lines[0], /^ces: /);
  if (json) {
    assert.deepEqual(Object.keys(r.json ?? {}), ['error'], seen);
    assert.deepEqual(Object.keys(r.json.error).sort(), ['code', 'message']);
    assert.equal(r.json?.error?.code, code, seen);
    assert.equal(lines[0], `ces: ${r.json.error.message}`);
  } else {
    assert.equal(r.stdout, '');
  }
}

describe('ces campaign', () => {
  test('create with every option, show, update only what is given, list', async () => {
    const created = okJson(
      await cli(
        'campaign',
        'create',
        '--name',
        'Verão 2027',
        '--starts-at',
        '2026-12-01T00:00:00-03:00',
        '--ends-at',
        '2027-03-01T00:00:00-03:00',
        '--require',
        'full_name,email,phone,birthdate,city,state',
        '--allow-companies',
        '--no-api-enabled',
        '--instant-prize',
        'INTEGRATOR_DECLARED',
        '--lucky-numbers',
        'manual',
        '--lucky-quantity',
        '3',
        '--series-count',
        '10',
        '--json',
      ),
    );
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { ...created, id: undefined, created_at: undefined, updated_at: undefined },
      {
        ...created,
        id: undefined,
        created_at: undefined,
        updated_at: undefined,
        name: 'Verão 2027',
        starts_at: '2026-12-01T03:00:00.000Z',
        ends_at: '2027-03-01T03:00:00.000Z',
        required_fields: ['full_name', 'email', 'phone', 'birthdate', 'city', 'state'],
        allow_companies: true,
        api_enabled: false,
        instant_prize: 'INTEGRATOR_DECLARED',
        lucky_numbers: 'manual',
        lucky_quantity: 3,
        series_count: 10,
      },
    );
    assert.match(created.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const shown = okJson(await cli('campaign', 'show', created.id, '--json'));
    assert.deepEqual(shown, created);

    const updated = okJson(
      await cli('campaign', 'update', created.id, '--api-enabled', '--require', '', '--no-allow-companies', '--ends-at', '', '--json'),
    );
    assert.deepEqual(updated, {
      ...created,
      api_enabled: true,
      required_fields: [],
      allow_companies: false,
      ends_at: null,
      updated_at: updated.updated_at,
    });
    const renamed = okJson(
      await cli('campaign', 'update', created.id, '--name', 'Verão', '--lucky-numbers', 'none', '--instant-prize', 'none', '--json'),
    );
    assert.deepEqual(renamed, { ...updated, name: 'Verão', lucky_numbers: 'none', instant_prize: 'none', updated_at: renamed.updated_at });

    // No option, or only the values it has: nothing changes, updated_at included.
    assert.deepEqual(okJson(await cli('campaign', 'update', created.id, '--json')), renamed);
    assert.deepEqual(okJson(await cli('campaign', 'update', created.id, '--name', 'Verão', '--no-allow-companies', '--json')), renamed);

    const list = okJson(await cli('campaign', 'list', '--json'));
    assert.ok(Array.isArray(list));
    assert.deepEqual(
      list.find((c: { id: string }) => c.id === created.id),
      renamed,
    );
  });

  test('defaults of create: open-ended, nothing required, no companies, API on, no mechanics, 1 lucky number, 1 series', async () => {
    const c = okJson(await cli('campaign', 'create', '--name', 'Plain', '--json'));
    assert.deepEqual(
      {
        starts_at: c.starts_at,
        ends_at: c.ends_at,
        required_fields: c.required_fields,
        allow_companies: c.allow_companies,
        api_enabled: c.api_enabled,
        instant_prize: c.instant_prize,
        lucky_numbers: c.lucky_numbers,
        lucky_quantity: c.lucky_quantity,
        series_count: c.series_count,
      },
      {
        starts_at: null,
        ends_at: null,
        required_fields: [],
        allow_companies: false,
        api_enabled: true,
        instant_prize: 'none',
        lucky_numbers: 'none',
        lucky_quantity: 1,
        series_count: 1,
      },
    );
  });

  test('readable output without --json', async () => {
    const c = makeCampaign(s.ctx).campaign;
    const list = await cli('campaign', 'list');
    assert.equal(list.code, 0);
    assert.match(list.stdout, /^ID\s+NAME\s+STARTS_AT\s+ENDS_AT\s+API_ENABLED\s+INSTANT_PRIZE\s+LUCKY_NUMBERS\s+WEBHOOK_API\n/);
    assert.ok(list.stdout.includes(c.id));
    assert.throws(() => JSON.parse(list.stdout));
    const show = await cli('campaign', 'show', c.id);
    assert.match(show.stdout, new RegExp(`^id\\s+${c.id}$`, 'm'));
    assert.match(show.stdout, /^required_fields\s+\[\]$/m);
  });

  test('invalid options fail with a non-zero exit, one stderr line and a JSON error', async () => {
    const c = makeCampaign(s.ctx).campaign;
    const cases: Array<[string[], string]> = [
      [['campaign', 'create', '--name', 'X', '--starts-at', 'tomorrow'], 'invalid_campaign_options'],
      [['campaign', 'create', '--name', 'X', '--ends-at', '2027-02-30T00:00:00Z'], 'invalid_campaign_options'],
      [
        ['campaign', 'create', '--name', 'X', '--starts-at', '2027-01-02T00:00:00Z', '--ends-at', '2027-01-01T00:00:00Z'],
        'invalid_campaign_options',
      ],
      [['campaign', 'create', '--name', 'X', '--require', 'full_name,age'], 'invalid_campaign_options'],
      [['campaign', 'create', '--name', 'X', '--instant-prize', 'SOMETIMES'], 'invalid_campaign_options'],
      [['campaign', 'create', '--name', 'X', '--lucky-numbers', 'always'], 'invalid_campaign_options'],
      [['campaign', 'create', '--name', 'X', '--lucky-quantity', '0'], 'invalid_campaign_options'],
      [['campaign', 'create', '--name', '  '], 'invalid_campaign_options'],
      [['campaign', 'create', '--name', ''], 'invalid_campaign_options'],
      [['campaign', 'update', c.id, '--name', ''], 'invalid_campaign_options'],
      [['campaign', 'create'], 'invalid_usage'],
      [['campaign', 'create', '--name', 'X', '--allow-companys'], 'invalid_usage'],
      [['campaign', 'update', c.id, '--series-count', '-1'], 'invalid_campaign_options'],
      [['campaign', 'update', '00000000-0000-4000-8000-000000000000', '--name', 'Y'], 'not_found'],
      [['campaign', 'show', 'nope'], 'not_found'],
    ];
    const campaigns = (): unknown[] => s.ctx.db.prepare('SELECT * FROM campaigns ORDER BY id').all();
    const before = campaigns();
    const results = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
    results.forEach((r, i) => failed(r, cases[i][1]));
    // Without --json: the same one line on stderr, nothing on stdout.
    failed(await cli('campaign', 'create', '--name', 'X', '--lucky-quantity', '0'), 'invalid_campaign_options', false);
    // An empty name says the same on create as on update: it was given, and is empty.
    for (const args of [
      ['campaign', 'create', '--name', ''],
      ['campaign', 'update', c.id, '--name', ' '],
    ]) {
      assert.equal(JSON.parse((await cli(...args, '--json')).stdout).error.message, 'name must not be empty');
    }
    assert.deepEqual(campaigns(), before, 'no failed command created or changed a campaign');
  });

  test('a parent command without its subcommand (ces, ces key, ces webhook) fails with one line naming the commands, not the help', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /^ces: missing command after 'ces': one of serve, campaign, key, .* \(see npx ces --help\)$/m],
      [['key'], /^ces: missing command after 'ces key': one of issue, list, revoke, rotate \(see npx ces key --help\)$/m],
      [
        ['webhook'],
        /^ces: missing command after 'ces webhook': one of listen, show, set, rotate-secret, deliveries, test, redeliver \(see npx ces webhook --help\)$/m,
      ],
    ];
    for (const [args, line] of cases) {
      const r = await runCli(args);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, line);
      assert.equal(r.stderr.split('\n').filter((l) => l !== '').length, 1, r.stderr);
    }
    // With an option of its subcommands, the missing command is still what is wrong, not the option.
    const json = await runCli(['key', '--json']);
    failed(json, 'invalid_usage');
    assert.match(json.json.error.message, /^missing command after 'ces key': one of issue, list, revoke, rotate/);
    assert.match((await runCli(['campaign', '--mode', 'live'])).stderr, /^ces: missing command after 'ces campaign': one of create, /m);
    // An option its command does not have is still named.
    assert.match((await runCli(['campaign', 'list', '--bogus'])).stderr, /^ces: unknown option '--bogus' \(see --help\)$/m);
    // Asked for, the help is still printed in full, on stdout, with status 0.
    const help = await runCli(['key', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: ces key \[options\] \[command\]/);
  });

  test('a date later than 9999-12-31T23:59:59.999Z in UTC is invalid_campaign_options for create and update, and nothing is written', async () => {
    // Each is a four-digit year as typed, and was stored as +010000-01-01T…Z: not ISO 8601 as
    // documented, and out of order as text.
    const c = makeCampaign(s.ctx, { startsAt: '2026-12-01T00:00:00Z', endsAt: '2027-03-01T00:00:00Z' }).campaign;
    const late = '9999-12-31T23:00:00-03:00';
    const message = (field: string): string =>
      `${field} must be no later than 9999-12-31T23:59:59.999Z (the last four-digit year in UTC), got "${late}"`;
    const cases: Array<[string[], string]> = [
      [['campaign', 'create', '--name', 'X', '--ends-at', late], message('ends_at')],
      [['campaign', 'create', '--name', 'X', '--starts-at', late], message('starts_at')],
      [['campaign', 'create', '--name', 'X', '--purchase-from', '2026-12-01T00:00:00Z', '--purchase-to', late], message('purchase_to')],
      [['campaign', 'update', c.id, '--ends-at', late], message('ends_at')],
      [
        ['campaign', 'update', c.id, '--name', 'Renamed', '--starts-at', late, '--purchase-from', late],
        `${message('starts_at')}; ${message('purchase_from')}`,
      ],
    ];
    const campaigns = (): unknown[] => s.ctx.db.prepare('SELECT * FROM campaigns ORDER BY id').all();
    const before = campaigns();
    const results = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
    results.forEach((r, i) => {
      failed(r, 'invalid_campaign_options');
      assert.equal(r.json.error.message, cases[i][1], cases[i][0].join(' '));
    });
    assert.deepEqual(campaigns(), before, 'no campaign created or changed');
    // The last millisecond of 9999 in UTC is still a date, whatever offset it is written with.
    const latest = okJson(
      await cli(
        'campaign',
        'update',
        c.id,
        '--ends-at',
        '9999-12-31T20:59:59.999-03:00',
        '--purchase-to',
        '9999-12-31T23:59:59.999Z',
        '--json',
      ),
    );
    assert.deepEqual([latest.ends_at, latest.purchase_to], ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z']);
  });

  test('a campaign date must carry its zone: without one (or a date alone) it is invalid_campaign_options, whatever TZ the machine has', async () => {
    // Read in the machine's zone, 2026-12-01T00:00:00 meant 03:00Z under TZ=America/Sao_Paulo and
    // 00:00Z in a UTC container: a registration window hours off, silently.
    const c = makeCampaign(s.ctx).campaign;
    const zoned = (field: string, value: string): string =>
      `${field} must be an ISO 8601 date-time with its zone (Z or ±hh:mm, e.g. 2026-12-01T00:00:00-03:00), got "${value}"`;
    const cases: Array<[string[], string]> = [
      [['campaign', 'create', '--name', 'X', '--starts-at', '2026-12-01T00:00:00'], zoned('starts_at', '2026-12-01T00:00:00')],
      [['campaign', 'create', '--name', 'X', '--ends-at', '2027-01-01'], zoned('ends_at', '2027-01-01')],
      [['campaign', 'update', c.id, '--purchase-from', '2026-12-01T00:00'], zoned('purchase_from', '2026-12-01T00:00')],
      [
        ['campaign', 'update', c.id, '--starts-at', '0000-01-01T00:00:00+01:00'],
        'starts_at must be no earlier than 0000-01-01T00:00:00.000Z (the first four-digit year in UTC), got "0000-01-01T00:00:00+01:00"',
      ],
    ];
    const campaigns = (): unknown[] => s.ctx.db.prepare('SELECT * FROM campaigns ORDER BY id').all();
    const before = campaigns();
    const results = await Promise.all(
      cases.map(([args]) => runCli([...args, '--json'], { dbPath: s.dbPath, env: { TZ: 'America/Sao_Paulo' }, process: true })),
    );
    results.forEach((r, i) => {
      failed(r, 'invalid_campaign_options');
      assert.equal(r.json.error.message, cases[i][1], cases[i][0].join(' '));
    });
    assert.deepEqual(campaigns(), before, 'no campaign created or changed');
    // With its zone a time means the same instant under any TZ; years below 100 are years, not 19xx.
    const ok = okJson(
      await runCli(
        ['campaign', 'update', c.id, '--starts-at', '2026-12-01T00:00:00-03:00', '--purchase-from', '0050-06-01T00:00:00Z', '--json'],
        { dbPath: s.dbPath, env: { TZ: 'Asia/Tokyo' }, process: true },
      ),
    );
    assert.deepEqual([ok.starts_at, ok.purchase_from], ['2026-12-01T03:00:00.000Z', '0050-06-01T00:00:00.000Z']);
  });

  test('options take effect on POST /v1/entries at once, on the running server', async () => {
    const c = okJson(await cli('campaign', 'create', '--name', 'Live options', '--no-api-enabled', '--json'));
    const key = okJson(await cli('key', 'issue', '--campaign', c.id, '--mode', 'live', '--json')).key;
    assert.equal((await post(key, entryBody({}, 0))).body.code, 'registration_closed');
    okJson(await cli('campaign', 'update', c.id, '--api-enabled', '--require', 'email', '--json'));
    assert.equal((await post(key, entryBody({}, 0))).body.code, 'missing_required_field');
    assert.equal(
      (await post(key, entryBody({ enrollment: { document_number: '12.ABC.345/01DE-35', email: 'co@example.com' } }, 0))).body.code,
      'companies_not_allowed',
    );
    okJson(await cli('campaign', 'update', c.id, '--allow-companies', '--instant-prize', 'INTEGRATOR_DECLARED', '--json'));
    const prize = makePrize(s.ctx, c.id, 'live');
    const ok = await post(
      key,
      entryBody(
        {
          enrollment: { document_number: '12.ABC.345/01DE-35', email: 'co@example.com' },
          instant_win: { won: true, prize_definition_id: prize.id },
        },
        0,
      ),
    );
    assert.equal(ok.status, 202, ok.text);
    // --starts-at in the future (of the server's clock) closes registration.
    okJson(await cli('campaign', 'update', c.id, '--starts-at', '2030-01-01T00:00:00Z', '--json'));
    assert.equal((await post(key, entryBody({ enrollment: { email: 'x@example.com' } }, 1))).status, 403);
  });
});

describe('ces key', () => {
  test('issue shows the key once; list never does; only a SHA-256 hash is stored', async () => {
    const c = okJson(await cli('campaign', 'create', '--name', 'Keys', '--json'));
    const [live, test, live2] = await Promise.all([
      cli('key', 'issue', '--campaign', c.id, '--mode', 'live', '--label', 'crm', '--json'),
      cli('key', 'issue', '--campaign', c.id, '--mode', 'test', '--json'),
      cli('key', 'issue', '--campaign', c.id, '--mode', 'live', '--json'),
    ]).then((rs) => rs.map(okJson));
    assert.deepEqual(Object.keys(live).sort(), ['campaign_id', 'created_at', 'id', 'key', 'label', 'mode', 'prefix']);
    assert.deepEqual(
      { campaign_id: live.campaign_id, mode: live.mode, label: live.label },
      { campaign_id: c.id, mode: 'live', label: 'crm' },
    );
    assert.equal(test.mode, 'test');
    for (const k of [live, test, live2]) {
      assert.match(k.key, /^service_(live|test)_[A-Za-z0-9_-]{43}$/);
      assert.ok(k.key.startsWith(`service_${k.mode}_`));
      assert.equal(Buffer.from(k.key.slice(`service_${k.mode}_`.length), 'base64url').length, 32, '32 random bytes');
      assert.ok(k.key.startsWith(k.prefix) && k.prefix.length < k.key.length - 32);
    }
    assert.equal(new Set([live.key, test.key, live2.key]).size, 3);

    const list = await cli('key', 'list', '--campaign', c.id, '--json');
    const keys = okJson(list);
    assert.equal(keys.length, 3);
    for (const k of keys) {
      assert.deepEqual(Object.keys(k).sort(), ['campaign_id', 'created_at', 'id', 'label', 'mode', 'prefix', 'revoked_at']);
    }
    for (const secret of [live.key, test.key, live2.key]) {
      assert.ok(!list.stdout.includes(secret));
      assert.ok(!list.stdout.includes(secret.slice(-20)));
    }
    const text = await cli('key', 'list', '--campaign', c.id);
    assert.ok(!text.stdout.includes(live.key.slice(-20)));

    // No stored value contains the key or its unprefixed secret; the row holds its SHA-256.
    const tables = (s.ctx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
      (t) => t.name,
    );
    for (const table of tables) {
      for (const row of s.ctx.db.prepare(`SELECT * FROM ${table}`).all() as Array<Record<string, unknown>>) {
        for (const value of Object.values(row)) {
          const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
          assert.ok(!text.includes(live.key.slice(13)), `${table} holds the secret`);
        }
      }
    }
    const row = s.ctx.db.prepare('SELECT key_hash FROM api_keys WHERE id = ?').get(live.id) as { key_hash: Buffer };
    assert.deepEqual(row.key_hash, createHash('sha256').update(live.key).digest());

    // The issued keys work at once against the running server, in their own mode.
    assert.equal((await post(live.key, entryBody({}, 1))).status, 202);
    const fromTest = await post(test.key, entryBody({}, 1));
    assert.equal(fromTest.status, 202);
    assert.equal(
      (s.ctx.db.prepare('SELECT livemode FROM entries WHERE id = ?').get(fromTest.body.entry_id) as { livemode: number }).livemode,
      0,
    );
  });

  test('revoke: the key gives 401 afterwards, list shows revoked_at, other keys keep working', async () => {
    const c = okJson(await cli('campaign', 'create', '--name', 'Revoke', '--json'));
    const [a, b] = (
      await Promise.all([
        cli('key', 'issue', '--campaign', c.id, '--mode', 'live', '--json'),
        cli('key', 'issue', '--campaign', c.id, '--mode', 'live', '--json'),
      ])
    ).map(okJson);
    assert.equal((await post(a.key, entryBody({}, 2))).status, 202);
    const revoked = okJson(await cli('key', 'revoke', a.id, '--json'));
    assert.equal(revoked.id, a.id);
    assert.equal(revoked.key, undefined);
    const start = s.clock.now();
    // The CLI stamps revoked_at with the wall clock; keep the server's ManualClock from being earlier.
    s.clock.set(Math.max(start, Date.parse(revoked.revoked_at)));
    try {
      const res = await post(a.key, entryBody({}, 2));
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'invalid_api_key');
      assert.equal((await post(b.key, entryBody({}, 3))).status, 202);
    } finally {
      s.clock.set(start);
    }
    const keys = okJson(await cli('key', 'list', '--campaign', c.id, '--json'));
    assert.equal(keys.find((k: { id: string }) => k.id === a.id).revoked_at, revoked.revoked_at);
    assert.equal(keys.find((k: { id: string }) => k.id === b.id).revoked_at, null);
  });

  test('invalid key commands fail cleanly', async () => {
    const c = makeCampaign(s.ctx).campaign;
    const cases: Array<[string[], string]> = [
      [['key', 'issue', '--campaign', c.id, '--mode', 'prod'], 'invalid_mode'],
      [['key', 'issue', '--campaign', 'nope', '--mode', 'live'], 'not_found'],
      [['key', 'issue', '--campaign', c.id], 'invalid_usage'],
      [['key', 'list', '--campaign', 'nope'], 'not_found'],
      [['key', 'revoke', 'nope'], 'not_found'],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
    results.forEach((r, i) => failed(r, cases[i][1]));
    assert.equal(
      (s.ctx.db.prepare('SELECT count(*) AS n FROM api_keys WHERE campaign_id = ?').get(c.id) as { n: number }).n,
      2,
      "only makeCampaign's two keys",
    );
  });
});

describe('ces entries', () => {
  test('list (with --mode, --status, --limit) and show', async () => {
    // Set up through the domain (the CLI under test here is `entries`).
    const w = makeCampaign(s.ctx);
    const c = w.campaign;
    const live = { key: w.liveKey };
    const test = { key: w.testKey };
    const pending = (await post(live.key, entryBody({ enrollment: { full_name: 'Maria da Silva' } }, 4))).body.entry_id;
    s.clock.advance(1000);
    const rejected = (await post(live.key, entryBody({ evidence: { access_key: makeAccessKey({ model: '99' }) } }, 5))).body.entry_id;
    s.clock.advance(1000);
    const testEntry = (await post(test.key, entryBody({}, 4))).body.entry_id;
    s.clock.advance(-2000);

    const [all, onlyTest, onlyRejected, limited, show, text] = await Promise.all([
      cli('entries', 'list', '--campaign', c.id, '--json'),
      cli('entries', 'list', '--campaign', c.id, '--mode', 'test', '--json'),
      cli('entries', 'list', '--campaign', c.id, '--status', 'rejected', '--json'),
      cli('entries', 'list', '--campaign', c.id, '--limit', '1', '--json'),
      cli('entries', 'show', pending, '--json'),
      cli('entries', 'list', '--campaign', c.id),
    ]);
    assert.deepEqual(
      okJson(all).map((e: { entry_id: string }) => e.entry_id),
      [testEntry, rejected, pending],
      'newest first',
    );
    assert.deepEqual(
      okJson(onlyTest).map((e: { entry_id: string; livemode: boolean }) => [e.entry_id, e.livemode]),
      [[testEntry, false]],
    );
    const rej = okJson(onlyRejected);
    assert.deepEqual(
      rej.map((e: { entry_id: string }) => e.entry_id),
      [rejected],
    );
    assert.deepEqual(
      rej[0].rejection_reasons.map((r: { code: string }) => r.code),
      ['access_key_invalid_model'],
    );
    assert.deepEqual(
      okJson(limited).map((e: { entry_id: string }) => e.entry_id),
      [testEntry],
    );

    const e = okJson(show);
    assert.equal(e.entry_id, pending);
    assert.equal(e.campaign_id, c.id);
    assert.equal(e.status, 'PENDING');
    assert.equal(e.livemode, true);
    assert.match(e.idempotency_key, /^cli-\d+$/);
    assert.match(e.access_key, /^\d{44}$/);
    assert.equal(e.enrollment.full_name, 'Maria da Silva');
    assert.equal(e.enrollment.id, e.enrollment_id);
    // The HTTP read and the CLI agree on the shared fields.
    const http = await s.request('GET', `/v1/entries/${pending}`, { key: live.key });
    for (const [k, v] of Object.entries(http.body)) assert.deepEqual(e[k], v, k);

    assert.equal(text.code, 0);
    assert.match(text.stdout, /^ENTRY_ID\s+MODE\s+STATUS\s+REASONS\s+CREATED_AT\n/);
    assert.match(text.stdout, new RegExp(`${rejected}\\s+live\\s+REJECTED\\s+access_key_invalid_model`));
  });

  test('every command reads --mode and --status in any case, and a bad --mode is invalid_mode in each', async () => {
    const c = makeCampaign(s.ctx, { instantPrize: 'WINDOW' }).campaign;
    const prize = makePrize(s.ctx, c.id, 'live', 1).id;
    const doc = '52998224725';
    const withMode = (mode: string): string[][] => [
      ['key', 'issue', '--campaign', c.id, '--mode', mode],
      ['prize', 'add', '--campaign', c.id, '--mode', mode, '--name', 'N', '--type', 'voucher', '--unit-value', '1', '--stock', '1'],
      ['prize', 'list', '--campaign', c.id, '--mode', mode],
      ['window', 'add', '--campaign', c.id, '--mode', mode, '--prize', prize, '--opens-at', '2026-12-01T00:00:00Z'],
      ['window', 'list', '--campaign', c.id, '--mode', mode],
      ['stats', '--campaign', c.id, '--mode', mode],
      ['participant', 'export', '--campaign', c.id, '--document', doc, '--mode', mode],
      ['webhook', 'test', '--campaign', c.id, '--mode', mode],
      ['entries', 'list', '--campaign', c.id, '--mode', mode],
      ['entries', 'export', '--campaign', c.id, '--mode', mode, '--out', `${s.dbPath}.export-${mode}.csv`],
      ['award', 'list', '--campaign', c.id, '--mode', mode],
    ];
    const bad = await Promise.all(withMode('prod').map((args) => cli(...args, '--json')));
    bad.forEach((r, i) => {
      failed(r, 'invalid_mode');
      assert.equal(r.json.error.message, '--mode must be live or test, got "prod"', withMode('prod')[i].join(' '));
    });
    // In upper case, each gets past --mode: it succeeds, or fails for a reason of its own (no
    // participant with that document, no webhook configured, a test-mode prize id in live).
    const upper = await Promise.all(withMode('LIVE').map((args) => cli(...args, '--json')));
    upper.forEach((r, i) => assert.notEqual(r.json?.error?.code, 'invalid_mode', `${withMode('LIVE')[i].join(' ')}: ${r.stdout}`));
    assert.equal(okJson(await cli('prize', 'list', '--campaign', c.id, '--mode', 'Live', '--json'))[0].id, prize);
    for (const args of [
      ['entries', 'list', '--campaign', c.id, '--status', 'approved'],
      ['award', 'list', '--campaign', c.id, '--status', 'AWARDED'],
      ['webhook', 'deliveries', '--campaign', c.id, '--status', 'Delivered'],
    ])
      assert.ok(Array.isArray(okJson(await cli(...args, '--json'))), args.join(' '));
    for (const args of [
      ['entries', 'list', '--campaign', c.id, '--status', 'done'],
      ['award', 'list', '--campaign', c.id, '--status', 'won'],
      ['webhook', 'deliveries', '--campaign', c.id, '--status', 'sent'],
    ]) {
      const r = await cli(...args, '--json');
      failed(r, 'invalid_option');
      assert.match(r.json.error.message, new RegExp(`--status must be .*, got "${args.at(-1)}"$`));
    }
  });

  test('invalid entries commands fail cleanly', async () => {
    const c = makeCampaign(s.ctx).campaign;
    const cases: Array<[string[], string]> = [
      [['entries', 'show', '00000000-0000-4000-8000-000000000000'], 'not_found'],
      [['entries', 'list', '--campaign', 'nope'], 'not_found'],
      [['entries', 'list', '--campaign', c.id, '--status', 'DONE'], 'invalid_option'],
      [['entries', 'list', '--campaign', c.id, '--mode', 'prod'], 'invalid_mode'],
      [['entries', 'list', '--campaign', c.id, '--limit', '0'], 'invalid_option'],
      // --limit 1 to 100000, in digits: a huge one reached SQLite as a REAL (database_error), 1e3 and 0x10 passed.
      [['entries', 'list', '--campaign', c.id, '--limit', '99999999999999999999'], 'invalid_option'],
      [['entries', 'list', '--campaign', c.id, '--limit', '100001'], 'invalid_option'],
      [['entries', 'list', '--campaign', c.id, '--limit', '1e3'], 'invalid_option'],
      [['webhook', 'deliveries', '--campaign', c.id, '--limit', '99999999999999999999'], 'invalid_option'],
      [['webhook', 'deliveries', '--campaign', c.id, '--limit', '0x10'], 'invalid_option'],
      [['entries', 'list'], 'invalid_usage'],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
    results.forEach((r, i) => failed(r, cases[i][1]));
  });
});

describe('ces demo', () => {
  test('prints a test key and a curl command whose request gets a 202', async () => {
    // The printed command is sent as a person would send it: to a server on a port.
    const net = await startTestServer({ socket: true });
    try {
      // On the server's clock: the command's consent is dated now, and the server refuses a consent
      // from more than 5 minutes ahead of its own clock.
      const cli = (...args: string[]): Promise<CliResult> => runCli(args, { dbPath: net.dbPath, clock: net.clock });
      const demo = okJson(await cli('demo', '--url', net.url, '--json'));
      assert.equal(demo.key.mode, 'test');
      assert.match(demo.key.key, /^service_test_[A-Za-z0-9_-]{43}$/);
      assert.equal(demo.campaign.lucky_numbers, 'auto');
      assert.equal(demo.campaign.instant_prize, 'INTEGRATOR_DECLARED');
      assert.equal(demo.prize.livemode, false);

      // Read the request back out of the printed curl command, as a person pasting it would send it.
      const curl: string = demo.curl;
      assert.ok(curl.startsWith(`curl -i -X POST ${net.url}/v1/entries`), curl);
      const headers = Object.fromEntries([...curl.matchAll(/-H '([^:]+): ([^']*)'/g)].map((m) => [m[1].toLowerCase(), m[2]]));
      const body = /-d '([^']*)'/.exec(curl)?.[1];
      assert.ok(body);
      assert.equal(headers.authorization, `Bearer ${demo.key.key}`);
      const send = () => fetch(`${net.url}/v1/entries`, { method: 'POST', headers, body });
      const res = await send();
      assert.equal(res.status, 202, await res.clone().text());
      const accepted = (await res.json()) as { entry_id: string; status: string };
      assert.equal(accepted.status, 'PENDING');
      const again = (await (await send()).json()) as { entry_id: string; message: string };
      assert.equal(again.entry_id, accepted.entry_id, 'pasting it twice is a replay');
      assert.match(again.message, /replay/);

      // The readable form prints the same kind of key and command.
      const text = await cli('demo', '--url', net.url);
      assert.equal(text.code, 0);
      assert.match(text.stdout, /^Test key {2}service_test_[A-Za-z0-9_-]{43}$/m);
      assert.match(text.stdout, /^curl -i -X POST http:\/\/127\.0\.0\.1:\d+\/v1\/entries \\$/m);
      // Run from the sources, as the tests are: the checkout's commands, on the demo's database.
      assert.ok(text.stdout.includes(`\nStart the server (npm start -- --db ${net.dbPath}), then submit an entry:\n`), text.stdout);
      const campaignId = /^Campaign {2}(\S+)/m.exec(text.stdout)?.[1];
      const listen = `npx ces webhook listen --campaign ${campaignId} --forward-to ${DEMO_RECEIVER_URL} --db ${net.dbPath}`;
      assert.ok(text.stdout.endsWith(`\n${listen}\n`), text.stdout);
    } finally {
      await net.close();
    }
  });
});

describe('server and CLI on one database file at the same time', () => {
  // CLI processes beside the server's: SQLite's locks are what is tested, between processes.
  const cli = (...args: string[]): Promise<CliResult> => runCli(args, { dbPath: s.dbPath, process: true });
  test('intake under load while CLI commands write and read: no "database is locked", no 5xx', async () => {
    const w = makeCampaign(s.ctx);
    const c = w.campaign;
    const key = w.liveKey;
    let stop = false;
    const statuses: number[] = [];
    const start = s.clock.now();
    const load = (async () => {
      for (let round = 0; !stop && round < 2000; round++) {
        const batch = await Promise.all(Array.from({ length: 10 }, (_, i) => post(key, entryBody({}, 100 + round * 10 + i))));
        for (const r of batch) statuses.push(r.status);
        // 10 ms of server time per 10 requests keeps the per-key rate limit's bucket full.
        s.clock.advance(10);
      }
    })();
    const results: CliResult[] = [];
    try {
      for (let round = 0; round < 2; round++) {
        results.push(
          ...(await Promise.all([
            cli('campaign', 'update', c.id, '--lucky-quantity', String(round + 1), '--json'),
            cli('key', 'issue', '--campaign', c.id, '--mode', 'test', '--json'),
            cli('entries', 'list', '--campaign', c.id, '--limit', '5', '--json'),
            cli('campaign', 'create', '--name', `Side ${round}`, '--json'),
          ])),
        );
      }
    } finally {
      stop = true;
      await load;
      s.clock.set(start);
    }
    for (const r of results) {
      okJson(r);
      assert.doesNotMatch(r.stderr, /locked|busy/i);
    }
    assert.ok(statuses.length >= 10);
    assert.deepEqual([...new Set(statuses)], [202], `statuses seen: ${[...new Set(statuses)].join(',')}`);
    assert.equal(
      (s.ctx.db.prepare('SELECT lucky_quantity FROM campaigns WHERE id = ?').get(c.id) as { lucky_quantity: number }).lucky_quantity,
      2,
    );
  });
});
