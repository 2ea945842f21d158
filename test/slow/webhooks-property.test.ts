// Property test (fast-check) of the webhook outbox and its delivery state machine: random sequences
// of entries submitted (live, test mode, failing fast) and processed (events queued), delivery
// rounds by the hand-run tick and by the server's timer pool against a real local HTTPS receiver
// answering scripted statuses (2xx, 3xx, 4xx, 5xx, a hang past CES_WEBHOOK_TIMEOUT_MS) or a dead
// port (connection refused), clock moves (and steps back), PATCH /v1/webhook (create, pause,
// reactivate, move the URL), `ces webhook rotate-secret`, `ces webhook redeliver` of one delivery
// (of every status, and an unknown id) and `--campaign --failed`, `ces webhook test` pings, a
// restart (the file reopened, leases released as `ces serve` does at start-up) and a crash between
// claiming deliveries (maybe sending them) and recording their outcome. Some delivery rounds hold
// the receiver's answers while one of those operations runs, so it lands with attempts in flight.
// The CLI's operations run on a second connection to the same file, as the `ces` process does.
// At every request the receiver gets:
//   - its campaign's configuration exists and is active, at the URL in force, and nothing is sent
//     for a skipped, delivered or failed delivery (docs/api.md: Paused or missing configuration;
//     docs/api.md#delivery-retries-and-failure);
//   - the Standard Webhooks signature verifies with the secret in force at send time, the
// timestamp is the send time, and webhook-id is the envelope id
// (docs/api.md#verifying-a-signature-node,
//     Event envelope; docs/api.md: rotate-secret);
//   - the body is the stored payload byte for byte, an envelope of exactly {id, event_type,
//     created_at, livemode, campaign_id, data} (docs/api.md#events);
//   - a 2xx seen by ces is the event's only one unless an operator redelivered it or a crash lost
//     the record of an earlier one (docs/architecture.md: Delivery semantics, at least once).
// After every step, per delivery (docs/api.md: Delivery, retries and failure; docs/operations.md: Operator commands):
//   - delivered: delivered_at set, nothing scheduled, the last attempt a 2xx; failed: the whole
//     schedule spent (a ping: its one attempt), the last attempt not 2xx; pending: a next attempt,
//     no delivered_at; skipped: never attempted; no lease left between steps;
//   - last_status_code / last_error are the last attempt's; `attempts` counts the attempts since the
//     last redeliver (plus claims a crash interrupted);
//   - a failed attempt that leaves it pending schedules the next one CES_WEBHOOK_RETRY_SCHEDULE[n-1]
//     seconds later;
//   - a held delivery (next_attempt_at = HELD_UNTIL_REACTIVATED) belongs to a paused campaign, and
//     reactivation releases them all;
//   - the events of one entry are first attempted in the order they were queued (docs/architecture.md: Delivery semantics, Order);
//   - redeliver re-queues a failed or delivered one (pending, attempts 0, delivered_at cleared, due
//     now or held while paused) and refuses pending (409 delivery_pending), skipped (409
//     delivery_skipped) and unknown ids (404); a refusal (4xx) changes nothing;
//   - a restart loses nothing (only leases released).
// At the end every campaign is switched on at a good URL and drained: no delivery is left pending,
// and every delivered one reached the receiver with a 2xx (nothing lost).
// Environment: CES_PROPERTY_RUNS (default 60) runs; CES_PROPERTY_REPLAY='<a printed Counterexample>'
// replays one case with a trace of each step.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { findCampaignByIdCached } from '../../src/campaigns/campaigns.repo.ts';
import { createCampaign, type Campaign } from '../../src/campaigns/campaigns.ts';
import { ManualClock, nowIso, toIso } from '../../src/kernel/clock.ts';
import { loadConfig, type Config } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { writeEntry } from '../../src/intake/write-stage.ts';
import { parseSubmission } from '../../src/entries/submission.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { issueKey, type Caller } from '../../src/keys/keys.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { drainJobs, emptyJobStats } from '../../src/pipeline/jobs.ts';
import { releaseStaleLeases } from '../../src/pipeline/tick.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { patchWebhookConfig, rotateWebhookSecret } from '../../src/webhooks/webhook-config.ts';
import { redeliver, redeliverFailed } from '../../src/webhooks/deliveries.ts';
import { sendClaimed } from '../../src/webhooks/attempt.ts';
import { emptyDeliveryStats } from '../../src/webhooks/outcomes.ts';
import { createDeliveryPool, drainDeliveries } from '../../src/webhooks/sender.ts';
import {
  claimDeliveries,
  HELD_UNTIL_REACTIVATED,
  listWebhookCampaignIds,
  nextDeliveryDueAt,
  type DeliveryRow,
} from '../../src/webhooks/outbox.repo.ts';
import { sendTestPing } from '../../src/webhooks/ping.ts';
import { entryBody, OPERATOR } from '../support/harness.ts';
import { startReceiver, type Receiver, type ReceivedRequest, type RespondResult } from '../support/receiver.ts';

const SCHEDULE = [5, 60, 300];
/** Timeout of an attempt; a `slow` answer comes after SLOW_MS, so it times out. */
const TIMEOUT_MS = 80;
const SLOW_MS = 250;
/** While answers are held (an operation lands with attempts in flight), no attempt may time out. */
const HELD_TIMEOUT_MS = 10_000;

