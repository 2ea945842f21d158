// Processing (docs/api.md#background-processing; issue 3): every accepted entry leaves PENDING in the
// background, and each step reaches a real HTTPS receiver as a signed webhook. One scenario per
// rejection reason: the entry gets entry.received and entry.completed(REJECTED) and never
// entry.evaluated.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { CampaignOptions } from '../../src/campaigns/campaigns.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import {
  configureWebhook,
  cpf,
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
  OPERATOR,
} from '../support/harness.ts';
import { startReceiver, type Receiver, type ReceivedRequest } from '../support/receiver.ts';
import { USER_AGENT } from '../../src/kernel/version.ts';

let t: TestServer;
let receiver: Receiver;
const secrets = new Map<string, string>();

before(async () => {
  t = await startTestServer();
  receiver = await startReceiver();
});
after(async () => {
  await t.close();
  await receiver.close();
});

/** A campaign of its own, its webhook pointing at the shared receiver. */
async function campaign(options: CampaignOptions = {}): Promise<World> {
  const w = makeCampaign(t.ctx, options);
  secrets.set(w.campaign.id, await configureWebhook(t, w.liveKey, receiver.url));
  return w;
}

let seq = 0;
async function submit(w: World, key: string, body: Record<string, unknown>): Promise<string> {
  return (await submitEntry(t, key, body, `idem-${++seq}`)).entry_id;
}

function eventsOf(entryId: string): ReceivedRequest[] {
  return receiver.requests.filter((r) => r.json?.data?.entry_id === entryId);
}

/**
 * Checks each delivery's Standard Webhooks signature with the campaign's secret, using the
 * `standardwebhooks` package. The service runs on a ManualClock far from real time, so
 * Webhook.verify would refuse the timestamp; the HMAC over "{id}.{timestamp}.{body}" is what must
 * match (webhooks.test.ts verifies end to end on a real-time clock).
 */
function assertSigned(reqs: ReceivedRequest[]): void {
  for (const r of reqs) {
    const secret = secrets.get(r.json.campaign_id);
    assert.ok(secret, 'delivery for a campaign of this test file');
    const expected = new Webhook(secret).sign(r.headers['webhook-id'], new Date(Number(r.headers['webhook-timestamp']) * 1000), r.body);
    assert.ok(r.headers['webhook-signature'].split(' ').includes(expected), `signature of ${r.json.event_type}`);
    assert.equal(r.headers['webhook-id'], r.json.id);
  }
}

async function expectRejected(w: World, entryId: string, codes: string[]): Promise<void> {
  await drainAll(t);
  const events = eventsOf(entryId);
  assertSigned(events);
  assert.deepEqual(
    events.map((e) => e.json.event_type),
    ['entry.received', 'entry.completed'],
  );
  const completed = events[1].json;
  assert.equal(completed.data.status, 'REJECTED');
  assert.deepEqual(
    completed.data.rejection_reasons.map((r: { code: string }) => r.code),
    codes,
  );
  for (const r of completed.data.rejection_reasons) assert.ok(typeof r.message === 'string' && r.message.length > 0);
  const read = await t.request('GET', `/v1/entries/${entryId}`, { key: events[0].json.livemode ? w.liveKey : w.testKey });
  assert.equal(read.body.status, 'REJECTED');
  assert.deepEqual(read.body.rejection_reasons, completed.data.rejection_reasons);
  assert.equal(read.body.mechanics, null);
}

async function expectApproved(entryId: string): Promise<void> {
  await drainAll(t);
  const events = eventsOf(entryId);
  assertSigned(events);
  assert.deepEqual(
    events.map((e) => e.json.event_type),
    ['entry.received', 'entry.completed', 'entry.evaluated'],
  );
  assert.equal(events[1].json.data.status, 'APPROVED');
}

