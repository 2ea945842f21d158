// GET /metrics (Prometheus text format 0.0.4) and GET /healthz through the real server: the output
// parses strictly, counters move with traffic and deliveries, labels use route patterns, the token
// setting turns the endpoint open, protected or off; health reports the database, the tick and
// the backlog, and turns 503 when the tick stalls or the database is gone.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { statSync } from 'node:fs';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { countEntriesByStatus } from '../../src/metrics/metrics.repo.ts';
import { HealthStruct } from '../../src/openapi/schemas.ts';
import { assert as assertStruct } from 'superstruct';
import { configureWebhook, entryBody, makeCampaign, runCli, startTestServer, type TestServer } from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';
import { expectedVersions } from '../support/versions.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  const t = await startTestServer({ env });
  cleanups.push(() => t.close());
  return t;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
  /** Value of the one sample with this name and exactly these labels (0 when absent). */
  value(name: string, labels?: Record<string, string>): number;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * A strict parser of the text exposition format 0.0.4: every line is a comment, HELP, TYPE or a
 * sample; a family's TYPE precedes its samples and is declared once; label values are quoted with
 * \\, \" and \n escapes; values are floats or +Inf/-Inf/NaN; no duplicate series.
 */
function parseExposition(text: string): Exposition {
  assert.ok(text.endsWith('\n'), 'exposition ends with a newline');
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const seen = new Set<string>();
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
      if (!m) continue; // a plain comment
      assert.match(m[2], METRIC_NAME, `bad metric name in ${line}`);
      if (m[1] === 'TYPE') {
        assert.ok(['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(m[3]), `bad type in ${line}`);
        assert.ok(!types.has(m[2]), `TYPE of ${m[2]} declared twice`);
        types.set(m[2], m[3]);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    if (m[3] !== undefined && m[3] !== '') {
      const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\\\|\\"|\\n)*)"(,|$)/y;
      let pos = 0;
      while (pos < m[3].length) {
        re.lastIndex = pos;
        const l = re.exec(m[3]);
        assert.ok(l, `bad labels in ${line}`);
        assert.match(l[1], LABEL_NAME);
        labels[l[1]] = l[2].replace(/\\(n|"|\\)/g, (_x, c: string) => (c === 'n' ? '\n' : c));
        pos = re.lastIndex;
      }
    }
    const raw = m[4];
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : raw === 'NaN' ? NaN : Number(raw);
    assert.ok(raw === 'NaN' || !Number.isNaN(value), `bad value in ${line}`);
    const family = [...types.keys()].find(
      (f) => m[1] === f || (types.get(f) === 'histogram' && [`${f}_bucket`, `${f}_sum`, `${f}_count`].includes(m[1])),
    );
    assert.ok(family, `sample ${m[1]} has no TYPE before it`);
    const key = `${m[1]}${JSON.stringify(Object.entries(labels).sort())}`;
    assert.ok(!seen.has(key), `duplicate series ${key}`);
    seen.add(key);
    samples.push({ name: m[1], labels, value });
  }
  const same = (a: Record<string, string>, b: Record<string, string>): boolean =>
    JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
  return {
    types,
    samples,
    value: (name, labels = {}) => samples.find((s) => s.name === name && same(s.labels, labels))?.value ?? 0,
  };
}

async function scrape(t: TestServer, headers: Record<string, string> = {}): Promise<Exposition> {
  const res = await t.request('GET', '/metrics', { headers });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(res.text);
}

describe('GET /metrics', () => {
  test('parses as Prometheus text with every documented family and consistent histograms', async () => {
    const t = await server();
    await t.request('GET', '/healthz');
    const m = await scrape(t);
    assert.deepEqual(Object.fromEntries(m.types), {
      ces_http_requests_total: 'counter',
      ces_http_request_duration_seconds: 'histogram',
      ces_entries: 'gauge',
      ces_jobs_backlog: 'gauge',
      ces_jobs_retrying: 'gauge',
      ces_jobs_oldest_age_seconds: 'gauge',
      ces_outbox_backlog: 'gauge',
      ces_wal_bytes: 'gauge',
      ces_erasures_pending: 'gauge',
      ces_webhook_deliveries_in_flight: 'gauge',
      ces_webhook_endpoints_backed_off: 'gauge',
      ces_webhook_delivery_attempts_total: 'counter',
      ces_log_lines_dropped_total: 'counter',
      ces_build_info: 'gauge',
      process_resident_memory_bytes: 'gauge',
      nodejs_heap_used_bytes: 'gauge',
      process_uptime_seconds: 'gauge',
    });
    assert.ok(m.value('process_resident_memory_bytes') > 10_000_000);
    assert.ok(m.value('process_uptime_seconds') > 0);
    assert.equal(m.value('ces_log_lines_dropped_total'), 0, 'exposed at 0 while the log works (test/slow/log-pipe.test.ts for a lost one)');
    // Buckets are cumulative, ordered, and +Inf equals _count.
    const buckets = m.samples.filter((s) => s.name === 'ces_http_request_duration_seconds_bucket' && s.labels.route === '/healthz');
    assert.ok(buckets.length > 2);
    for (let i = 1; i < buckets.length; i++) {
      assert.ok(Number(buckets[i].labels.le === '+Inf' ? Infinity : buckets[i].labels.le) > Number(buckets[i - 1].labels.le));
      assert.ok(buckets[i].value >= buckets[i - 1].value);
    }
    assert.equal(buckets.at(-1)!.labels.le, '+Inf');
    assert.equal(buckets.at(-1)!.value, m.value('ces_http_request_duration_seconds_count', { route: '/healthz' }));
  });

  test('ces_build_info is 1, one series, labelled with the versions ces version --json prints', async () => {
    const t = await server();
    const m = await scrape(t);
    const info = m.samples.filter((s) => s.name === 'ces_build_info');
    const versions = expectedVersions();
    assert.deepEqual(info, [{ name: 'ces_build_info', labels: { ...versions, binary: 'false' }, value: 1 }]);
    assert.match(info[0].labels.sqlite, /^3\.\d+\.\d+$/);
    const cli = await runCli(['version', '--json'], { dbPath: t.dbPath });
    assert.deepEqual(cli.json, versions, 'the CLI and the server report the same facts');
  });

  test('counters and gauges move with requests; routes are patterns, unknown paths one "unmatched" series', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const before = await scrape(t);
    const created = await t.request('POST', '/v1/entries', { key: w.testKey, idempotencyKey: 'm-1', body: entryBody({}, 1) });
    assert.equal(created.status, 202);
    await t.request('POST', '/v1/entries', { key: w.testKey, body: entryBody({}, 2) }); // 422: no Idempotency-Key
    await t.request('GET', `/v1/entries/${created.body.entry_id}`, { key: w.testKey });
    await t.request('GET', '/v1/entries/00000000-0000-4000-8000-000000000000', { key: w.testKey });
    for (let i = 0; i < 3; i++) await t.request('GET', `/no/such/path/${i}`);
    const after = await scrape(t);
    const delta = (labels: Record<string, string>): number =>
      after.value('ces_http_requests_total', labels) - before.value('ces_http_requests_total', labels);
    assert.equal(delta({ route: '/v1/entries', method: 'POST', status: '202' }), 1);
    assert.equal(delta({ route: '/v1/entries', method: 'POST', status: '422' }), 1);
    assert.equal(delta({ route: '/v1/entries/:entry_id', method: 'GET', status: '200' }), 1);
    assert.equal(delta({ route: '/v1/entries/:entry_id', method: 'GET', status: '404' }), 1);
    assert.equal(delta({ route: 'unmatched', method: 'GET', status: '404' }), 3);
    assert.ok(
      !after.samples.some((s) => s.labels.route?.includes('00000000') || s.labels.route?.startsWith('/no/')),
      'raw paths never become labels',
    );
    assert.equal(
      after.value('ces_http_request_duration_seconds_count', { route: '/v1/entries' }) -
        before.value('ces_http_request_duration_seconds_count', { route: '/v1/entries' }),
      2,
    );
    assert.equal(
      after.value('ces_entries', { status: 'PENDING', livemode: 'false' }) -
        before.value('ces_entries', { status: 'PENDING', livemode: 'false' }),
      1,
    );
    assert.equal(after.value('ces_jobs_backlog') - before.value('ces_jobs_backlog'), 1, 'the entry queued one process job');
    // The scrape before is itself counted by the scrape after.
    assert.equal(delta({ route: '/metrics', method: 'GET', status: '200' }), 1);

    await t.server.tick();
    const processed = await scrape(t);
    assert.equal(processed.value('ces_entries', { status: 'PENDING', livemode: 'false' }), 0);
    assert.equal(processed.value('ces_entries', { status: 'APPROVED', livemode: 'false' }), 1);
  });

  test('delivery attempts are counted by result and the outbox backlog follows them', async () => {
    let answer = 500;
    const receiver = await startReceiver({ respond: () => answer });
    cleanups.push(() => receiver.close());
    const t = await server({ CES_WEBHOOK_RETRY_SCHEDULE: '1' });
    const w = makeCampaign(t.ctx);
    receiver.setSecret(await configureWebhook(t, w.liveKey, receiver.url));
    assert.equal((await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'd-1', body: entryBody({}, 3) })).status, 202);
    const queued = await scrape(t);
    assert.equal(queued.value('ces_outbox_backlog', { status: 'pending' }), 1);
    assert.equal(queued.value('ces_webhook_delivery_attempts_total', { result: 'http_error' }), 0);

    await t.server.tick(); // processes the entry (queues entry.completed and entry.evaluated) and attempts deliveries, all answered 500
    const failed = await scrape(t);
    const firstErrors = failed.value('ces_webhook_delivery_attempts_total', { result: 'http_error' });
    assert.ok(firstErrors >= 1, 'a 500 counts as http_error');
    assert.equal(failed.value('ces_webhook_delivery_attempts_total', { result: 'success' }), 0);
    assert.equal(receiver.requests.length, firstErrors);

    answer = 200;
    t.clock.advance(1_000);
    while ((await t.server.tick()).deliveriesAttempted > 0) t.clock.advance(1_000);
    const delivered = await scrape(t);
    assert.equal(
      delivered.value('ces_webhook_delivery_attempts_total', { result: 'success' }),
      receiver.requests.filter((r) => r.status === 200).length,
    );
    assert.ok(delivered.value('ces_webhook_delivery_attempts_total', { result: 'success' }) >= 1);
    assert.equal(delivered.value('ces_outbox_backlog', { status: 'pending' }), 0);
    assert.equal(delivered.value('ces_webhook_delivery_attempts_total', { result: 'http_error' }), firstErrors, 'counters never go back');
  });

  test('ces_entries is read from trigger-kept counts, which migration 2 seeds from existing entries', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: `c-${i}`, body: entryBody({}, 10 + i) })).status,
        202,
      );
    await t.server.tick();
    assert.equal((await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'c-9', body: entryBody({}, 19) })).status, 202);
    const truth = t.ctx.db
      .prepare(`SELECT status, livemode, COUNT(*) AS n FROM entries GROUP BY status, livemode ORDER BY status, livemode`)
      .all();
    assert.deepEqual(countEntriesByStatus(t.ctx.db), truth);
    assert.deepEqual(truth, [
      { status: 'APPROVED', livemode: 1, n: 3 },
      { status: 'PENDING', livemode: 1, n: 1 },
    ]);
    // A database from before migration 2: its counts are built from the rows already there. Only
    // migration 2 is run again (the later ones changed other tables, which stay as they are).
    await t.server.close();
    const db = openDatabase(t.dbPath);
    db.exec(
      `DROP TRIGGER entry_counts_insert; DROP TRIGGER entry_counts_status; DROP TRIGGER entry_counts_delete; DROP TABLE entry_counts; PRAGMA user_version = 1;`,
    );
    migrate(db, 2);
    assert.deepEqual(countEntriesByStatus(db), truth);
    db.close();
  });

  test('CES_METRICS_TOKEN: empty = open, a value = Bearer required (401 problem+json), "off" = 404', async () => {
    const open = await server({ CES_METRICS_TOKEN: '' });
    assert.equal((await open.request('GET', '/metrics')).status, 200);

    const guarded = await server({ CES_METRICS_TOKEN: 's3cret-token' });
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { authorization: 's3cret-token' }];
    for (const headers of attempts) {
      const res = await guarded.request('GET', '/metrics', { headers });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.code, 'invalid_metrics_token');
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    }
    await scrape(guarded, { authorization: 'Bearer s3cret-token' });
    // An API key is not the metrics token.
    const w = makeCampaign(guarded.ctx);
    assert.equal((await guarded.request('GET', '/metrics', { key: w.liveKey })).status, 401);

    const off = await server({ CES_METRICS_TOKEN: 'off' });
    const res = await off.request('GET', '/metrics');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
  });
});

