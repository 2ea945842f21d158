// The retry rules of submitEntry, getEntry and events() on answers a test server cannot be made to
// give on demand (503, an HTTP-date Retry-After, a Retry-After beyond the limit, a dead network):
// a scripted fetch answers each attempt and the injected sleep records each wait instead of
// waiting. The same rules against a real `ces serve` are in client.test.ts and rate-limit.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CesApiError, createCesClient, generateEntry, parseRetryAfter, type CesClientOptions } from '../src/index.ts';

type Step = Response | Error;

const ACCEPTED = { entry_id: '01a20320-a200-7a58-8265-50c4fdb2da35', status: 'PENDING', message: 'Entry accepted for processing.' };

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status < 400 ? 'application/json' : 'application/problem+json', ...headers },
  });
const problem = (status: number, code: string, headers: Record<string, string> = {}): Response =>
  json(status, { type: `https://ces.dev/problems/${code}`, title: 'x', status, detail: `${code} happened`, code }, headers);

/** A client whose fetch answers with `steps` in order, recording every request and every wait. */
function scripted(steps: Step[], options: Partial<CesClientOptions> = {}) {
  const requests: Request[] = [];
  const waits: number[] = [];
  const client = createCesClient({
    baseUrl: 'http://ces.test/',
    apiKey: 'service_test_key',
    fetch: async (request) => {
      if (request.signal.aborted) throw request.signal.reason;
      requests.push(request);
      const step = steps.shift();
      if (step === undefined) throw new Error('more attempts than scripted');
      if (step instanceof Error) throw step;
      return step;
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client, requests, waits };
}

describe('submitEntry retries', () => {
  test('a 503 with Retry-After: 7 waits 7 s, then the 202 is the answer; one key for every attempt', async () => {
    const { client, requests, waits } = scripted([problem(503, 'service_unavailable', { 'retry-after': '7' }), json(202, ACCEPTED)]);
    const result = await client.submitEntry(generateEntry());
    assert.deepEqual(waits, [7000]);
    assert.equal(result.attempts, 2);
    assert.equal(result.entry_id, ACCEPTED.entry_id);
    assert.equal(requests.length, 2);
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    assert.match(keys[0]!, /^[0-9a-f-]{36}$/);
    assert.equal(keys[1], keys[0]);
    assert.equal(result.idempotency_key, keys[0]);
    assert.equal(requests[0]!.headers.get('authorization'), 'Bearer service_test_key');
    assert.equal(requests[0]!.url, 'http://ces.test/v1/entries');
  });

  test('network errors back off 500, 1000, 2000 ms; after the last attempt the network error is thrown', async () => {
    const down = () => new TypeError('fetch failed');
    const { client, waits } = scripted([down(), down(), down(), down()], { retry: { attempts: 4 } });
    await assert.rejects(client.submitEntry(generateEntry()), (e: Error) => e instanceof TypeError && e.message === 'fetch failed');
    assert.deepEqual(waits, [500, 1000, 2000]);
  });

  test('the wait doubles up to maxDelayMs', async () => {
    const down = () => new TypeError('fetch failed');
    const { client, waits } = scripted([down(), down(), down(), down(), json(202, ACCEPTED)], {
      retry: { attempts: 5, backoffMs: 1000, maxDelayMs: 3000 },
    });
    await client.submitEntry(generateEntry());
    assert.deepEqual(waits, [1000, 2000, 3000, 3000]);
  });

  test('an HTTP-date Retry-After is a wait until that date', async () => {
    const at = new Date(Date.now() + 50_000).toUTCString();
    const { client, waits } = scripted([problem(429, 'rate_limited', { 'retry-after': at }), json(202, ACCEPTED)]);
    await client.submitEntry(generateEntry());
    assert.equal(waits.length, 1);
    assert.ok(waits[0]! > 30_000 && waits[0]! <= 50_000, `waited ${waits[0]} ms`);
  });

  test('a Retry-After longer than maxDelayMs ends the retries at once, with the 429 and its wait', async () => {
    const { client, waits } = scripted([problem(429, 'rate_limited', { 'retry-after': '120' })], { retry: { maxDelayMs: 60_000 } });
    await assert.rejects(client.submitEntry(generateEntry()), (e: unknown) => {
      assert.ok(e instanceof CesApiError);
      assert.equal(e.status, 429);
      assert.equal(e.code, 'rate_limited');
      assert.equal(e.retryAfterMs, 120_000);
      return true;
    });
    assert.deepEqual(waits, []);
  });

  test('429s past the last attempt throw the last 429', async () => {
    const limited = () => problem(429, 'rate_limited', { 'retry-after': '1' });
    const { client, waits } = scripted([limited(), limited(), limited()], { retry: { attempts: 3 } });
    await assert.rejects(client.submitEntry(generateEntry()), { name: 'CesApiError', status: 429 });
    assert.deepEqual(waits, [1000, 1000]);
  });

  test('not retried: a 422 (with every violation), auth_rate_limited (a wrong key), a 500', async () => {
    const invalid = json(422, {
      type: 'https://ces.dev/problems/validation-failed',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'The entry is invalid',
      code: 'validation_failed',
      errors: [
        { field: 'enrollment.emial', code: 'unknown_field', message: 'emial is not a field' },
        { field: 'consent.granted_at', code: 'in_future', message: 'granted_at is in the future' },
      ],
    });
    for (const [answer, code] of [
      [invalid, 'validation_failed'],
      [problem(429, 'auth_rate_limited', { 'retry-after': '1' }), 'auth_rate_limited'],
      [problem(500, 'internal_error'), 'internal_error'],
    ] as const) {
      const { client, waits } = scripted([answer]);
      await assert.rejects(client.submitEntry(generateEntry()), (e: unknown) => e instanceof CesApiError && e.code === code);
      assert.deepEqual(waits, [], code);
    }
    const { client } = scripted([
      json(422, {
        type: 'x',
        title: 'x',
        status: 422,
        detail: 'x',
        code: 'validation_failed',
        errors: [{ field: 'a', code: 'b', message: 'c' }],
      }),
    ]);
    const error = await client.submitEntry(generateEntry()).catch((e: unknown) => e);
    assert.ok(error instanceof CesApiError);
    assert.deepEqual(error.errors, [{ field: 'a', code: 'b', message: 'c' }]);
  });

  test("a caller's abort is not retried", async () => {
    const stop = new AbortController();
    const { client, waits } = scripted([]);
    stop.abort(new Error('stopped by the caller'));
    await assert.rejects(client.submitEntry(generateEntry(), { signal: stop.signal }), /stopped by the caller|aborted/);
    assert.deepEqual(waits, []);
  });

  test('an attempt that hangs past timeoutMs is a network failure and is retried', async () => {
    let calls = 0;
    const client = createCesClient({
      baseUrl: 'http://ces.test',
      apiKey: 'k',
      timeoutMs: 50,
      sleep: async () => {},
      fetch: (request) => {
        calls++;
        if (calls === 2) return Promise.resolve(json(202, ACCEPTED));
        return new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
      },
    });
    // AbortSignal.timeout's timer does not hold the event loop open (a real fetch's socket does).
    const keepAlive = setInterval(() => {}, 1000);
    try {
      const result = await client.submitEntry(generateEntry());
      assert.equal(result.attempts, 2);
    } finally {
      clearInterval(keepAlive);
    }
  });
});

describe('events() paging', () => {
  test('follows has_more with starting_after = the last id of the page, and passes the filters on', async () => {
    const event = (n: number) => ({ id: `evt_${String(n).padStart(32, '0')}`, event_type: 'entry.received' });
    const { client, requests } = scripted([
      json(200, { data: [event(5), event(4)], has_more: true }),
      problem(503, 'service_unavailable', { 'retry-after': '1' }),
      json(200, { data: [event(3), event(2)], has_more: true }),
      json(200, { data: [event(1)], has_more: false }),
    ]);
    const ids: string[] = [];
    for await (const e of client.events({ type: 'entry.received', limit: 2 })) ids.push(e.id);
    assert.deepEqual(
      ids,
      [5, 4, 3, 2, 1].map((n) => event(n).id),
    );
    assert.deepEqual(
      requests.map((r) => new URL(r.url).search),
      [
        '?type=entry.received&limit=2',
        `?type=entry.received&limit=2&starting_after=${event(4).id}`,
        `?type=entry.received&limit=2&starting_after=${event(4).id}`,
        `?type=entry.received&limit=2&starting_after=${event(2).id}`,
      ],
    );
  });
});

test('parseRetryAfter: delay-seconds, an HTTP-date, and nothing readable', () => {
  assert.equal(parseRetryAfter('3', 0), 3000);
  assert.equal(parseRetryAfter(' 0 ', 0), 0);
  assert.equal(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000), 6000);
  assert.equal(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 20_000), 0);
  assert.equal(parseRetryAfter('soon', 0), null);
  assert.equal(parseRetryAfter('-1', 0), null);
  assert.equal(parseRetryAfter(null, 0), null);
});