describe('an approved entry', () => {
  test('gets entry.received, entry.completed(APPROVED) and entry.evaluated in that order, each signed', async () => {
    const w = await campaign();
    const entryId = await submit(w, w.liveKey, entryBody({}, 0));
    const pending = await t.request('GET', `/v1/entries/${entryId}`, { key: w.liveKey });
    assert.equal(pending.body.status, 'PENDING');

    // One tick processes the entry and evaluates it in the same job, then sends what is due.
    const first = await t.tick();
    assert.equal(first.entriesApproved, 1);
    assert.equal(first.entriesEvaluated, 1);
    assert.equal(first.jobsProcessed, 1);
    assert.equal(
      t.ctx.db.prepare('SELECT count(*) FROM jobs WHERE entry_id = ?').pluck().get(entryId),
      0,
      'no evaluate job is left behind',
    );
    await drainAll(t);

    const events = eventsOf(entryId);
    assert.deepEqual(
      events.map((e) => e.json.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated'],
    );
    const enrollmentId = pending.body.enrollment_id;
    assert.deepEqual(events[0].json.data, { entry_id: entryId, enrollment_id: enrollmentId, status: 'PENDING' });
    assert.deepEqual(events[1].json.data, { entry_id: entryId, enrollment_id: enrollmentId, status: 'APPROVED', rejection_reasons: [] });
    assert.deepEqual(events[2].json.data, { entry_id: entryId, enrollment_id: enrollmentId, mechanics: [] });
    for (const e of events) {
      assert.deepEqual(Object.keys(e.json).sort(), ['campaign_id', 'created_at', 'data', 'event_type', 'id', 'livemode']);
      assert.equal(e.json.livemode, true);
      assert.match(e.json.id, /^evt_[0-9a-f]{32}$/);
      assert.equal(e.headers['content-type'], 'application/json');
      assert.equal(e.headers['user-agent'], USER_AGENT);
      assert.match(e.headers['webhook-timestamp'], /^\d{10}$/);
      assert.match(e.headers['webhook-signature'], /^v1,[A-Za-z0-9+/=]+$/);
    }
    assertSigned(events);
    assert.ok(events.every((e) => e.json.campaign_id === w.campaign.id));
    assert.equal(new Set(events.map((e) => e.json.id)).size, 3);

    const read = await t.request('GET', `/v1/entries/${entryId}`, { key: w.liveKey });
    assert.equal(read.body.status, 'APPROVED');
    assert.deepEqual(read.body.mechanics, []);
    assert.ok(read.body.processed_at && read.body.evaluated_at);
  });

  test('a second tick finds nothing to do: each job ran once', async () => {
    const w = await campaign();
    const entryId = await submit(w, w.liveKey, entryBody({}, 1));
    await drainAll(t);
    const again = await t.tick();
    assert.equal(again.jobsClaimed, 0);
    assert.equal(again.deliveriesAttempted, 0);
    assert.equal(eventsOf(entryId).length, 3);
  });

  test('test-mode entries carry livemode false and are approved with an ordinary key', async () => {
    const w = await campaign();
    const entryId = await submit(w, w.testKey, entryBody({}, 2));
    await expectApproved(entryId);
    assert.ok(eventsOf(entryId).every((e) => e.json.livemode === false));
  });
});

describe('rejection reasons: entry.received, entry.completed(REJECTED), never entry.evaluated', () => {
  test('fail-fast: an access key with a wrong check digit is rejected at intake', async () => {
    const w = await campaign();
    const key = makeAccessKey({ number: '000000777' });
    const bad = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
    const accepted = await submitEntry(t, w.liveKey, entryBody({ evidence: { access_key: bad } }, 0), 'ff-1');
    assert.equal(accepted.status, 'REJECTED');
    await expectRejected(w, accepted.entry_id, ['access_key_invalid_check_digit']);
  });

  // docs/api.md#events: entry.received carries "the status at acceptance, PENDING, or
  // REJECTED for an entry that failed fast"; entry.completed(REJECTED) follows with the reasons.
  const failFastKeys: Array<[string, string, string[]]> = [
    ['model 99', makeAccessKey({ model: '99', number: '000000778' }), ['access_key_invalid_model']],
    ['state code 00', makeAccessKey({ uf: '00', number: '000000779' }), ['access_key_invalid_state']],
  ];
  for (const [what, accessKey, codes] of failFastKeys) {
    test(`fail-fast (${what}): entry.received data is {entry_id, enrollment_id, status: REJECTED}, then entry.completed(REJECTED)`, async () => {
      const w = await campaign();
      const accepted = await submitEntry(t, w.liveKey, entryBody({ evidence: { access_key: accessKey } }, 1), `ff-${what}`);
      assert.equal(accepted.status, 'REJECTED');
      const read = await t.request('GET', `/v1/entries/${accepted.entry_id}`, { key: w.liveKey });
      const enrollmentId = read.body.enrollment_id;
      assert.match(enrollmentId, /^[0-9a-f-]{36}$/);

      // Stored in the outbox at intake, in the same transaction as the entry...
      const stored = t.ctx.db
        .prepare('SELECT event_type, payload FROM webhook_deliveries WHERE entry_id = ? ORDER BY seq')
        .all(accepted.entry_id) as Array<{ event_type: string; payload: string }>;
      assert.deepEqual(
        stored.map((d) => d.event_type),
        ['entry.received', 'entry.completed'],
      );
      assert.deepEqual(JSON.parse(stored[0].payload).data, {
        entry_id: accepted.entry_id,
        enrollment_id: enrollmentId,
        status: 'REJECTED',
      });

      // ...and delivered as stored, received first.
      await expectRejected(w, accepted.entry_id, codes);
      const [received, completed] = eventsOf(accepted.entry_id).map((e) => e.json);
      assert.deepEqual(received.data, { entry_id: accepted.entry_id, enrollment_id: enrollmentId, status: 'REJECTED' });
      assert.deepEqual(completed.data, {
        entry_id: accepted.entry_id,
        enrollment_id: enrollmentId,
        status: 'REJECTED',
        rejection_reasons: read.body.rejection_reasons,
      });
      assert.deepEqual(
        completed.data.rejection_reasons.map((r: { code: string }) => r.code),
        codes,
      );
    });
  }

  test('an access key issued in a month that has not started (clock: 2026-11-22)', async () => {
    const w = await campaign();
    const id = await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ yymm: '2612' }) } }, 0));
    await expectRejected(w, id, ['access_key_issued_in_future']);
  });

  test('an access key whose issue month is not a month', async () => {
    const w = await campaign();
    const id = await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ yymm: '2613' }) } }, 0));
    await expectRejected(w, id, ['access_key_invalid_month']);
  });

  test('an access key issued outside the purchase period', async () => {
    const w = await campaign({ purchaseFrom: '2026-09-01T03:00:00Z', purchaseTo: '2026-11-01T03:00:00Z' });
    const early = await submit(
      w,
      w.liveKey,
      entryBody({ evidence: { access_key: makeAccessKey({ yymm: '2608', number: '000000001' }) } }, 0),
    );
    const late = await submit(
      w,
      w.liveKey,
      entryBody({ evidence: { access_key: makeAccessKey({ yymm: '2611', number: '000000002' }) } }, 1),
    );
    const inside = await submit(
      w,
      w.liveKey,
      entryBody({ evidence: { access_key: makeAccessKey({ yymm: '2610', number: '000000003' }) } }, 2),
    );
    await expectRejected(w, early, ['purchase_outside_period']);
    await expectRejected(w, late, ['purchase_outside_period']);
    await expectApproved(inside);
  });

  test('the purchase period defaults to the registration window', async () => {
    const w = await campaign({ startsAt: '2026-11-01T03:00:00Z', endsAt: '2026-12-31T03:00:00Z' });
    const before = await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ yymm: '2610' }) } }, 0));
    await expectRejected(w, before, ['purchase_outside_period']);
  });

  test('a duplicate receipt: the first entry with the key wins, in the same campaign and mode only', async () => {
    const w = await campaign();
    const accessKey = makeAccessKey({ number: '000004242' });
    const first = await submit(w, w.liveKey, entryBody({ evidence: { access_key: accessKey } }, 0));
    const second = await submit(w, w.liveKey, entryBody({ evidence: { access_key: accessKey } }, 1));
    const testMode = await submit(w, w.testKey, entryBody({ evidence: { access_key: accessKey } }, 2));
    const other = await campaign();
    const otherCampaign = await submit(other, other.liveKey, entryBody({ evidence: { access_key: accessKey } }, 3));
    await expectApproved(first);
    await expectRejected(w, second, ['duplicate_receipt']);
    await expectApproved(testMode);
    await expectApproved(otherCampaign);
    assert.match(eventsOf(second)[1].json.data.rejection_reasons[0].message, new RegExp(first));
  });

  test('a rejected entry does not block a later one with the same key', async () => {
    const w = await campaign({ maxEntriesPerParticipant: 1 });
    const accessKey = makeAccessKey({ number: '000004343' });
    await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ number: '000004344' }) } }, 0));
    const overLimit = await submit(w, w.liveKey, entryBody({ evidence: { access_key: accessKey } }, 0));
    const otherParticipant = await submit(w, w.liveKey, entryBody({ evidence: { access_key: accessKey } }, 1));
    await expectRejected(w, overLimit, ['participant_limit_reached']);
    await expectApproved(otherParticipant);
  });

  test('the participant limit counts the document number’s earlier non-rejected entries', async () => {
    const w = await campaign({ maxEntriesPerParticipant: 2 });
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ number: String(500 + i).padStart(9, '0') }) } }, 4)),
      );
    const otherPerson = await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ number: '000000600' }) } }, 5));
    await expectApproved(ids[0]);
    await expectApproved(ids[1]);
    await expectRejected(w, ids[2], ['participant_limit_reached']);
    await expectApproved(otherPerson);
  });

  test('the daily limit counts entries of the same São Paulo calendar day (UTC-3)', async () => {
    const w = await campaign({ maxEntriesPerDay: 1 });
    const key = (n: number): Record<string, unknown> => ({
      evidence: { access_key: makeAccessKey({ number: String(700 + n).padStart(9, '0') }) },
    });
    t.clock.set('2026-11-23T02:58:00.000Z'); // 22 Nov, 23:58 in São Paulo
    const lateEvening = await submit(w, w.liveKey, entryBody(key(1), 6));
    const sameDay = await submit(w, w.liveKey, entryBody(key(2), 6));
    t.clock.set('2026-11-23T03:00:00.000Z'); // 23 Nov, 00:00 in São Paulo: a new day
    const nextDay = await submit(w, w.liveKey, entryBody(key(3), 6));
    await expectApproved(lateEvening);
    await expectRejected(w, sameDay, ['daily_limit_reached']);
    await expectApproved(nextDay);
    assert.match(eventsOf(sameDay)[1].json.data.rejection_reasons[0].message, /2026-11-22/);
  });

  test('several reasons are reported together', async () => {
    const w = await campaign({ maxEntriesPerParticipant: 1 });
    const accessKey = makeAccessKey({ number: '000008000' });
    const first = await submit(w, w.liveKey, entryBody({ evidence: { access_key: accessKey } }, 7));
    const second = await submit(w, w.liveKey, entryBody({ evidence: { access_key: accessKey } }, 7));
    await expectApproved(first);
    await expectRejected(w, second, ['duplicate_receipt', 'participant_limit_reached']);
  });

  test('test-mode triggers force rejections with a test key and are ignored in live mode', async () => {
    const w = await campaign();
    const fiscal = makeAccessKey({ cnf: '99999901', number: '000009001' });
    const fraud = makeAccessKey({ cnf: '99999902', number: '000009002' });
    const testFiscal = await submit(w, w.testKey, entryBody({ evidence: { access_key: fiscal } }, 0));
    const testFraud = await submit(w, w.testKey, entryBody({ evidence: { access_key: fraud } }, 1));
    const liveFiscal = await submit(w, w.liveKey, entryBody({ evidence: { access_key: fiscal } }, 0));
    const liveFraud = await submit(w, w.liveKey, entryBody({ evidence: { access_key: fraud } }, 1));
    await expectRejected(w, testFiscal, ['test_fiscal_rejected']);
    await expectRejected(w, testFraud, ['test_fraud_suspected']);
    await expectApproved(liveFiscal);
    await expectApproved(liveFraud);
  });

  test('a rejected entry’s declared instant win is voided and no stock moves', async () => {
    const w = await campaign({ instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(t.ctx, w.campaign.id, 'test', 5);
    const id = await submit(
      w,
      w.testKey,
      entryBody(
        { evidence: { access_key: makeAccessKey({ cnf: '99999902' }) }, instant_win: { won: true, prize_definition_id: prize.id } },
        0,
      ),
    );
    await expectRejected(w, id, ['test_fraud_suspected']);
    const read = await t.request('GET', `/v1/entries/${id}`, { key: w.testKey });
    assert.equal(read.body.award?.status, 'voided');
    const prizes = await t.request('GET', '/v1/prizes', { key: w.testKey });
    assert.equal(prizes.body.find((p: { id: string }) => p.id === prize.id).current_stock, 5);
  });
});

