// The shortest path through the product: an operator's campaign and key, one accepted entry, its
// replay, and the entry read back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { entryBody, makeCampaign, startTestServer, type TestServer, type World } from './support/harness.ts';

let s: TestServer;
let w: World;
before(async () => {
  s = await startTestServer();
  w = makeCampaign(s.ctx);
});
after(() => s.close());

test('an accepted entry is PENDING, replays with the same id and reads back', async () => {
  const first = await s.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'k-1', body: entryBody() });
  assert.equal(first.status, 202, first.text);
  assert.equal(first.body.status, 'PENDING');
  const replay = await s.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'k-1', body: entryBody({}, 1) });
  assert.equal(replay.status, 202);
  assert.equal(replay.body.entry_id, first.body.entry_id);
  assert.match(replay.body.message, /replay/);
  const read = await s.request('GET', `/v1/entries/${first.body.entry_id}`, { key: w.liveKey });
  assert.equal(read.status, 200);
  assert.equal(read.body.livemode, true);
  const other = await s.request('GET', `/v1/entries/${first.body.entry_id}`, { key: w.testKey });
  assert.equal(other.status, 404);
  assert.equal(other.headers.get('content-type'), 'application/problem+json; charset=utf-8');
});
