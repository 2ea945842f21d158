// GET /v1/prizes (the key's campaign and mode only) and the operator CLI for prizes, windows,
// awards and the entry view, run as the real `ces` program on the server's database file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listOperatorAwards } from '../src/mechanics/awards.ts';
import { makeCampaign, makePrize, runCli, startTestServer, type TestServer } from './support/harness.ts';
import { settle, stockOf, submitEntry } from './support/mechanics.ts';

describe('GET /v1/prizes', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test("lists the prizes of the key's campaign and mode only, with the documented fields and the current stock", async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const other = makeCampaign(s.ctx, {});
    const live = makePrize(s.ctx, w.campaign.id, 'live', 5, 'Live voucher');
    const testPrize = makePrize(s.ctx, w.campaign.id, 'test', 7, 'Test voucher');
    makePrize(s.ctx, other.campaign.id, 'live', 9, 'Other');
    const liveRes = await s.request('GET', '/v1/prizes', { key: w.liveKey });
    assert.equal(liveRes.status, 200);
    assert.deepEqual(liveRes.body, [
      { id: live.id, name: 'Live voucher', type: 'voucher', unit_value: 50, initial_stock: 5, current_stock: 5 },
    ]);
    const testRes = await s.request('GET', '/v1/prizes', { key: w.testKey });
    assert.deepEqual(
      testRes.body.map((p: { id: string }) => p.id),
      [testPrize.id],
    );
    assert.deepEqual((await s.request('GET', '/v1/prizes', { key: other.testKey })).body, []);
    await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: live.id } });
    await settle(s);
    assert.equal((await s.request('GET', '/v1/prizes', { key: w.liveKey })).body[0].current_stock, 4);
  });

  test('401 without a key or with an invalid one', async () => {
    for (const key of [null, 'service_live_nope']) {
      const res = await s.request('GET', '/v1/prizes', { key });
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'invalid_api_key');
    }
  });
});