// A fiscal verifier on the test certificate: answers what `answer` says, records each request.
interface Verifier {
  url: string;
  calls: Array<{ access_key: string; entry_id: string; livemode: boolean }>;
  /** null: never answer (a verifier that hangs). */
  answer: (body: { access_key: string }) => { status: number; body: string } | null;
  close(): Promise<void>;
}

async function startVerifier(): Promise<Verifier> {
  const tls = new URL('../fixtures/tls/', import.meta.url);
  const v: Verifier = { url: '', calls: [], answer: () => ({ status: 200, body: '{"valid":true}' }), close: async () => {} };
  const server: Server = createServer(
    { key: readFileSync(new URL('server-key.pem', tls)), cert: readFileSync(new URL('server.pem', tls)) },
    (req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        const body = JSON.parse(text);
        v.calls.push(body);
        const answer = v.answer(body);
        if (answer) res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  v.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
  v.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return v;
}

describe('the fiscal verifier', () => {
  let verifier: Verifier;
  before(async () => {
    verifier = await startVerifier();
  });
  after(() => verifier.close());

  test('receives {access_key, entry_id, livemode}; valid approves, invalid rejects with its reason', async () => {
    const w = await campaign({ fiscalVerifierUrl: verifier.url });
    const good = makeAccessKey({ number: '000010001' });
    const bad = makeAccessKey({ number: '000010002' });
    verifier.answer = (b) =>
      b.access_key === bad
        ? { status: 200, body: '{"valid":false,"reason":"cancelled at SEFAZ"}' }
        : { status: 200, body: '{"valid":true}' };
    const ok = await submit(w, w.liveKey, entryBody({ evidence: { access_key: good } }, 0));
    const rejected = await submit(w, w.testKey, entryBody({ evidence: { access_key: bad } }, 1));
    await drainAll(t);
    assert.deepEqual(
      verifier.calls.filter((c) => c.entry_id === ok),
      [{ access_key: good, entry_id: ok, livemode: true }],
    );
    assert.deepEqual(
      verifier.calls.filter((c) => c.entry_id === rejected),
      [{ access_key: bad, entry_id: rejected, livemode: false }],
    );
    await expectApproved(ok);
    await expectRejected(w, rejected, ['fiscal_verifier_rejected']);
    assert.match(eventsOf(rejected)[1].json.data.rejection_reasons[0].message, /cancelled at SEFAZ/);
  });

  test('is not asked when a local check already rejects the entry', async () => {
    const w = await campaign({ fiscalVerifierUrl: verifier.url });
    const id = await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ yymm: '2701', number: '000010003' }) } }, 0));
    await expectRejected(w, id, ['access_key_issued_in_future']);
    assert.equal(verifier.calls.filter((c) => c.entry_id === id).length, 0);
  });

  test('down (5xx, then unreachable): the entry stays PENDING and is approved once it answers', async () => {
    const w = await campaign({ fiscalVerifierUrl: verifier.url });
    verifier.answer = () => ({ status: 503, body: 'maintenance' });
    const id = await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ number: '000010004' }) } }, 0));
    const first = await t.tick();
    assert.equal(first.verifierCalls, 1);
    assert.equal(first.jobsRetried, 1);
    assert.equal((await t.request('GET', `/v1/entries/${id}`, { key: w.liveKey })).body.status, 'PENDING');

    // Not due again before its backoff (at least 2.5 s for the first retry)...
    const early = await t.tick();
    assert.equal(early.verifierCalls, 0);
    // ...then retried, here against a host that refuses connections.
    const { updateCampaign } = await import('../../src/campaigns/campaigns.ts');
    updateCampaign(t.ctx, w.campaign.id, { fiscalVerifierUrl: 'https://127.0.0.1:1/verify' }, OPERATOR);
    t.clock.advance(10_000);
    const second = await t.tick();
    assert.equal(second.verifierCalls, 1);
    assert.equal(second.jobsRetried, 1);
    assert.equal((await t.request('GET', `/v1/entries/${id}`, { key: w.liveKey })).body.status, 'PENDING');
    assert.deepEqual(
      eventsOf(id).map((e) => e.json.event_type),
      ['entry.received'],
    );

    updateCampaign(t.ctx, w.campaign.id, { fiscalVerifierUrl: verifier.url }, OPERATOR);
    verifier.answer = () => ({ status: 200, body: '{"valid":true}' });
    await expectApproved(id);
  });

  test('the timer-driven tick does not wait for a hanging verifier: other entries are processed meanwhile', async () => {
    const s = await startTestServer({ tick: true, env: { CES_TICK_MS: '10', CES_VERIFIER_TIMEOUT_MS: '60000' } });
    try {
      const hanging = makeCampaign(s.ctx, { fiscalVerifierUrl: verifier.url });
      const plain = makeCampaign(s.ctx);
      verifier.answer = () => null;
      const waiting = await submitEntry(
        s,
        hanging.liveKey,
        entryBody({ evidence: { access_key: makeAccessKey({ number: '000010006' }) } }, 0),
        'h-1',
      );
      const deadline = performance.now() + 10_000;
      while (!verifier.calls.some((c) => c.entry_id === waiting.entry_id)) {
        assert.ok(performance.now() < deadline, 'the verifier was called');
        await new Promise((r) => setTimeout(r, 10));
      }
      const other = await submitEntry(s, plain.liveKey, entryBody({}, 1), 'h-2');
      for (;;) {
        const read = await s.request('GET', `/v1/entries/${other.entry_id}`, { key: plain.liveKey });
        if (read.body.evaluated_at) break;
        assert.ok(performance.now() < deadline, 'the other campaign’s entry was processed while the verifier hangs');
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal((await s.request('GET', `/v1/entries/${waiting.entry_id}`, { key: hanging.liveKey })).body.status, 'PENDING');
    } finally {
      verifier.answer = () => ({ status: 200, body: '{"valid":true}' });
      await verifier.close();
      verifier = await startVerifier();
      await s.close();
    }
  });

  test('a 2xx answer without a boolean "valid" is no verdict: retried, not approved', async () => {
    const w = await campaign({ fiscalVerifierUrl: verifier.url });
    verifier.answer = () => ({ status: 200, body: '{"ok":true}' });
    const id = await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ number: '000010005' }) } }, 0));
    const report = await t.tick();
    assert.equal(report.jobsRetried, 1);
    assert.equal((await t.request('GET', `/v1/entries/${id}`, { key: w.liveKey })).body.status, 'PENDING');
    verifier.answer = () => ({ status: 200, body: '{"valid":true}' });
    await expectApproved(id);
  });
});