type Answer = 200 | 204 | 307 | 400 | 410 | 500 | 503 | 'slow';
type Url = 'a' | 'b' | 'dead';
type CampaignIx = 0 | 1;
/** What may land while attempts are in flight. */
type Nested =
  | { kind: 'pause'; c: CampaignIx }
  | { kind: 'reactivate'; c: CampaignIx }
  | { kind: 'set_url'; c: CampaignIx; url: Url }
  | { kind: 'rotate'; c: CampaignIx }
  | { kind: 'redeliver'; which: Which; n: number }
  | { kind: 'redeliver_failed'; c: CampaignIx }
  | { kind: 'process' }
  | { kind: 'submit'; c: CampaignIx; live: boolean; failFast: boolean };
type Which = 'failed' | 'delivered' | 'pending' | 'skipped' | 'unknown';

type Op =
  | Nested
  | { kind: 'configure'; c: CampaignIx; url: Url; active: boolean }
  | { kind: 'deliver'; answers: Answer[]; pool: boolean }
  | { kind: 'deliver_during'; answers: Answer[]; during: Nested }
  | { kind: 'ping'; c: CampaignIx; live: boolean; answer: Answer }
  | { kind: 'ping_killed'; c: CampaignIx }
  | { kind: 'advance'; seconds: number }
  | { kind: 'clock_back'; seconds: number }
  | { kind: 'restart' }
  | { kind: 'crash'; send: boolean; answer: Answer };

const campaignArb = fc.constantFrom<CampaignIx>(0, 0, 1);
const urlArb = fc.constantFrom<Url>('a', 'a', 'b', 'dead');
const answerArb = fc.constantFrom<Answer>(200, 200, 200, 204, 307, 400, 410, 500, 503, 503, 'slow');
const answersArb = fc.array(answerArb, { minLength: 1, maxLength: 3 });
const whichArb = fc.constantFrom<Which>('failed', 'failed', 'delivered', 'delivered', 'pending', 'skipped', 'unknown');

const nestedArb: fc.Arbitrary<Nested> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pause' as const), c: campaignArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reactivate' as const), c: campaignArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('set_url' as const), c: campaignArb, url: urlArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rotate' as const), c: campaignArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), which: whichArb, n: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeliver_failed' as const), c: campaignArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('process' as const) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      c: campaignArb,
      live: fc.constantFrom(true, true, false),
      failFast: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
    }),
  },
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: nestedArb },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('configure' as const),
      c: campaignArb,
      url: urlArb,
      active: fc.constantFrom(true, true, false),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('deliver' as const), answers: answersArb, pool: fc.constantFrom(false, false, true) }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('deliver_during' as const),
      answers: answersArb.map((a) => a.map((x) => (x === 'slow' ? 503 : x))),
      during: nestedArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ping' as const), c: campaignArb, live: fc.boolean(), answer: answerArb }) },
  // `ces webhook test` killed (Ctrl-C) while its endpoint hangs: the ping stays leased, then failed.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ping_killed' as const), c: campaignArb }) },
  // The schedule's own waits, and more.
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.constantFrom(1, 5, 5, 60, 60, 300, 300, 3600) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clock_back' as const), seconds: fc.constantFrom(1, 5, 60, 600) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('crash' as const), send: fc.boolean(), answer: answerArb.filter((a) => a !== 'slow') }),
  },
);

/** A campaign's configuration as the model believes it is. */
interface CampaignModel {
  id: string;
  live: Caller;
  test: Caller;
  configured: boolean;
  active: boolean;
  url: Url;
  secret: string | null;
}

interface DeliveryModel {
  /** Attempt rows when it was last re-queued by an operator. */
  base: number;
  /** Claims a crash interrupted since then (counted in `attempts`, never recorded as attempts). */
  crashed: number;
  redelivered: number;
  /** 2xx answers a crash kept ces from recording. */
  lostSuccesses: number;
  /**
   * A ping sent (by a killed `ces webhook test`, or claimed by a crashed server) whose outcome was
   * never recorded: its lease is kept until it expires, then it is settled failed, not sent again.
   */
  interruptedPing?: boolean;
  /** Order of its first claim, for the per-entry order check. */
  firstClaim?: number;
}

interface World {
  dir: string;
  path: string;
  clock: ManualClock;
  config: Readonly<Config>;
  ctx: Ctx;
  cli: Ctx;
  seed: number;
  campaigns: [CampaignModel, CampaignModel];
  deliveries: Map<string, DeliveryModel>;
  claims: number;
  /** 2xx answers ces saw, per event id. */
  successes: Map<string, number>;
  /** Event ids answered 2xx in the current delivery round (see forgetUnreadSuccesses). */
  roundSuccesses: string[];
  /** Receiver-side violations, asserted after the step. */
  violations: string[];
  answers: Answer[];
  served: number;
  /** While answers are held: the configuration in force when the held attempts were sent. */
  sentWith: CampaignModel[] | null;
  hold: Promise<void> | null;
  arrived: number;
  participant: number;
  restarts: number;
  /** The job drain a `process` started (awaited before the step ends). */
  pendingJobs?: Promise<void>;
}

// One receiver for every run; each run's world sets the answers and the checks it applies.
let receiver: Receiver;
let deadUrl: string;
let current: World | null = null;

before(async () => {
  receiver = await startReceiver({ respond: (req) => (current ? onRequest(current, req) : 500) });
  deadUrl = `https://127.0.0.1:${await closedPort()}/hooks`;
});
after(() => receiver.close());

