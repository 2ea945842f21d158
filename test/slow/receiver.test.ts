import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { startReceiver, type Receiver } from '../support/receiver.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function signedHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

async function post(url: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers, body, ...(signal ? { signal } : {}) });
  await res.text();
  return res.status;
}

// Node reads NODE_EXTRA_CA_CERTS only at startup, and the environment may already point it at
// another bundle, so check that the fixture CA is really in the file it names.
before(() => {
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  const ca = readFileSync(new URL('../fixtures/tls/ca.pem', import.meta.url), 'utf8').trim();
  assert.ok(
    extra && existsSync(extra) && readFileSync(extra, 'utf8').includes(ca),
    `start node with NODE_EXTRA_CA_CERTS=test/fixtures/tls/ca.pem (it is ${JSON.stringify(extra)})`,
  );
});

describe('test webhook receiver', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('listens on https://127.0.0.1 with the fixture certificate', () => {
    assert.match(receiver.url, /^https:\/\/127\.0\.0\.1:\d+\/hooks$/);
  });

  it('verifies a delivery signed with the secret it was given', async () => {
    const secret = newSecret();
    receiver.setSecret(secret);
    const body = JSON.stringify({ id: 'evt_1', event_type: 'entry.received', data: { entry_id: 'e1' } });
    const status = await post(receiver.url, signedHeaders(secret, 'evt_1', new Date(), body), body);

    assert.equal(status, 200);
    const got = receiver.requests.at(-1)!;
    assert.equal(got.method, 'POST');
    assert.equal(got.path, '/hooks');
    assert.equal(got.body, body);
    assert.deepEqual(got.json, JSON.parse(body));
    assert.equal(got.headers['webhook-id'], 'evt_1');
    assert.equal(got.verified, true);
    assert.equal(got.verifyError, null);
    assert.equal(got.signatureMatches, true);
    assert.equal(got.status, 200);
  });

  it('does not verify a delivery signed with another secret', async () => {
    receiver.setSecret(newSecret());
    const body = JSON.stringify({ id: 'evt_2' });
    await post(receiver.url, signedHeaders(newSecret(), 'evt_2', new Date(), body), body);

    const got = receiver.requests.at(-1)!;
    assert.equal(got.verified, false);
    assert.equal(got.verifyError, 'No matching signature found');
    assert.equal(got.signatureMatches, false);
  });

  it('does not verify a body altered after signing', async () => {
    const secret = newSecret();
    receiver.setSecret(secret);
    const headers = signedHeaders(secret, 'evt_3', new Date(), '{"a":1}');
    await post(receiver.url, headers, '{"a":2}');
    assert.equal(receiver.requests.at(-1)!.verified, false);
  });

  it('tells a stale timestamp apart from a bad signature', async () => {
    const secret = newSecret();
    receiver.setSecret(secret);
    const body = '{"id":"evt_4"}';
    await post(receiver.url, signedHeaders(secret, 'evt_4', new Date(Date.now() - 3_600_000), body), body);

    const got = receiver.requests.at(-1)!;
    assert.equal(got.verified, false);
    assert.equal(got.verifyError, 'Message timestamp too old');
    assert.equal(got.signatureMatches, true);
  });

  it('reuses a keep-alive connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const once = () =>
      new Promise<boolean>((resolve, reject) => {
        const req = request(receiver.url, { method: 'POST', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(req.reusedSocket));
        });
        req.on('error', reject);
        req.end('{}');
      });
    try {
      assert.equal(await once(), false);
      assert.equal(await once(), true);
    } finally {
      agent.destroy();
    }
  });

  it('records null verification when no secret is set', async () => {
    const fresh = await startReceiver();
    try {
      await post(fresh.url, { 'content-type': 'text/plain' }, 'not json');
      const got = fresh.requests[0]!;
      assert.equal(got.verified, null);
      assert.equal(got.signatureMatches, null);
      assert.equal(got.json, undefined);
    } finally {
      await fresh.close();
    }
  });
});

describe('test webhook receiver: chosen responses', () => {
  it('answers the status respond() picks, per request', async () => {
    const receiver = await startReceiver({ respond: (req) => (req.json?.fail ? 503 : 204) });
    try {
      assert.equal(await post(receiver.url, {}, '{"fail":true}'), 503);
      assert.equal(await post(receiver.url, {}, '{"fail":false}'), 204);
      assert.deepEqual(
        receiver.requests.map((r) => r.status),
        [503, 204],
      );
    } finally {
      await receiver.close();
    }
  });

  it('accepts an async respond()', async () => {
    const receiver = await startReceiver({ respond: async () => 410 });
    try {
      assert.equal(await post(receiver.url, {}, '{}'), 410);
    } finally {
      await receiver.close();
    }
  });

  it('waitFor resolves on arrival, before a delayed response is sent', async () => {
    const receiver = await startReceiver({ respond: () => ({ status: 200, delayMs: 300 }) });
    try {
      const started = Date.now();
      const pending = post(receiver.url, {}, '{"n":1}');
      await receiver.waitFor((reqs) => reqs.length === 1);
      assert.ok(Date.now() - started < 300, 'arrival is visible before the delay ends');
      assert.equal(await pending, 200);
      assert.ok(Date.now() - started >= 300, 'the response waited for delayMs');
    } finally {
      await receiver.close();
    }
  });

  it('survives a client that gives up during the delay, and closes with it pending', async () => {
    const receiver = await startReceiver({ respond: () => ({ status: 200, delayMs: 60_000 }) });
    try {
      await assert.rejects(post(receiver.url, {}, '{}', AbortSignal.timeout(100)), { name: 'TimeoutError' });
      await receiver.waitFor((reqs) => reqs.length === 1);
    } finally {
      await receiver.close();
    }
  });

  it('waitFor rejects after its timeout, naming what arrived', async () => {
    const receiver = await startReceiver();
    try {
      await assert.rejects(
        receiver.waitFor((reqs) => reqs.length > 0, 50),
        /timed out after 50 ms with 0 request/,
      );
    } finally {
      await receiver.close();
    }
  });
});