describe('GET /healthz', () => {
  test('200 with database, tick and backlog; no API key needed', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    await t.request('POST', '/v1/entries', { key: w.testKey, idempotencyKey: 'h-1', body: entryBody({}, 4) });
    const res = await t.request('GET', '/healthz');
    assert.equal(res.status, 200);
    assertStruct(res.body, HealthStruct);
    assert.deepEqual(res.body, {
      status: 'ok',
      db: 'ok',
      tick: { last_tick_at: null, alive: true, interval_ms: 200, last_error: null },
      backlog: { jobs: 1, deliveries_pending: 0, deliveries_failed: 0 },
      // The default CES_CHECKPOINTS=internal never raises the WAL alarm (test/slow/checkpoints-external.test.ts).
      wal: { bytes: statSync(`${t.dbPath}-wal`).size, alarm_bytes: 512 * 1024 * 1024, over_alarm: false },
      // No anonymisation waits for a reader to end (docs/operations.md#lgpd-data-subject-requests-ces-participant).
      erasures: { pending: 0, oldest_anonymized_at: null },
      // A file this server created itself: nothing to check (test/integrity.test.ts checks the others).
      integrity: { state: 'not_needed', reason: null },
      versions: expectedVersions(),
    });
    await t.server.tick();
    const ticked = await t.request('GET', '/healthz');
    assert.equal(ticked.body.tick.last_tick_at, new Date(t.clock.now()).toISOString());
    assert.equal(ticked.body.backlog.jobs, 0);
  });

  test('503 once the tick has not run for more than 10 intervals, 200 again after it runs', async () => {
    const t = await server({ CES_TICK_MS: '1000' });
    await t.server.tick();
    t.clock.advance(10_000);
    assert.equal((await t.request('GET', '/healthz')).status, 200, 'exactly 10 intervals is still alive');
    t.clock.advance(1);
    const stale = await t.request('GET', '/healthz');
    assert.equal(stale.status, 503);
    assert.equal(stale.body.status, 'unavailable');
    assert.equal(stale.body.tick.alive, false);
    assert.equal(stale.body.db, 'ok');
    await t.server.tick();
    assert.equal((await t.request('GET', '/healthz')).status, 200);
  });

  test('jobs that keep failing show by kind, with the age of the oldest job, and clear once they succeed', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const idle = await scrape(t);
    assert.equal(idle.types.get('ces_jobs_retrying'), 'gauge');
    assert.equal(idle.types.get('ces_jobs_oldest_age_seconds'), 'gauge');
    assert.deepEqual(
      idle.samples.filter((s) => s.name === 'ces_jobs_retrying').map((s) => [s.labels.kind, s.value]),
      [
        ['process', 0],
        ['evaluate', 0],
      ],
    );
    assert.equal(idle.value('ces_jobs_oldest_age_seconds'), 0, 'no job');

    assert.equal((await t.request('POST', '/v1/entries', { key: w.testKey, idempotencyKey: 'j-1', body: entryBody({}, 21) })).status, 202);
    t.clock.advance(90_000);
    const waiting = await scrape(t);
    assert.equal(waiting.value('ces_jobs_oldest_age_seconds'), 90, 'queued 90 s ago by the service clock');
    assert.equal(waiting.value('ces_jobs_retrying', { kind: 'process' }), 0, 'waiting is not failing');

    // Processing fails: the process job is put back with its error.
    t.ctx.db.exec(
      "CREATE TRIGGER break_processing BEFORE UPDATE OF status ON entries BEGIN SELECT RAISE(ABORT, 'injected processing failure'); END",
    );
    await t.server.tick();
    const failing = await scrape(t);
    assert.equal(failing.value('ces_jobs_retrying', { kind: 'process' }), 1);
    assert.equal(failing.value('ces_jobs_retrying', { kind: 'evaluate' }), 0);
    assert.equal(failing.value('ces_jobs_oldest_age_seconds'), 90, 'a retried job keeps the age of its first queueing');

    // Processing works again, evaluating does not: the entry is approved and an evaluate job retries.
    t.ctx.db.exec('DROP TRIGGER break_processing');
    t.ctx.db.exec(
      "CREATE TRIGGER break_evaluation BEFORE UPDATE OF mechanics ON entries BEGIN SELECT RAISE(ABORT, 'injected evaluation failure'); END",
    );
    t.clock.advance(3_600_000);
    await t.server.tick();
    const evaluating = await scrape(t);
    assert.equal(evaluating.value('ces_entries', { status: 'APPROVED', livemode: 'false' }), 1);
    assert.equal(evaluating.value('ces_jobs_retrying', { kind: 'process' }), 0);
    assert.equal(evaluating.value('ces_jobs_retrying', { kind: 'evaluate' }), 1);
    assert.equal(evaluating.value('ces_jobs_backlog'), 1);
    assert.equal(evaluating.value('ces_jobs_oldest_age_seconds'), 0, 'the evaluate job was queued just now');
    t.clock.advance(30_000);
    assert.equal((await scrape(t)).value('ces_jobs_oldest_age_seconds'), 30);

    t.ctx.db.exec('DROP TRIGGER break_evaluation');
    t.clock.advance(3_600_000);
    await t.server.tick();
    const done = await scrape(t);
    assert.equal(done.value('ces_jobs_retrying', { kind: 'evaluate' }), 0);
    assert.equal(done.value('ces_jobs_backlog'), 0);
    assert.equal(done.value('ces_jobs_oldest_age_seconds'), 0);
  });

  test('a tick that fails does not count as a run: its error is shown, and 503 once no tick completed for 10 intervals', async () => {
    const t = await server({ CES_TICK_MS: '1000' });
    const w = makeCampaign(t.ctx);
    await t.server.tick();
    await t.request('POST', '/v1/entries', { key: w.testKey, idempotencyKey: 'h-fail', body: entryBody({}, 5) });
    // The job claim is refused from now on, as a broken database would refuse it.
    t.ctx.db.exec("CREATE TRIGGER break_claims BEFORE UPDATE ON jobs BEGIN SELECT RAISE(ABORT, 'injected claim failure'); END");
    const lastGood = new Date(t.clock.now()).toISOString();
    t.clock.advance(5_000);
    await assert.rejects(t.server.tick(), /injected claim failure/);
    const failing = await t.request('GET', '/healthz');
    assert.equal(failing.status, 200, 'within 10 intervals of the last completed tick');
    assertStruct(failing.body, HealthStruct);
    assert.deepEqual(failing.body.tick, { last_tick_at: lastGood, alive: true, interval_ms: 1000, last_error: 'injected claim failure' });
    t.clock.advance(5_001);
    await assert.rejects(t.server.tick(), /injected claim failure/);
    const dead = await t.request('GET', '/healthz');
    assert.equal(dead.status, 503);
    assert.equal(dead.body.tick.alive, false);
    assert.equal(dead.body.tick.last_tick_at, lastGood);
    t.ctx.db.exec('DROP TRIGGER break_claims');
    await t.server.tick();
    const healed = await t.request('GET', '/healthz');
    assert.equal(healed.status, 200);
    assert.equal(healed.body.tick.last_error, null);
  });

  test('503 with db "error" when the database does not answer; /metrics answers 503 too', async () => {
    const t = await server();
    t.ctx.db.close();
    const res = await t.request('GET', '/healthz');
    assert.equal(res.status, 503);
    assert.equal(res.body.db, 'error');
    assert.equal(res.body.backlog, null);
    assert.deepEqual(res.body.versions, expectedVersions(), 'a failing server still says what it runs on');
    const metrics = await t.request('GET', '/metrics');
    assert.equal(metrics.status, 503);
    assert.equal(metrics.body.code, 'service_unavailable');
  });
});