test('entries of one participant across campaigns do not count toward each other’s limits', async () => {
  const a = await campaign({ maxEntriesPerParticipant: 1 });
  const b = await campaign({ maxEntriesPerParticipant: 1 });
  const inA = await submit(a, a.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ number: '000020001' }) } }, 3));
  const inB = await submit(b, b.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ number: '000020002' }) } }, 3));
  await expectApproved(inA);
  await expectApproved(inB);
  assert.equal(cpf(3).length, 11);
});

test('an evaluation that throws is rolled back alone, kept with its error, and retried with backoff', async () => {
  const w = await campaign();
  const failing = await submit(w, w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ number: '000030001' }) } }, 0));
  const healthy = await submit(w, w.testKey, entryBody({ evidence: { access_key: makeAccessKey({ number: '000030002' }) } }, 1));
  // A fault injected on the server's own connection: storing this entry's mechanics fails.
  t.ctx.db.exec(`CREATE TEMP TRIGGER fail_evaluation BEFORE UPDATE OF mechanics ON entries WHEN NEW.id = '${failing}'
    BEGIN SELECT RAISE(ABORT, 'injected evaluation failure'); END`);
  try {
    const report = await t.tick();
    assert.equal(report.entriesApproved, 2);
    assert.equal(report.entriesEvaluated, 1, 'the other entry of the same chunk is evaluated');
    assert.equal(report.jobsRetried, 1);
    const job = t.ctx.db.prepare(`SELECT kind, attempts, last_error, locked_until, run_at FROM jobs WHERE entry_id = ?`).get(failing) as {
      kind: string;
      attempts: number;
      last_error: string;
      locked_until: string | null;
      run_at: string;
    };
    assert.equal(job.kind, 'evaluate');
    assert.equal(job.attempts, 1);
    assert.match(job.last_error, /injected evaluation failure/);
    assert.equal(job.locked_until, null);
    assert.ok(Date.parse(job.run_at) >= t.clock.now() + 2_500, 'retried after a backoff');
    await drainAll(t, { advance: false });
    assert.deepEqual(
      eventsOf(failing).map((e) => e.json.event_type),
      ['entry.received', 'entry.completed'],
    );
    assert.equal((await t.request('GET', `/v1/entries/${failing}`, { key: w.liveKey })).body.mechanics, null);
  } finally {
    t.ctx.db.exec('DROP TRIGGER IF EXISTS temp.fail_evaluation');
  }
  await expectApproved(failing);
  await expectApproved(healthy);
});