/** A local port with nothing listening: connection refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function urlOf(c: number, url: Url): string {
  return url === 'dead' ? deadUrl : `${receiver.url}/c${c}/${url}`;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function makeCtx(w: Pick<World, 'path' | 'clock' | 'config'>, seed: number): Ctx {
  return { db: openDatabase(w.path), clock: w.clock, random: seededRandom(seed), config: w.config, log: createSilentLogger() };
}

function buildWorld(seed: number): World {
  const dir = mkdtempSync(join(tmpdir(), 'ces-outbox-prop-'));
  const path = join(dir, 'ces.db');
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const config = loadConfig(
    { db: path },
    { CES_ALLOW_PRIVATE_WEBHOOKS: '1', CES_WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','), CES_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    false,
  );
  const ctx = makeCtx({ path, clock, config }, seed * 1_000);
  const cli = makeCtx({ path, clock, config }, seed * 1_000 + 1);
  const campaign = (): CampaignModel => {
    const id = createCampaign(ctx, { name: 'outbox property' }, OPERATOR).id;
    const key = (mode: 'live' | 'test'): Caller => ({
      keyId: issueKey(ctx, { campaignId: id, mode }, OPERATOR).id,
      campaignId: id,
      mode,
      livemode: mode === 'live',
    });
    return { id, live: key('live'), test: key('test'), configured: false, active: false, url: 'a', secret: null };
  };
  const w: World = {
    dir,
    path,
    clock,
    config,
    ctx,
    cli,
    seed,
    campaigns: [campaign(), campaign()],
    deliveries: new Map(),
    claims: 0,
    successes: new Map(),
    roundSuccesses: [],
    violations: [],
    answers: [200],
    served: 0,
    sentWith: null,
    hold: null,
    arrived: 0,
    participant: 0,
    restarts: 0,
  };
  // Campaign 0 starts configured and active; campaign 1 has no configuration until a `configure`.
  configure(w, 0, 'a', true);
  return w;
}

function closeWorld(w: World): void {
  for (const db of [w.ctx.db, w.cli.db]) if (db.open) db.close();
  rmSync(w.dir, { recursive: true, force: true });
}

function model(w: World, id: string): DeliveryModel {
  let m = w.deliveries.get(id);
  if (!m) {
    m = { base: 0, crashed: 0, redelivered: 0, lostSuccesses: 0 };
    w.deliveries.set(id, m);
  }
  return m;
}

/** A row of webhook_deliveries, every column (SELECT *). */
type DeliveryDbRow = DeliveryRow;
interface AttemptDbRow {
  id: number;
  delivery_id: string;
  attempted_at: string;
  url: string | null;
  status_code: number | null;
  error: string | null;
}

const allDeliveries = (w: World): DeliveryDbRow[] =>
  w.ctx.db.prepare('SELECT * FROM webhook_deliveries ORDER BY seq').all() as DeliveryDbRow[];
const attemptsOf = (w: World): Map<string, AttemptDbRow[]> => {
  const out = new Map<string, AttemptDbRow[]>();
  for (const a of w.ctx.db
    .prepare('SELECT id, delivery_id, attempted_at, url, status_code, error FROM webhook_attempts ORDER BY id')
    .all() as AttemptDbRow[]) {
    out.set(a.delivery_id, [...(out.get(a.delivery_id) ?? []), a]);
  }
  return out;
};
const is2xx = (code: number | null): boolean => code !== null && code >= 200 && code <= 299;

/**
 * The receiver's answer, and the checks of what ces sent: to an active configuration's URL, signed
 * with its secret at send time, the stored payload of a pending delivery, as the envelope of
 * docs/api.md#events.
 */
async function onRequest(w: World, req: ReceivedRequest): Promise<RespondResult> {
  const fail = (message: string): void => void w.violations.push(`${message} (request ${JSON.stringify(req.headers['webhook-id'])})`);
  const id = req.headers['webhook-id'];
  const row = w.ctx.db.open
    ? (w.ctx.db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryDbRow | undefined)
    : undefined;
  const config = (w.sentWith ?? w.campaigns).find((c) => c.id === req.json?.campaign_id);
  if (!row) fail('a request for no delivery');
  else {
    if (row.status !== 'pending') fail(`a request for a ${row.status} delivery`);
    // docs/operations.md, Webhook debugging: a ping is never retried, nor sent again once its outcome was lost.
    if (w.deliveries.get(id)?.interruptedPing) fail('an interrupted ping sent again');
    if (req.body !== row.payload) fail('the body is not the stored payload');
  }
  if (!config) fail('a request for an unknown campaign');
  else {
    if (!config.configured || !config.active) fail("a request while its campaign's delivery is paused or unconfigured");
    const ix = w.campaigns.findIndex((c) => c.id === config.id);
    if (new URL(urlOf(ix, config.url)).pathname !== req.path) fail(`sent to ${req.path}, not the configured ${config.url}`);
    if (config.secret) {
      const ts = Number(req.headers['webhook-timestamp']);
      const expected = new Webhook(config.secret).sign(id, new Date(ts * 1000), req.body);
      if (!req.headers['webhook-signature']?.split(' ').includes(expected)) fail('the signature does not verify with the secret in force');
      if (ts !== Math.floor(w.clock.now() / 1000)) fail(`webhook-timestamp ${ts} is not the send time`);
    }
  }
  const body = req.json as Record<string, unknown> | undefined;
  if (
    !body ||
    JSON.stringify(Object.keys(body).sort()) !== JSON.stringify(['campaign_id', 'created_at', 'data', 'event_type', 'id', 'livemode'])
  )
    fail(`envelope keys ${body && Object.keys(body)}`);
  else if (
    body.id !== id ||
    typeof body.livemode !== 'boolean' ||
    !['entry.received', 'entry.completed', 'entry.evaluated', 'ping'].includes(body.event_type as string)
  )
    fail('envelope id/livemode/event_type');
  const answer = w.answers[w.served++ % w.answers.length];
  w.arrived++;
  if (w.hold) await w.hold;
  if (answer === 'slow') return { status: 200, delayMs: SLOW_MS };
  if (is2xx(answer)) {
    w.successes.set(id, (w.successes.get(id) ?? 0) + 1);
    w.roundSuccesses.push(id);
  }
  return answer;
}