describe('operator CLI: prize, window, award list|revoke, entries show', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('prize add prints the prize with the documented fields plus livemode; prize list shows stock and wins beyond the pool', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const add = await runCli(
      [
        'prize',
        'add',
        '--campaign',
        w.campaign.id,
        '--mode',
        'live',
        '--name',
        'Cinema ticket',
        '--type',
        'ticket',
        '--unit-value',
        '32.5',
        '--stock',
        '1',
        '--json',
      ],
      { dbPath: s.dbPath },
    );
    assert.equal(add.code, 0, add.stderr);
    for (const [k, v] of Object.entries({
      name: 'Cinema ticket',
      type: 'ticket',
      unit_value: 32.5,
      initial_stock: 1,
      current_stock: 1,
      livemode: true,
      awarded_beyond_pool: 0,
    })) {
      assert.deepEqual(add.json[k], v, k);
    }
    assert.match(add.json.id, /^[0-9a-f-]{36}$/);
    // Two wins on a stock of 1: the list shows 0 left and 1 beyond the pool.
    for (let i = 0; i < 2; i++) await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: add.json.id } });
    await settle(s);
    const list = await runCli(['prize', 'list', '--campaign', w.campaign.id, '--mode', 'live', '--json'], { dbPath: s.dbPath });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.json.length, 1);
    assert.equal(list.json[0].current_stock, 0);
    assert.equal(list.json[0].awarded_beyond_pool, 1);
    const bad = await runCli(
      [
        'prize',
        'add',
        '--campaign',
        w.campaign.id,
        '--mode',
        'live',
        '--name',
        'X',
        '--type',
        't',
        '--unit-value',
        '-1',
        '--stock',
        '1.5',
        '--json',
      ],
      { dbPath: s.dbPath },
    );
    assert.equal(bad.code, 1);
    assert.equal(bad.json.error.code, 'invalid_prize');
    assert.match(bad.stderr, /--unit-value.*--stock|--stock/);
    // A stock SQLite cannot hold as an integer is invalid_prize too, not a database error.
    for (const stock of ['99999999999999999999', '9223372036854775807']) {
      const huge = await runCli(
        [
          'prize',
          'add',
          '--campaign',
          w.campaign.id,
          '--mode',
          'live',
          '--name',
          'X',
          '--type',
          't',
          '--unit-value',
          '1',
          '--stock',
          stock,
          '--json',
        ],
        { dbPath: s.dbPath },
      );
      assert.deepEqual(
        [huge.code, huge.json.error.code, huge.json.error.message],
        [1, 'invalid_prize', '--stock must be a whole number from 0 to 9007199254740991'],
        stock,
      );
    }
    // Blank values are not 0, as Number('') would read them: refused like any other non-number.
    const blank = await runCli(
      [
        'prize',
        'add',
        '--campaign',
        w.campaign.id,
        '--mode',
        'live',
        '--name',
        'X',
        '--type',
        't',
        '--unit-value',
        '',
        '--stock',
        ' ',
        '--json',
      ],
      { dbPath: s.dbPath },
    );
    assert.deepEqual([blank.code, blank.json.error.code], [1, 'invalid_prize'], blank.stdout);
    assert.match(blank.stderr, /--unit-value.*--stock/);
    // A value typed with a line break is quoted on one line of stderr
    // (docs/operations.md#cli-reference-campaigns-keys-entries-demo: a one-line message).
    const broken = await runCli(['prize', 'list', '--campaign', w.campaign.id, '--mode', 'li\nve', '--json'], { dbPath: s.dbPath });
    assert.equal(broken.code, 1);
    assert.equal(broken.stderr.split('\n').filter(Boolean).length, 1, broken.stderr);
    assert.match(broken.stderr, /got "li\\nve"/);
  });

  test('window add --count --every prints the windows; a WINDOW entry then claims the first; award list shows it with history', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'WINDOW' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 3, 'Mug');
    const opensAt = new Date(s.clock.now() - 1000).toISOString();
    const add = await runCli(
      [
        'window',
        'add',
        '--campaign',
        w.campaign.id,
        '--mode',
        'live',
        '--prize',
        prize.id,
        '--opens-at',
        opensAt,
        '--count',
        '3',
        '--every',
        '600',
        '--json',
      ],
      { dbPath: s.dbPath },
    );
    assert.equal(add.code, 0, add.stderr);
    assert.equal(add.json.length, 3);
    assert.deepEqual(
      add.json.map((x: { opens_at: string }) => Date.parse(x.opens_at) - Date.parse(opensAt)),
      [0, 600_000, 1_200_000],
    );
    assert.ok(
      add.json.every((x: { claimed_by_entry_id: null; livemode: boolean }) => x.claimed_by_entry_id === null && x.livemode === true),
    );
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 2, awarded_beyond_pool: 0 });
    const awards = await runCli(['award', 'list', '--campaign', w.campaign.id, '--status', 'awarded', '--json'], { dbPath: s.dbPath });
    assert.equal(awards.code, 0, awards.stderr);
    assert.equal(awards.json.length, 1);
    assert.equal(awards.json[0].entry_id, id);
    assert.equal(awards.json[0].source, 'window');
    assert.equal(awards.json[0].window_id, add.json[0].id);
    assert.equal(awards.json[0].prize_name, 'Mug');
    assert.deepEqual(
      awards.json[0].history.map((h: { to_status: string; actor: string }) => [h.to_status, h.actor]),
      [['awarded', 'system']],
    );
    // Filters (same domain function the command calls; the CLI process costs ~0.5 s a call).
    assert.deepEqual(listOperatorAwards(s.ctx, { campaignId: w.campaign.id, status: 'revoked' }), []);
    assert.equal(listOperatorAwards(s.ctx, { campaignId: w.campaign.id, mode: 'test' }).length, 0);
    assert.throws(() => listOperatorAwards(s.ctx, { campaignId: w.campaign.id, status: 'won' }), { code: 'invalid_option' });
    // The operator may take a WINDOW win back (the API may not): unit returned, actor `cli`.
    const revoked = await runCli(['award', 'revoke', id, '--reason', 'winner was a store employee', '--json'], { dbPath: s.dbPath });
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.deepEqual(revoked.json, { entry_id: id, won: true, prize_definition_id: prize.id, status: 'revoked' });
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 3, awarded_beyond_pool: 0 });
    assert.deepEqual(
      listOperatorAwards(s.ctx, { campaignId: w.campaign.id })[0]
        .history.map((h) => [h.to_status, h.actor, h.reason])
        .at(-1),
      ['revoked', 'cli', 'winner was a store employee'],
    );
    const text = await runCli(['window', 'list', '--campaign', w.campaign.id], { dbPath: s.dbPath });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`${add.json[0].id}\\s+live\\s+${prize.id}\\s+\\S+\\s+${id}`));
  });

  test('window add: a window past 9999-12-31 (a huge --every, or --opens-at, --until at the end of 9999), before year 0 or without a zone is refused as invalid_window, not a crash', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'WINDOW' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 3, 'Mug');
    const base = ['window', 'add', '--campaign', w.campaign.id, '--mode', 'live', '--prize', prize.id, '--json'];
    const cases: Array<[string[], string]> = [
      [
        ['--opens-at', '2026-12-01T00:00:00Z', '--count', '2', '--every', '99999999999999'],
        '--every 99999999999999 puts the last of 2 windows after 9999-12-31T23:59:59.999Z, the latest a window can open',
      ],
      [
        ['--opens-at', '9999-12-31T00:00:00Z', '--count', '2', '--every', '86400'],
        '--every 86400 puts the last of 2 windows after 9999-12-31T23:59:59.999Z, the latest a window can open',
      ],
      [['--opens-at', '9999-12-31T23:00:00-03:00'], '--opens-at must be no later than 9999-12-31T23:59:59.999Z'],
      [
        ['--opens-at', '9999-12-31T00:00:00Z', '--count', '2', '--until', '9999-12-31T23:00:00-03:00'],
        '--until must be no later than 9999-12-31T23:59:59.999Z',
      ],
      // Without a zone the machine's would be used: refused, like a campaign date.
      [
        ['--opens-at', '2026-12-01T00:00:00'],
        '--opens-at must be an ISO 8601 date-time with its zone (Z or ±hh:mm), got "2026-12-01T00:00:00"',
      ],
      [
        ['--opens-at', '2026-12-01T00:00:00Z', '--count', '2', '--until', '2026-12-02'],
        '--until must be an ISO 8601 date-time with its zone (Z or ±hh:mm), got "2026-12-02"',
      ],
      [['--opens-at', '0000-01-01T00:30:00+01:00'], '--opens-at must be no earlier than 0000-01-01T00:00:00.000Z'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli([...base, ...args], { dbPath: s.dbPath })));
    results.forEach((res, i) => {
      assert.equal(res.code, 1, cases[i][0].join(' '));
      assert.deepEqual(res.json, { error: { code: 'invalid_window', message: cases[i][1] } });
      assert.equal(res.stderr, `ces: ${cases[i][1]}\n`);
    });
    // The last second of 9999 is still a time a window can open at.
    const latest = await runCli([...base, '--opens-at', '9999-12-31T22:00:00Z', '--count', '2', '--every', '3600'], { dbPath: s.dbPath });
    assert.equal(latest.code, 0, latest.stderr);
    assert.deepEqual(
      latest.json.map((x: { opens_at: string }) => x.opens_at),
      ['9999-12-31T22:00:00.000Z', '9999-12-31T23:00:00.000Z'],
    );
  });

  test('entries show includes the mechanics outcome, the award with its history and the lucky numbers', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'auto', luckyQuantity: 2 });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 3, 'Bike');
    const id = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prize.id } });
    await settle(s);
    await s.request('POST', `/v1/entries/${id}/instant-prize/revoke`, {
      key: w.liveKey,
      body: { reason: 'duplicate receipt found by audit' },
    });
    const show = await runCli(['entries', 'show', id, '--json'], { dbPath: s.dbPath });
    assert.equal(show.code, 0, show.stderr);
    assert.deepEqual(
      show.json.mechanics.map((m: { mechanic_type: string; status: string }) => [m.mechanic_type, m.status]),
      [
        ['lucky_numbers', 'APPROVED'],
        ['instant_prize', 'APPROVED'],
      ],
    );
    assert.equal(show.json.lucky_numbers.length, 2);
    assert.deepEqual(show.json.award, { entry_id: id, won: true, prize_definition_id: prize.id, status: 'revoked' });
    assert.deepEqual(
      show.json.awards[0].history.map((h: { to_status: string; actor: string; reason: string }) => [h.to_status, h.actor, h.reason]),
      [
        ['pending', `api_key:${w.liveKeyId}`, 'declared at intake'],
        ['awarded', 'system', 'entry approved'],
        ['revoked', `api_key:${w.liveKeyId}`, 'duplicate receipt found by audit'],
      ],
    );
    // Its webhook events, oldest first (no webhook is configured here, so each was skipped).
    assert.deepEqual(
      show.json.deliveries.map((d: { event_type: string; entry_id: string; status: string; last_error: string }) => [
        d.event_type,
        d.entry_id,
        d.status,
        d.last_error,
      ]),
      [
        ['entry.received', id, 'skipped', 'no webhook configuration'],
        ['entry.completed', id, 'skipped', 'no webhook configuration'],
        ['entry.evaluated', id, 'skipped', 'no webhook configuration'],
      ],
    );
  });
});
