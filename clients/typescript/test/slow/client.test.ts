// The client against a real `ces serve`: an entry submitted and read back APPROVED with its
// mechanics narrowed, generated documents and access keys accepted, replays told apart (another
// body under a caller's key; a lost answer of the call's own attempt; a 409 while the same key's
// body is still arriving), and the events iterator over several pages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rawRequest } from '../../../../test/support/harness.ts';
import {
  CesApiError,
  generateAccessKey,
  generateCnpj,
  generateEntry,
  instantPrizeOf,
  luckyNumbersOf,
  type ListedEvent,
} from '../../src/index.ts';
import { settled, startCes, type Ces } from '../support/ces.ts';

let ces: Ces;
before(async () => {
  ces = await startCes();
});
after(() => ces?.close());

describe('submitEntry on a real server', () => {
  test('a generated entry: 202 PENDING, not a replay; then APPROVED with its lucky numbers, typed by mechanic_type', async () => {
    const client = ces.client();
    const accepted = await client.submitEntry(generateEntry());
    assert.equal(accepted.status, 'PENDING');
    assert.equal(accepted.replayed, false);
    assert.equal(accepted.attempts, 1);
    assert.match(accepted.idempotency_key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const entry = await settled(client, accepted.entry_id);
    assert.equal(entry.status, 'APPROVED');
    const lucky = luckyNumbersOf(entry.mechanics);
    assert.ok(lucky && 'numbers' in lucky.outcome, 'automatic lucky numbers');
    assert.equal(lucky.outcome.numbers.length, 1);
    assert.deepEqual(entry.lucky_numbers, lucky.outcome.numbers);
    assert.equal(instantPrizeOf(entry.mechanics), undefined, 'no instant_win sent: no instant prize mechanic');
  });

  test('a declared win and a declared loss are the instant prize outcome of their mechanic', async () => {
    const client = ces.client();
    const win = await client.submitEntry(generateEntry({ instant_win: { won: true, prize_definition_id: ces.demo.prize.id } }));
    const loss = await client.submitEntry(generateEntry({ instant_win: { won: false } }));
    const won = instantPrizeOf((await settled(client, win.entry_id)).mechanics);
    assert.ok(won && 'prize_definition_id' in won.outcome);
    assert.deepEqual(
      { status: won.status, prize: won.outcome.prize_definition_id, award: won.outcome.award_status },
      { status: 'APPROVED', prize: ces.demo.prize.id, award: 'AWARDED' },
    );
    const lost = instantPrizeOf((await settled(client, loss.entry_id)).mechanics);
    assert.deepEqual(lost, { mechanic_type: 'instant_prize', status: 'REJECTED', outcome: { won: false } });
  });

  test('generated data the server accepts: an alphanumeric CNPJ, NF-e and NFC-e keys; the test triggers reject in processing', async () => {
    const companies = await ces.campaign('--allow-companies', '--lucky-numbers', 'auto');
    const client = ces.client({ apiKey: companies.key });
    const bodies = [
      generateEntry({ enrollment: { document_number: generateCnpj() }, accessKey: { model: '55' } }),
      generateEntry({ accessKey: { model: '65' } }),
      generateEntry({ enrollment: { document_number: generateCnpj({ numeric: true }) } }),
    ];
    for (const body of bodies) {
      const accepted = await client.submitEntry(body);
      assert.equal(accepted.status, 'PENDING');
      const entry = await settled(client, accepted.entry_id);
      assert.deepEqual([entry.status, entry.rejection_reasons], ['APPROVED', []], JSON.stringify(body));
    }
    for (const [trigger, code] of [
      ['fiscal_rejected', 'test_fiscal_rejected'],
      ['fraud_suspected', 'test_fraud_suspected'],
    ] as const) {
      const accepted = await client.submitEntry(generateEntry({ accessKey: { testTrigger: trigger } }));
      const entry = await settled(client, accepted.entry_id);
      assert.deepEqual([entry.status, entry.rejection_reasons.map((r) => r.code)], ['REJECTED', [code]]);
    }
    // A check digit off by one fails fast: 202 REJECTED.
    const key = generateAccessKey();
    const wrong = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
    const failFast = generateEntry();
    failFast.evidence.access_key = wrong;
    assert.equal((await client.submitEntry(failFast)).status, 'REJECTED');
  });

  test("the same key with another participant's body: replayed, with the first entry; the second body is not stored", async () => {
    const client = ces.client();
    const idempotencyKey = `order-${crypto.randomUUID()}`;
    const first = await client.submitEntry(generateEntry(), { idempotencyKey });
    const other = generateEntry();
    const second = await client.submitEntry(other, { idempotencyKey });
    assert.deepEqual(
      { first: first.replayed, second: second.replayed, same: second.entry_id === first.entry_id, key: second.idempotency_key },
      { first: false, second: true, same: true, key: idempotencyKey },
    );
    // The other participant's document is free: a new key stores their entry.
    const third = await client.submitEntry(other);
    assert.notEqual(third.entry_id, first.entry_id);
    assert.equal(third.replayed, false);
  });

  test("an answer lost in the network after the server stored the entry: the retry's replay is the call's own entry", async () => {
    const answers: Response[] = [];
    let lose = true;
    const losingFetch = async (request: Request): Promise<Response> => {
      const response = await fetch(request);
      answers.push(response.clone());
      if (lose) {
        lose = false;
        await response.arrayBuffer();
        throw new TypeError('fetch failed'); // what fetch throws when the connection drops
      }
      return response;
    };
    const waits: number[] = [];
    const client = ces.client({ fetch: losingFetch, sleep: async (ms) => void waits.push(ms) });
    const result = await client.submitEntry(generateEntry());
    assert.deepEqual(
      answers.map((a) => [a.status, a.headers.get('idempotent-replayed')]),
      [
        [202, null],
        [202, 'true'],
      ],
      'the server stored it, then answered the retry as a replay',
    );
    assert.deepEqual({ attempts: result.attempts, replayed: result.replayed, waits }, { attempts: 2, replayed: false, waits: [500] });
    assert.equal((await answers[0]!.json()).entry_id, result.entry_id);
    // With the caller's own key the client cannot tell its lost attempt from an earlier request: it says replayed.
    lose = true;
    const own = await client.submitEntry(generateEntry(), { idempotencyKey: crypto.randomUUID() });
    assert.deepEqual({ attempts: own.attempts, replayed: own.replayed }, { attempts: 2, replayed: true });
  });

  test('a 409 idempotency_conflict while the same key is still being read: waits Retry-After, then gets that request’s entry as a replay', async () => {
    const idempotencyKey = crypto.randomUUID();
    const head = [
      'POST /v1/entries HTTP/1.1',
      `Host: ${new URL(ces.url).host}`,
      `Authorization: Bearer ${ces.demo.key.key}`,
      `Idempotency-Key: ${idempotencyKey}`,
      'Content-Type: application/json',
    ];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = rawRequest(ces.url, head, JSON.stringify(generateEntry()), () => released);
    // Until the server is reading that body, a probe with the same key and a broken body is a 400
    // that stores nothing; once it is, the probe is a 409.
    const probe = async () =>
      (
        await fetch(`${ces.url}/v1/entries`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ces.demo.key.key}`, 'idempotency-key': idempotencyKey, 'content-type': 'application/json' },
          body: '{',
        })
      ).status;
    for (let i = 0; (await probe()) !== 409; i++) assert.ok(i < 400, 'the slow request never reached the server');

    const waits: number[] = [];
    const client = ces.client({
      sleep: async (ms) => {
        waits.push(ms);
        release();
        await slow;
      },
    });
    const result = await client.submitEntry(generateEntry(), { idempotencyKey });
    const first = await slow;
    assert.equal(first.status, 202);
    assert.deepEqual(
      { waits, attempts: result.attempts, replayed: result.replayed, entry: result.entry_id },
      { waits: [1000], attempts: 2, replayed: true, entry: JSON.parse(first.text).entry_id },
    );
  });

  test('refusals are CesApiErrors with every violation and the request id', async () => {
    const client = ces.client();
    const body = generateEntry();
    const typo = { ...body, enrollment: { ...body.enrollment, emial: 'x@example.com' } } as typeof body;
    const error = await client.submitEntry(typo).catch((e: unknown) => e);
    assert.ok(error instanceof CesApiError);
    assert.equal(error.status, 422);
    assert.deepEqual(
      error.errors.map((e) => [e.field, e.code]),
      [['enrollment.emial', 'unknown_field']],
    );
    assert.match(error.requestId ?? '', /\S/);
    const unknown = await ces
      .client({ apiKey: 'service_test_' + 'A'.repeat(43) })
      .getEntry(crypto.randomUUID())
      .catch((e: unknown) => e);
    assert.ok(unknown instanceof CesApiError && unknown.status === 401 && unknown.code === 'invalid_api_key');
  });
});

describe('events() on a real server', () => {
  test('walks every page newest first, as one long list would give them; filters by type and entry', async () => {
    const own = await ces.campaign('--lucky-numbers', 'auto');
    const pages: string[] = [];
    const client = ces.client({
      apiKey: own.key,
      fetch: (request) => {
        if (new URL(request.url).pathname === '/v1/events') pages.push(new URL(request.url).search);
        return fetch(request);
      },
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await client.submitEntry(generateEntry())).entry_id);
    for (const id of ids) await settled(client, id);

    const walked: ListedEvent[] = [];
    for await (const event of client.events({ limit: 2 })) walked.push(event);
    assert.equal(walked.length, 9, 'three events for each of three entries');
    assert.equal(pages.length, 5, 'pages of 2, 2, 2, 2, 1');
    const whole = await client.api.GET('/v1/events', { params: { query: { limit: 100 } } });
    assert.deepEqual(
      walked.map((e) => e.id),
      whole.data!.data.map((e) => e.id),
    );
    assert.deepEqual(
      walked.filter((e) => 'entry_id' in e.data && e.data.entry_id === ids[0]).map((e) => e.event_type),
      ['entry.evaluated', 'entry.completed', 'entry.received'],
    );

    const evaluated: string[] = [];
    for await (const event of client.events({ type: 'entry.evaluated', limit: 2 })) {
      assert.equal(event.event_type, 'entry.evaluated');
      if (event.event_type === 'entry.evaluated') evaluated.push(event.data.entry_id);
    }
    assert.deepEqual(evaluated, [...ids].reverse());
    const ofOne: string[] = [];
    for await (const event of client.events({ entry_id: ids[1] })) ofOne.push(event.event_type);
    assert.deepEqual(ofOne, ['entry.evaluated', 'entry.completed', 'entry.received']);
  });
});