function configure(w: World, c: CampaignIx, url: Url | undefined, active: boolean | undefined): void {
  const m = w.campaigns[c];
  const result = patchWebhookConfig(
    w.ctx,
    m.id,
    { endpointUrl: url === undefined ? undefined : urlOf(c, url), isActive: active },
    OPERATOR,
  );
  if (result.created) {
    m.configured = true;
    m.secret = result.hmac_secret!;
  }
  if (url !== undefined) m.url = url;
  if (active !== undefined) m.active = active;
  assert.equal(result.config.is_active, m.active);
  if (m.active) {
    // docs/api.md: held deliveries "go out in their original order as soon as is_active is true again".
    const held = w.ctx.db
      .prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE campaign_id = ? AND next_attempt_at = ?')
      .get(m.id, HELD_UNTIL_REACTIVATED) as { n: number };
    assert.equal(held.n, 0, 'a delivery still held after reactivation');
  }
}

function submit(w: World, c: CampaignIx, live: boolean, failFast: boolean): void {
  const i = ++w.participant;
  const m = w.campaigns[c];
  // Consent given now, on the world's clock: after a clock_back a fixed time would be "from the
  // future", which intake refuses (docs/api.md#errors, `in_future`).
  const consent = { granted_at: new Date(w.clock.now()).toISOString() };
  const patch: Parameters<typeof entryBody>[0] = failFast
    ? { consent, evidence: { access_key: makeAccessKey({ yymm: '2611', number: String(100000000 + i).slice(-9), model: '99' }) } }
    : { consent };
  const submission = parseSubmission(entryBody(patch, i), w.clock.now());
  const campaign = findCampaignByIdCached(w.ctx.db, m.id)! as Campaign;
  w.ctx.db.transaction(() => writeEntry(w.ctx, campaign, live ? m.live : m.test, `k-${i}`, submission)).immediate();
}

/** The deliveries an operator would pick for `which` (or a made-up id). */
function pickDelivery(w: World, which: Which, n: number): string | undefined {
  if (which === 'unknown') return `evt_${'0'.repeat(31)}${n % 10}`;
  const ids = (w.ctx.db.prepare('SELECT id FROM webhook_deliveries WHERE status = ? ORDER BY seq').all(which) as Array<{ id: string }>).map(
    (r) => r.id,
  );
  return ids.length === 0 ? undefined : ids[n % ids.length];
}

function requeued(w: World, id: string): void {
  const m = model(w, id);
  m.base = (attemptsOf(w).get(id) ?? []).length;
  m.crashed = 0;
  m.interruptedPing = false;
  m.redelivered++;
}

/** What a refused operation must leave as it was. */
function fingerprint(w: World): string {
  return JSON.stringify([
    w.ctx.db.prepare('SELECT * FROM webhook_deliveries ORDER BY seq').all(),
    w.ctx.db.prepare('SELECT count(*) AS n FROM webhook_attempts').get(),
    w.ctx.db.prepare('SELECT * FROM webhook_configs ORDER BY campaign_id').all(),
  ]);
}

/** An operation that does not send anything itself (also run while attempts are in flight). */
function applyNested(w: World, op: Nested, trace?: (s: string) => void): void {
  const before = fingerprint(w);
  try {
    switch (op.kind) {
      case 'submit':
        submit(w, op.c, op.live, op.failFast);
        break;
      case 'process':
        drainJobsNow(w);
        return;
      case 'pause':
      case 'reactivate':
        if (!w.campaigns[op.c].configured) return trace?.('not configured');
        configure(w, op.c, undefined, op.kind === 'reactivate');
        break;
      case 'set_url':
        if (!w.campaigns[op.c].configured) return trace?.('not configured');
        configure(w, op.c, op.url, undefined);
        break;
      case 'rotate': {
        // `ces webhook rotate-secret`, from the CLI's own connection.
        const m = w.campaigns[op.c];
        const { hmac_secret } = rotateWebhookSecret(w.cli, m.id, 0, OPERATOR);
        assert.ok(m.configured, 'rotate-secret without a configuration answered');
        m.secret = hmac_secret;
        break;
      }
      case 'redeliver': {
        const id = pickDelivery(w, op.which, op.n);
        if (!id) return trace?.('no delivery of that status');
        const was = w.ctx.db.prepare('SELECT status, campaign_id FROM webhook_deliveries WHERE id = ?').get(id) as
          { status: string; campaign_id: string } | undefined;
        const view = redeliver(w.cli, id, OPERATOR);
        assert.ok(
          was && (was.status === 'failed' || was.status === 'delivered'),
          `redeliver of a ${was?.status ?? 'unknown'} delivery was not refused`,
        );
        checkRequeued(w, id, was.campaign_id, view);
        requeued(w, id);
        break;
      }
      case 'redeliver_failed': {
        const m = w.campaigns[op.c];
        const failed = (
          w.ctx.db
            .prepare(`SELECT id FROM webhook_deliveries WHERE campaign_id = ? AND status = 'failed' ORDER BY seq`)
            .all(m.id) as Array<{ id: string }>
        ).map((r) => r.id);
        const views = redeliverFailed(w.cli, m.id, OPERATOR);
        assert.deepEqual(
          views.map((v) => v.id),
          failed,
          'redeliver --failed did not re-queue exactly the failed deliveries',
        );
        for (const v of views) {
          checkRequeued(w, v.id, m.id, v);
          requeued(w, v.id);
        }
        break;
      }
    }
    trace?.('ok');
  } catch (error) {
    trace?.(error instanceof AppError ? `${error.status} ${error.code}` : `error ${String(error)}`);
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    assert.equal(fingerprint(w), before, `${op.kind} refused with ${error.code} but changed the outbox`);
    if (op.kind === 'redeliver') {
      // docs/api.md: skipped -> delivery_skipped, pending -> delivery_pending, unknown -> 404.
      const expected = { pending: [409, 'delivery_pending'], skipped: [409, 'delivery_skipped'], unknown: [404, 'not_found'] }[
        op.which as 'pending' | 'skipped' | 'unknown'
      ];
      assert.deepEqual([error.status, error.code], expected, `redeliver of a ${op.which} delivery refused with ${error.code}`);
    } else if (op.kind === 'rotate') assert.equal(w.campaigns[op.c].configured, false, 'rotate-secret refused with a configuration');
    else throw error;
  }
}

