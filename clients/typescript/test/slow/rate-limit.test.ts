// submitEntry against a real `ces serve` whose per-key limit is one request a second
// (CES_RATE_LIMIT_RPS=1, CES_RATE_LIMIT_BURST=1): a 429 rate_limited is retried after the server's
// Retry-After, and succeeds; a 429 auth_rate_limited (a wrong key, CES_AUTH_FAILURE_LIMIT=2) is
// not retried. The bucket is emptied just before each call; should the machine stall long enough
// for it to refill (no 429 met), the round is run again, so a slow machine cannot fail the test.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CesApiError, generateEntry } from '../../src/index.ts';
import { startCes, type Ces } from '../support/ces.ts';

let ces: Ces;
before(async () => {
  ces = await startCes({ CES_RATE_LIMIT_RPS: '1', CES_RATE_LIMIT_BURST: '1', CES_AUTH_FAILURE_LIMIT: '2' });
});
after(() => ces?.close());

/** Sends GET /v1/prizes with `key` until the answer is a 429 of `code`. */
async function exhaust(key: string, code: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${ces.url}/v1/prizes`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { code?: string };
    if (res.status === 429 && body.code === code) return;
  }
  assert.fail(`no 429 ${code} after 100 requests`);
}

test('a 429 rate_limited: waits the Retry-After the server gave, then the entry is accepted', async () => {
  for (let round = 1; ; round++) {
    assert.ok(round <= 10, 'ten rounds without meeting the rate limit');
    const answers: Array<[number, string | null]> = [];
    const waits: number[] = [];
    const client = ces.client({
      fetch: async (request) => {
        const response = await fetch(request);
        answers.push([response.status, response.headers.get('retry-after')]);
        return response;
      },
      sleep: async (ms) => {
        waits.push(ms);
        await new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    await exhaust(ces.demo.key.key, 'rate_limited');
    const result = await client.submitEntry(generateEntry());
    if (answers[0]![0] !== 429) continue;
    assert.deepEqual(answers.at(-1), [202, null]);
    const limited = answers.slice(0, -1);
    assert.ok(
      limited.every(([status, retryAfter]) => status === 429 && retryAfter === '1'),
      JSON.stringify(answers),
    );
    assert.deepEqual(
      waits,
      limited.map(() => 1000),
      'each wait is the Retry-After of the 429 before it',
    );
    assert.equal(result.attempts, answers.length);
    assert.equal(result.status, 'PENDING');
    assert.equal(result.replayed, false);
    return;
  }
});

test('a 429 auth_rate_limited answers a wrong key: thrown at once, not retried', async () => {
  const wrongKey = `service_test_${'B'.repeat(43)}`;
  for (let round = 1; ; round++) {
    assert.ok(round <= 10, 'ten rounds without meeting the limit on failed authentications');
    const waits: number[] = [];
    const client = ces.client({ apiKey: wrongKey, sleep: async (ms) => void waits.push(ms) });
    await exhaust(wrongKey, 'auth_rate_limited');
    const error = await client.submitEntry(generateEntry()).catch((e: unknown) => e);
    assert.ok(error instanceof CesApiError);
    if (error.code === 'invalid_api_key') continue; // a token came back meanwhile
    assert.deepEqual({ status: error.status, code: error.code, waits }, { status: 429, code: 'auth_rate_limited', waits: [] });
    return;
  }
});
