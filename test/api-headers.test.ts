// The headers every answer of the API carries (docs/api.md#api-overview), errors included: nothing
// cached (an answer holds a participant's entry or a key's campaign), nothing sniffed, and with an
// https public URL, Strict-Transport-Security as the dashboard sends it (issue 43, security review:
// /v1/* had none of them).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { entryBody, makeCampaign, startTestServer, type TestServer, type World } from './support/harness.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function world(env: Record<string, string> = {}): Promise<{ s: TestServer; w: World }> {
  const s = await startTestServer({ env });
  servers.push(s);
  return { s, w: makeCampaign(s.ctx) };
}

/** Answers of every kind: accepted, read, listed, refused (401, 404, 405, 415, 422) and an unknown path. */
async function answers(s: TestServer, w: World) {
  const accepted = await s.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'h-1', body: entryBody() });
  return [
    ['202 POST /v1/entries', accepted],
    ['200 GET /v1/entries/ID', await s.request('GET', `/v1/entries/${accepted.body.entry_id}`, { key: w.liveKey })],
    ['200 GET /v1/prizes', await s.request('GET', '/v1/prizes', { key: w.liveKey })],
    ['401 no key', await s.request('GET', '/v1/prizes')],
    ['404 an entry of another mode', await s.request('GET', `/v1/entries/${accepted.body.entry_id}`, { key: w.testKey })],
    ['405 DELETE /v1/entries', await s.request('DELETE', '/v1/entries', { key: w.liveKey })],
    ['422 an empty body', await s.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'h-2', body: {} })],
    ['404 an unknown path', await s.request('GET', '/v1/nothing-here', { key: w.liveKey })],
    ['200 /healthz', await s.request('GET', '/healthz')],
  ] as const;
}

describe('API answers', () => {
  test('every answer, errors included, carries nosniff and no-store; none HSTS with an http public URL', async () => {
    const { s, w } = await world();
    for (const [what, res] of await answers(s, w)) {
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
      assert.equal(res.headers.get('cache-control'), 'no-store', what);
      assert.equal(res.headers.get('strict-transport-security'), null, what);
    }
    // An answer that says how it may be cached keeps it.
    assert.equal((await s.request('GET', '/openapi.json')).headers.get('cache-control'), 'no-cache');
  });

  test('with an https public URL every answer carries Strict-Transport-Security', async () => {
    const { s, w } = await world({ CES_PUBLIC_URL: 'https://promo.example.com.br' });
    for (const [what, res] of await answers(s, w)) {
      assert.equal(res.headers.get('strict-transport-security'), 'max-age=31536000', what);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
    }
  });
});