/** docs/operations.md, Operator commands: a re-queued delivery is pending, attempts 0, delivered_at cleared, due now or held while paused. */
function checkRequeued(
  w: World,
  id: string,
  campaignId: string,
  view: { id: string; status: string; delivered_at: string | null; held: boolean },
): void {
  const row = w.ctx.db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryDbRow;
  const active = w.campaigns.find((c) => c.id === campaignId)!.active;
  assert.deepEqual([view.id, view.status, view.delivered_at, view.held], [id, 'pending', null, !active]);
  assert.deepEqual(
    [row.status, row.attempts, row.delivered_at, row.locked_until, row.next_attempt_at],
    ['pending', 0, null, null, active ? nowIso(w.clock) : HELD_UNTIL_REACTIVATED],
  );
}

function drainJobsNow(w: World): void {
  // drainJobs is async only for the fiscal verifier, which these campaigns do not use; awaited by the caller.
  w.pendingJobs = drainJobs(w.ctx, emptyJobStats(), { maxJobs: 200, chunkSize: 25 });
}

/** One delivery round: the hand-run tick (waits for its attempts) or the timer pool (runs until idle). */
async function deliver(w: World, answers: Answer[], pool: boolean): Promise<void> {
  w.answers = answers;
  w.served = 0;
  w.roundSuccesses = [];
  const lastAttempt = (w.ctx.db.prepare('SELECT max(id) FROM webhook_attempts').pluck().get() as number | null) ?? 0;
  setTimeoutFor(w, answers.includes('slow') ? TIMEOUT_MS : HELD_TIMEOUT_MS);
  if (!pool) {
    await drainDeliveries(w.ctx, emptyDeliveryStats(), 100);
  } else {
    const p = createDeliveryPool();
    await drainDeliveries(w.ctx, p.stats, 100, p);
    // Polls until the pool has recorded everything and claimed nothing more.
    for (let i = 0; p.running.size > 0 || p.finished.length > 0 || p.flushScheduled; i++) {
      assert.ok(i < 2_000, 'the delivery pool did not settle');
      await pause(2);
    }
  }
  forgetUnreadSuccesses(w, lastAttempt);
}

/**
 * A round with a `slow` answer runs at an 80 ms timeout, and an answer sent at once can still
 * reach ces after it on a busy machine: ces records a timeout (no status) and retries, as it must
 * (at least once). That 2xx was never a success to ces, so the model forgets it instead of
 * counting the retry's 2xx as a second success.
 */
function forgetUnreadSuccesses(w: World, afterAttemptId: number): void {
  const unread = new Set(
    (
      w.ctx.db
        .prepare('SELECT delivery_id FROM webhook_attempts WHERE id > ? AND status_code IS NULL')
        .pluck()
        .all(afterAttemptId) as string[]
    ).filter((id) => w.roundSuccesses.includes(id)),
  );
  for (const id of unread) w.successes.set(id, w.successes.get(id)! - 1);
  w.roundSuccesses = [];
}

function setTimeoutFor(w: World, timeoutMs: number): void {
  w.config = Object.freeze({ ...w.config, webhookTimeoutMs: timeoutMs });
  w.ctx.config = w.config;
  w.cli.config = w.config;
}

/**
 * A hand-run delivery round whose answers are held until `during` has run: it lands while those
 * attempts are in flight (claimed, sent, not recorded). Waits until every claimed attempt that can
 * reach the receiver has.
 */
async function deliverDuring(w: World, answers: Answer[], during: Nested, trace?: (s: string) => void): Promise<void> {
  w.answers = answers;
  w.served = 0;
  w.arrived = 0;
  setTimeoutFor(w, HELD_TIMEOUT_MS);
  let release!: () => void;
  w.hold = new Promise((resolve) => (release = resolve));
  w.sentWith = w.campaigns.map((c) => ({ ...c }));
  let finished = false;
  const round = drainDeliveries(w.ctx, emptyDeliveryStats(), 100).finally(() => (finished = true));
  const reachable = (): number => {
    // (An interrupted ping is leased but never sent again.)
    const leased = w.ctx.db.prepare('SELECT id, campaign_id FROM webhook_deliveries WHERE locked_until IS NOT NULL').all() as Array<{
      id: string;
      campaign_id: string;
    }>;
    return leased.filter((r) => {
      const c = w.sentWith!.find((m) => m.id === r.campaign_id)!;
      return c.configured && c.active && c.url !== 'dead' && !model(w, r.id).interruptedPing;
    }).length;
  };
  for (let i = 0; !finished && (w.arrived === 0 || w.arrived < reachable()); i++) {
    assert.ok(i < 3_000, `held round: ${w.arrived} of ${reachable()} attempts arrived`);
    await pause(1);
  }
  const inFlight = !finished;
  w.sentWith = null;
  try {
    count(`held round: ${during.kind} with ${inFlight ? 'attempts' : 'nothing'} in flight`);
    applyNested(
      w,
      during,
      trace && ((s) => trace(`  during (${inFlight ? `${w.arrived} in flight` : 'nothing in flight'}): ${JSON.stringify(during)} -> ${s}`)),
    );
    if (w.pendingJobs) await w.pendingJobs;
  } finally {
    w.hold = null;
    release();
    await round;
  }
}

/** `ces webhook test`: one signed ping now, never retried (docs/operations.md, Operator commands). */
async function ping(w: World, c: CampaignIx, live: boolean, answer: Answer): Promise<void> {
  const m = w.campaigns[c];
  w.answers = [answer];
  w.served = 0;
  setTimeoutFor(w, answer === 'slow' ? TIMEOUT_MS : HELD_TIMEOUT_MS);
  const before = receiver.requests.length;
  const before2 = fingerprint(w);
  let result;
  try {
    result = await sendTestPing(w.cli, m.id, live);
  } catch (error) {
    if (error instanceof AppError && error.status === 404 && !m.configured) {
      assert.equal(fingerprint(w), before2);
      return;
    }
    throw error;
  }
  assert.ok(m.configured, 'a ping without a configuration');
  const row = w.ctx.db
    .prepare('SELECT status, attempts, livemode, event_type FROM webhook_deliveries WHERE id = ?')
    .get(result.delivery_id) as { status: string; attempts: number; livemode: number; event_type: string };
  const expected = !m.active ? 'skipped' : m.url !== 'dead' && is2xx(answer === 'slow' ? null : answer) ? 'delivered' : 'failed';
  assert.equal(result.result, expected, `ping answered ${result.result}: ${result.error}`);
  assert.deepEqual(
    [row.status, row.attempts, row.livemode, row.event_type],
    [expected, expected === 'skipped' ? 0 : 1, live ? 1 : 0, 'ping'],
  );
  if (!m.active) assert.equal(receiver.requests.length, before, 'a ping reached the endpoint while paused');
}

/**
 * `ces webhook test` killed (Ctrl-C) while the endpoint has not answered: the ping is queued and
 * leased, sent, and its outcome never recorded.
 */
async function pingKilled(w: World, c: CampaignIx): Promise<void> {
  const m = w.campaigns[c];
  if (!m.configured) return;
  w.answers = [200];
  w.served = 0;
  w.arrived = 0;
  setTimeoutFor(w, HELD_TIMEOUT_MS);
  let release!: () => void;
  w.hold = new Promise((resolve) => (release = resolve));
  let finished = false;
  const sent = sendTestPing(w.cli, m.id, false)
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => (finished = true));
  for (let i = 0; !finished && w.arrived === 0 && m.active && m.url !== 'dead'; i++) {
    assert.ok(i < 3_000, 'the ping never arrived');
    await pause(1);
  }
  const row = w.ctx.db.prepare(`SELECT id FROM webhook_deliveries WHERE event_type = 'ping' ORDER BY seq DESC LIMIT 1`).get() as
    { id: string } | undefined;
  if (!finished && row) {
    w.cli.db.close();
    const k = model(w, row.id);
    k.interruptedPing = true;
    k.crashed++;
    k.firstClaim ??= ++w.claims;
  }
  w.hold = null;
  release();
  await sent;
  if (!w.cli.db.open) w.cli = makeCtx(w, w.seed * 1_000 + 2 * ++w.restarts + 1);
  // The ping never reached the outcome a 2xx would record; it is not counted as a success of ces.
  if (row && model(w, row.id).interruptedPing) w.successes.delete(row.id);
}

/**
 * A crash after claiming the due deliveries (and maybe sending them) and before recording anything;
 * then the file is reopened and the leases released, as `ces serve` does at start-up.
 */
async function crash(w: World, send: boolean, answer: Answer): Promise<void> {
  w.answers = [answer];
  w.served = 0;
  setTimeoutFor(w, HELD_TIMEOUT_MS);
  const nowMs = w.clock.now();
  const claimed = claimDeliveries(
    w.ctx.db,
    toIso(nowMs),
    toIso(nowMs + HELD_TIMEOUT_MS + 60_000),
    listWebhookCampaignIds(w.ctx.db).map((key) => ({ key, room: 100 })),
  );
  for (const d of claimed) {
    const m = model(w, d.id);
    m.crashed++;
    m.firstClaim ??= ++w.claims;
  }
  if (send) {
    const outcomes = await Promise.all(claimed.map((d) => sendClaimed(w.ctx, d)));
    outcomes.forEach((o, i) => {
      if (o.kind === 'attempt' && o.ok) model(w, claimed[i].id).lostSuccesses++;
    });
  }
  for (const d of claimed) if (d.event_type === 'ping') model(w, d.id).interruptedPing = true;
  restart(w);
}

function restart(w: World): void {
  const before = fingerprint(w);
  w.ctx.db.close();
  w.cli.db.close();
  // A restarted process draws other random values than the last one.
  w.restarts++;
  w.ctx = makeCtx(w, w.seed * 1_000 + 2 * w.restarts);
  w.cli = makeCtx(w, w.seed * 1_000 + 2 * w.restarts + 1);
  const released = releaseStaleLeases(w.ctx);
  // Nothing but leases changes across a restart.
  const strip = (s: string) => s.replace(/"locked_until":"[^"]*"/g, '"locked_until":null');
  if (released.deliveries === 0) assert.equal(fingerprint(w), before, 'a restart changed the outbox');
  else assert.equal(strip(fingerprint(w)), strip(before), 'a restart changed more than leases');
}

async function apply(w: World, op: Op, trace?: (outcome: string) => void): Promise<void> {
  switch (op.kind) {
    case 'configure':
      configure(w, op.c, op.url, op.active);
      break;
    case 'deliver':
      await deliver(w, op.answers, op.pool);
      break;
    case 'deliver_during':
      await deliverDuring(w, op.answers, op.during, trace);
      break;
    case 'ping':
      await ping(w, op.c, op.live, op.answer);
      break;
    case 'advance':
      w.clock.advance(op.seconds * 1000);
      break;
    case 'clock_back':
      w.clock.advance(-op.seconds * 1000);
      break;
    case 'restart':
      restart(w);
      break;
    case 'crash':
      await crash(w, op.send, op.answer);
      break;
    case 'ping_killed':
      await pingKilled(w, op.c);
      break;
    default:
      applyNested(w, op, trace);
      if (w.pendingJobs) await w.pendingJobs;
      w.pendingJobs = undefined;
      return;
  }
  w.pendingJobs = undefined;
  trace?.('ok');
}

/** What the step changed in attempt rows: the new ones, in order (for first claims and backoff). */
function newAttempts(w: World, seenAttemptId: number): AttemptDbRow[] {
  return w.ctx.db
    .prepare('SELECT id, delivery_id, attempted_at, url, status_code, error FROM webhook_attempts WHERE id > ? ORDER BY id')
    .all(seenAttemptId) as AttemptDbRow[];
}

function checkInvariants(w: World, seenAttemptId: number): number {
  assert.deepEqual(w.violations, [], 'what the receiver got');
  const fresh = newAttempts(w, seenAttemptId);
  for (const a of fresh) model(w, a.delivery_id).firstClaim ??= ++w.claims;
  const rows = allDeliveries(w);
  const attempts = attemptsOf(w);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const d of rows) {
    const m = model(w, d.id);
    const list = attempts.get(d.id) ?? [];
    const last = list.at(-1);
    const where = `delivery ${d.id} (${d.event_type}, ${d.status})`;
    // (An interrupted ping keeps its lease until it expires: a `ces webhook test` may be waiting on it.)
    if (!(m.interruptedPing && d.status === 'pending')) assert.equal(d.locked_until, null, `${where}: a lease left between steps`);
    // docs/operations.md, Webhook debugging: a ping is leased when queued, "so a running server's tick never
    // sends it too, and it is never retried"; nor is one the operator redelivered.
    if (d.event_type === 'ping')
      assert.ok(list.length - m.base <= 1, `${where}: a ping attempted ${list.length - m.base} times since it was queued or redelivered`);
    // The envelope of docs/api.md#events, stored as sent.
    const env = JSON.parse(d.payload) as Record<string, unknown>;
    assert.deepEqual(env, {
      id: d.id,
      event_type: d.event_type,
      created_at: d.created_at,
      livemode: d.livemode === 1,
      campaign_id: d.campaign_id,
      data: env.data,
    });
    if (last) assert.equal(d.last_status_code, last.status_code, `${where}: last_status_code is not the last attempt's`);
    if (d.status !== 'delivered') assert.equal(d.delivered_at, null, `${where}: delivered_at set`);
    switch (d.status) {
      case 'skipped':
        assert.deepEqual(
          [list.length, d.attempts, d.next_attempt_at],
          [0, 0, null],
          `${where}: a skipped delivery was attempted or scheduled`,
        );
        break;
      case 'delivered':
        assert.ok(
          d.delivered_at !== null && d.next_attempt_at === null && last && is2xx(last.status_code) && d.last_error === null,
          `${where}: delivered without a 2xx last attempt, or still scheduled`,
        );
        break;
      case 'failed':
        assert.equal(d.next_attempt_at, null, `${where}: failed and scheduled`);
        if (m.interruptedPing) {
          // docs/operations.md, Webhook debugging: settled failed once its lease expired, not sent again.
          assert.match(
            d.last_error ?? '',
            /^interrupted before its outcome was recorded/,
            `${where}: an interrupted ping failed for another reason`,
          );
          break;
        }
        assert.ok(last && !is2xx(last.status_code) && d.last_error === last.error, `${where}: failed with a 2xx last attempt`);
        // A ping is never retried, also once redelivered (docs/operations.md, Webhook debugging).
        // (A claim a crash interrupted is counted, and its delivery is sent again: at least once.)
        if (d.event_type === 'ping') assert.equal(d.attempts, 1, `${where}: a ping attempted more than once`);
        else
          assert.ok(
            d.attempts >= SCHEDULE.length + 1 && d.attempts <= SCHEDULE.length + 1 + m.crashed,
            `${where}: failed after ${d.attempts} attempts (${m.crashed} lost to a crash), not once the schedule was spent`,
          );
        break;
      case 'pending':
        assert.notEqual(d.next_attempt_at, null, `${where}: pending with nothing scheduled`);
        // A ping is pending only redelivered and not sent yet, or interrupted with its lease kept.
        if (d.event_type === 'ping')
          assert.ok(
            (m.redelivered > 0 && list.length === m.base && m.crashed === 0) || (m.interruptedPing && d.locked_until !== null),
            `${where}: a ping left pending (pings are never retried)`,
          );
        break;
    }
    if (d.status !== 'skipped')
      assert.equal(
        d.attempts,
        list.length - m.base + m.crashed,
        `${where}: attempts ${d.attempts}, but ${list.length - m.base} recorded since the last redeliver and ${m.crashed} lost to a crash`,
      );
    // docs/api.md: a held delivery waits for reactivation, so only a paused campaign holds any.
    if (d.next_attempt_at === HELD_UNTIL_REACTIVATED) {
      const c = w.campaigns.find((x) => x.id === d.campaign_id)!;
      assert.equal(c.active, false, `${where}: held while its campaign's delivery is on (it would never be sent)`);
    }
    // docs/api.md: a 2xx is the end of an event unless an operator sends it again (or a crash lost its record).
    const successes = w.successes.get(d.id) ?? 0;
    assert.ok(
      successes <= 1 + m.redelivered + m.lostSuccesses,
      `${where}: ${successes} successful deliveries, ${m.redelivered} redelivers`,
    );
  }
  // docs/api.md, backoff: a failed attempt that leaves the delivery pending schedules the next after schedule[n-1].
  const lastFresh = new Map(fresh.map((a) => [a.delivery_id, a]));
  for (const [id, a] of lastFresh) {
    const d = byId.get(id)!;
    if (
      d.status !== 'pending' ||
      is2xx(a.status_code) ||
      d.next_attempt_at === HELD_UNTIL_REACTIVATED ||
      attempts.get(id)!.at(-1)!.id !== a.id
    )
      continue;
    if (d.attempts === 0) continue; // re-queued after this attempt
    assert.equal(
      d.next_attempt_at,
      toIso(Date.parse(a.attempted_at) + SCHEDULE[d.attempts - 1] * 1000),
      `delivery ${id}: retry ${d.attempts} not after ${SCHEDULE[d.attempts - 1]} s`,
    );
  }
  // docs/architecture.md, Order: the events of one entry are first attempted in the order they were queued.
  const entries = new Map<string, DeliveryDbRow[]>();
  for (const d of rows) if (d.entry_id && d.status !== 'skipped') entries.set(d.entry_id, [...(entries.get(d.entry_id) ?? []), d]);
  for (const [entry, list] of entries) {
    let prev = 0;
    let unclaimed: string | null = null;
    for (const d of list) {
      const first = w.deliveries.get(d.id)?.firstClaim;
      if (first === undefined) {
        unclaimed ??= d.event_type;
        continue;
      }
      assert.equal(unclaimed, null, `entry ${entry}: ${d.event_type} attempted before ${unclaimed}, queued earlier, ever was`);
      assert.ok(first > prev, `entry ${entry}: ${d.event_type} first attempted before an earlier event`);
      prev = first;
    }
  }
  return fresh.at(-1)?.id ?? seenAttemptId;
}

/**
 * The end of a case: every campaign on, at a good URL, the receiver answering 200, the clock moved
 * to each next retry; nothing may stay pending, and every delivered event reached the receiver.
 */
async function settle(w: World): Promise<void> {
  for (const c of [0, 1] as const) if (w.campaigns[c].configured) configure(w, c, 'a', true);
  await (w.pendingJobs = drainJobs(w.ctx, emptyJobStats(), { maxJobs: 1000, chunkSize: 100 }));
  for (let i = 0; ; i++) {
    assert.ok(i < 50, 'the outbox did not drain');
    await deliver(w, [200], false);
    const due = nextDeliveryDueAt(w.ctx.db);
    if (due === null) break;
    if (Date.parse(due) > w.clock.now()) w.clock.set(Date.parse(due));
  }
  const pending = w.ctx.db.prepare(`SELECT id, next_attempt_at FROM webhook_deliveries WHERE status = 'pending'`).all();
  assert.deepEqual(pending, [], 'deliveries left pending after every campaign was switched on and drained');
  for (const d of allDeliveries(w).filter((x) => x.status === 'delivered')) {
    assert.ok(
      (w.successes.get(d.id) ?? 0) + model(w, d.id).lostSuccesses > 0 || d.event_type === 'ping',
      `delivery ${d.id} is delivered but the receiver never answered it 2xx`,
    );
  }
}

async function runCase(seed: number, ops: Op[], trace?: (line: string) => void): Promise<void> {
  const w = buildWorld(seed);
  current = w;
  let seen = 0;
  try {
    for (const [i, op] of ops.entries()) {
      await apply(w, op, trace && ((outcome) => trace(`${i} ${JSON.stringify(op)} -> ${outcome}`)));
      // A CLI command's commit happens at least an event-loop turn before the server's next step.
      await nextTurn();
      seen = checkInvariants(w, seen);
    }
    for (const r of w.ctx.db.prepare('SELECT status, event_type, attempts > 1 AS retried FROM webhook_deliveries').all() as Array<{
      status: string;
      event_type: string;
      retried: number;
    }>) {
      count(`before settle: ${r.event_type} ${r.status}${r.retried ? ' (retried)' : ''}`);
    }

    await settle(w);
    checkInvariants(w, seen);
  } finally {
    current = null;
    closeWorld(w);
  }
}

const replay = process.env.CES_PROPERTY_REPLAY;

/** CES_PROPERTY_STATS=1 prints how often each situation was reached (to see what the runs cover). */
const stats = new Map<string, number>();
function count(what: string): void {
  stats.set(what, (stats.get(what) ?? 0) + 1);
}
after(() => {
  if (process.env.CES_PROPERTY_STATS === '1')
    process.stderr.write(
      `${[...stats]
        .sort()
        .map(([k, n]) => `${String(n).padStart(6)} ${k}`)
        .join('\n')}\nreceiver requests: ${receiver.requests.length}\n`,
    );
});

test(
  'random submit/process/deliver/pause/reactivate/move/rotate/redeliver/ping/restart/crash sequences keep the outbox invariants',
  { skip: replay !== undefined },
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(opArb, { minLength: 1, maxLength: 60, size: 'max' }),
        async (seed, ops) => {
          await runCase(seed, ops);
        },
      ),
      { numRuns: Number(process.env.CES_PROPERTY_RUNS ?? 60), includeErrorInReport: true },
    );
  },
);

test('replay of one counterexample (CES_PROPERTY_REPLAY)', { skip: replay === undefined }, async () => {
  const [seed, ops] = JSON.parse(replay!) as [number, Op[]];
  await runCase(seed, ops, (line) => process.stderr.write(`${line}\n`));
});
