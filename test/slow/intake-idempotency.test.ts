// Idempotency of POST /v1/entries (docs/api.md#entry-submission),
// and the group committer giving exactly the results of one-transaction-per-request commits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import {
  entryBody,
  makeCampaign,
  makePrize,
  rawRequest,
  startTestServer,
  type TestResponse,
  type TestServer,
  type World,
  OPERATOR,
} from '../support/harness.ts';

let s: TestServer;
before(async () => {
  // Over a socket: some keys are written byte for byte on the wire, and one body is held open.
  s = await startTestServer({ socket: true });
});
after(() => s.close());

const count = (sql: string, ...params: unknown[]): number =>
  (s.ctx.db.prepare(`SELECT count(*) AS n FROM ${sql}`).get(...params) as { n: number }).n;
const post = (key: string, idempotencyKey: string, body: unknown, server: TestServer = s): Promise<TestResponse> =>
  server.request('POST', '/v1/entries', { key, idempotencyKey, body });

describe('replays', () => {
  test('a replay answers 202 with the original entry_id, its current status and a replay message', async () => {
    const w = makeCampaign(s.ctx);
    const first = await post(w.liveKey, 'order-1', entryBody({}, 0));
    assert.equal(first.status, 202);
    assert.equal(first.body.status, 'PENDING');
    assert.doesNotMatch(first.body.message, /replay/i);
    assert.equal(first.headers.get('idempotent-replayed'), null, 'a new entry is not marked');
    const replay = await post(w.liveKey, 'order-1', entryBody({}, 0));
    assert.equal(replay.status, 202);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true', 'replays are marked');
    assert.deepEqual(Object.keys(replay.body).sort(), ['entry_id', 'message', 'status']);
    assert.equal(replay.body.entry_id, first.body.entry_id);
    assert.equal(replay.body.status, 'PENDING');
    assert.match(replay.body.message, /already exists/);
    assert.match(replay.body.message, /replay/);

    // Processing moves the entry on; a replay reports where it is now.
    s.ctx.db.prepare("UPDATE entries SET status = 'APPROVED' WHERE id = ?").run(first.body.entry_id);
    const later = await post(w.liveKey, 'order-1', entryBody({}, 0));
    assert.equal(later.body.entry_id, first.body.entry_id);
    assert.equal(later.body.status, 'APPROVED');
    assert.equal(count('entries WHERE campaign_id = ?', w.campaign.id), 1);
  });

  test('a replay with a different payload returns the original entry and stores nothing of the new one', async () => {
    const w = makeCampaign(s.ctx);
    const first = await post(w.liveKey, 'k', entryBody({ enrollment: { full_name: 'Maria da Silva' } }, 1));
    const tables = ['entries', 'enrollments', 'consents', 'jobs', 'webhook_deliveries'];
    const snapshot = (): number[] => tables.map((t) => count(t));
    const before = snapshot();
    const enrollment = s.ctx.db.prepare('SELECT * FROM enrollments WHERE campaign_id = ?').all(w.campaign.id);
    for (const body of [
      entryBody({ enrollment: { email: 'new@example.com', phone: '5511987654321' }, consent: { term_version: 'v9' } }, 1),
      entryBody({}, 2),
      entryBody({ evidence: { access_key: makeAccessKey({ model: '99' }) } }, 3),
      { totally: 'different' },
    ]) {
      const replay = await post(w.liveKey, 'k', body);
      assert.equal(replay.status, 202, replay.text);
      assert.equal(replay.body.entry_id, first.body.entry_id);
      assert.equal(replay.body.status, 'PENDING');
    }
    // Not even a malformed body or a wrong content type: the key is known, the payload ignored.
    const raw = await s.request('POST', '/v1/entries', {
      key: w.liveKey,
      idempotencyKey: 'k',
      raw: '{oops',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(raw.status, 202);
    assert.equal(raw.body.entry_id, first.body.entry_id);
    assert.deepEqual(snapshot(), before);
    assert.deepEqual(s.ctx.db.prepare('SELECT * FROM enrollments WHERE campaign_id = ?').all(w.campaign.id), enrollment);
  });

  test('a fail-fast REJECTED entry replays as REJECTED', async () => {
    const w = makeCampaign(s.ctx);
    const first = await post(w.liveKey, 'bad-key', entryBody({ evidence: { access_key: makeAccessKey({ uf: '00' }) } }, 4));
    assert.equal(first.body.status, 'REJECTED');
    const replay = await post(w.liveKey, 'bad-key', entryBody({}, 4));
    assert.equal(replay.status, 202);
    assert.equal(replay.body.entry_id, first.body.entry_id);
    assert.equal(replay.body.status, 'REJECTED');
    assert.match(replay.body.message, /replay/);
  });

  test('a refused request does not consume its key: a corrected retry creates the entry', async () => {
    const w = makeCampaign(s.ctx, { require: 'email' });
    const refused = await post(w.liveKey, 'fix-me', entryBody({}, 5));
    assert.equal(refused.status, 422);
    const retry = await post(w.liveKey, 'fix-me', entryBody({ enrollment: { email: 'fixed@example.com' } }, 5));
    assert.equal(retry.status, 202);
    assert.doesNotMatch(retry.body.message, /replay/);
    const replay = await post(w.liveKey, 'fix-me', entryBody({}, 5));
    assert.equal(replay.body.entry_id, retry.body.entry_id);
  });

  test('keys are compared exactly: case and surrounding characters make another key', async () => {
    const w = makeCampaign(s.ctx);
    const ids = new Set<string>();
    for (const key of ['Order-7', 'order-7', 'order-7 ', 'order-7\u00e9']) {
      const res = await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody({}, 6), headers: { 'idempotency-key': key } });
      assert.equal(res.status, 202, `${JSON.stringify(key)}: ${res.text}`);
      ids.add(res.body.entry_id);
    }
    // fetch/undici trims the trailing space of a header value, so 'order-7 ' is 'order-7' on the wire.
    assert.equal(ids.size, 3);
  });
});

describe('the Idempotency-Key header as sent on the wire', () => {
  // Header bytes written as they are: UTF-8 for a key typed in a terminal (curl), Latin-1 for what
  // fetch sends, and the header line twice.
  const postRaw = (w: World, keyLines: Buffer[], i: number) => {
    const head = [`POST /v1/entries HTTP/1.1`, 'Host: ces', `Authorization: Bearer ${w.liveKey}`, 'Content-Type: application/json'];
    const lines = keyLines.map((bytes) => `Idempotency-Key: ${bytes.toString('latin1')}`);
    return rawRequest(s.url, [...head, ...lines], JSON.stringify(entryBody({}, i)));
  };
  const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
  const entriesWithKey = (key: string): number => count('entries WHERE idempotency_key = ?', key);

  test('a key of 128 characters is accepted however many bytes they take in UTF-8, and stored as the text sent', async () => {
    const w = makeCampaign(s.ctx);
    const key = '\u00e9'.repeat(127) + '\u{1F600}'; // 128 characters, 258 bytes
    const ok = await postRaw(w, [utf8(key)], 30);
    assert.equal(ok.status, 202, ok.text);
    assert.equal(entriesWithKey(key), 1);
    const long = await postRaw(w, [utf8('\u00e9'.repeat(129))], 31);
    assert.equal(long.status, 422, long.text);
    assert.equal(JSON.parse(long.text).code, 'idempotency_key_invalid');
    assert.equal(entriesWithKey('\u00e9'.repeat(129)), 0);
  });

  test('one key sent as UTF-8 (curl) or as Latin-1 (fetch) names one entry', async () => {
    const w = makeCampaign(s.ctx);
    const first = await postRaw(w, [utf8('pedido-caf\u00e9-1')], 32);
    assert.equal(first.status, 202, first.text);
    const again = await post(w.liveKey, 'pedido-caf\u00e9-1', entryBody({}, 32)); // fetch: the byte E9
    assert.equal(again.status, 202, again.text);
    assert.equal(again.body.entry_id, JSON.parse(first.text).entry_id);
    assert.match(again.body.message, /replay/);
    assert.equal(entriesWithKey('pedido-caf\u00e9-1'), 1);
  });

  test('the header sent twice is refused, whether the two keys differ or are both empty; nothing is stored', async () => {
    const w = makeCampaign(s.ctx);
    for (const pair of [
      ['r1', 'r2'],
      ['', ''],
      ['same', 'same'],
    ]) {
      const res = await postRaw(w, pair.map(utf8), 33);
      assert.equal(res.status, 422, `${JSON.stringify(pair)}: ${res.text}`);
      assert.equal(JSON.parse(res.text).code, 'idempotency_key_invalid');
    }
    assert.equal(count('entries WHERE campaign_id = ?', w.campaign.id), 0);
    // One header line whose key contains a comma is one key.
    const comma = await postRaw(w, [utf8('order 7, line 2')], 33);
    assert.equal(comma.status, 202, comma.text);
    assert.equal(entriesWithKey('order 7, line 2'), 1);
  });
});

describe('idempotency scope is (campaign, mode, Idempotency-Key)', () => {
  test('the same key in test and live mode creates two distinct entries', async () => {
    const w = makeCampaign(s.ctx);
    const live = await post(w.liveKey, 'shared', entryBody({}, 7));
    const test = await post(w.testKey, 'shared', entryBody({}, 7));
    assert.equal(live.status, 202);
    assert.equal(test.status, 202);
    assert.notEqual(live.body.entry_id, test.body.entry_id);
    assert.doesNotMatch(test.body.message, /replay/);
    assert.equal((await post(w.liveKey, 'shared', entryBody({}, 7))).body.entry_id, live.body.entry_id);
    assert.equal((await post(w.testKey, 'shared', entryBody({}, 7))).body.entry_id, test.body.entry_id);
  });

  test('the same key in two campaigns creates two distinct entries', async () => {
    const a = makeCampaign(s.ctx);
    const b = makeCampaign(s.ctx);
    const ra = await post(a.liveKey, 'shared', entryBody({}, 7));
    const rb = await post(b.liveKey, 'shared', entryBody({}, 7));
    assert.equal(rb.status, 202);
    assert.notEqual(ra.body.entry_id, rb.body.entry_id);
    assert.doesNotMatch(rb.body.message, /replay/);
  });

  test('two keys of the same campaign and mode share the scope', async () => {
    const w = makeCampaign(s.ctx);
    const { issueKey } = await import('../../src/keys/keys.ts');
    const second = issueKey(s.ctx, { campaignId: w.campaign.id, mode: 'live' }, OPERATOR).key;
    const first = await post(w.liveKey, 'one-scope', entryBody({}, 0));
    const replay = await post(second, 'one-scope', entryBody({}, 0));
    assert.equal(replay.body.entry_id, first.body.entry_id);
    assert.match(replay.body.message, /replay/);
  });
});

describe('concurrent requests with one key', () => {
  async function race(w: World, key: string, n: number, body: (i: number) => unknown): Promise<TestResponse[]> {
    return Promise.all(Array.from({ length: n }, (_, i) => post(w.liveKey, key, body(i))));
  }
  function assertOneEntry(w: World, key: string, responses: TestResponse[]): string {
    const ids = new Set<string>();
    for (const r of responses) {
      if (r.status === 202) {
        ids.add(r.body.entry_id);
        // The one request that created the entry is unmarked; every 202 that reported it is marked.
        assert.equal(r.headers.get('idempotent-replayed') === 'true', /replay/.test(r.body.message), r.text);
      } else {
        assert.equal(r.status, 409, r.text);
        assert.equal(r.body.code, 'idempotency_conflict');
        assert.equal(r.headers.get('retry-after'), '1');
      }
    }
    assert.equal(ids.size, 1, `all 202s carry one entry_id: ${[...ids].join(', ')}`);
    assert.ok(
      responses.filter((r) => r.status === 202 && r.headers.get('idempotent-replayed') === null).length <= 1,
      'at most one answer created the entry',
    );
    assert.equal(count('entries WHERE campaign_id = ? AND idempotency_key = ?', w.campaign.id, key), 1);
    return [...ids][0];
  }

  test('20 identical requests at once create exactly one entry; every answer is that entry (202) or a 409 conflict', async () => {
    const w = makeCampaign(s.ctx);
    const responses = await race(w, 'burst', 20, () => entryBody({}, 8));
    const id = assertOneEntry(w, 'burst', responses);
    assert.ok(responses.some((r) => r.status === 202));
    assert.equal(count('enrollments WHERE campaign_id = ?', w.campaign.id), 1);
    assert.equal(count('consents c JOIN entries e ON e.id = c.entry_id WHERE e.campaign_id = ?', w.campaign.id), 1);
    assert.equal(count('jobs j JOIN entries e ON e.id = j.entry_id WHERE e.campaign_id = ?', w.campaign.id), 1);
    // Once the dust settles, a retry is a plain replay.
    const retry = await post(w.liveKey, 'burst', entryBody({}, 8));
    assert.equal(retry.status, 202);
    assert.equal(retry.body.entry_id, id);
  });

  test('20 requests at once with one key and different participants store exactly one of them', async () => {
    const w = makeCampaign(s.ctx);
    const responses = await race(w, 'mixed', 20, (i) => entryBody({ enrollment: { email: `p${i}@example.com` } }, i));
    assertOneEntry(w, 'mixed', responses);
    assert.equal(count('enrollments WHERE campaign_id = ?', w.campaign.id), 1);
  });

  test('requests with one key arriving while the first is still being read get 409 idempotency_conflict', async () => {
    const w = makeCampaign(s.ctx);
    // Hold the first request's body open so it stays "being read" while the second arrives.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const body = JSON.stringify(entryBody({}, 9));
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, 10)));
        await gate;
        controller.enqueue(new TextEncoder().encode(body.slice(10)));
        controller.close();
      },
    });
    const slow = fetch(`${s.url}/v1/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.liveKey}`, 'idempotency-key': 'slow', 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    // Poll until the server has started on the slow request (it holds the key in flight).
    let second: TestResponse | undefined;
    for (let i = 0; i < 200 && second?.status !== 409; i++) {
      second = await post(w.liveKey, 'slow', entryBody({}, 9));
      assert.notEqual(second.status, 202, 'nothing may be committed while the first body is open');
    }
    assert.equal(second?.status, 409);
    assert.equal(second?.body.code, 'idempotency_conflict');
    release();
    const first = await slow;
    assert.equal(first.status, 202);
    const firstBody = (await first.json()) as { entry_id: string };
    const after = await post(w.liveKey, 'slow', entryBody({}, 9));
    assert.equal(after.status, 202);
    assert.equal(after.body.entry_id, firstBody.entry_id);
  });
});

describe('batched (group commit) and unbatched commits give identical results', () => {
  // One scripted sequence, run against a server of each kind. Steps in one group are sent at once.
  type Step = { world: 'a' | 'b' | 'declared'; mode?: 'live' | 'test'; key: string | null; body: (ctx: { prizeId: string }) => unknown };
  const seqStep = (world: Step['world'], key: string | null, body: Step['body'], mode: Step['mode'] = 'live'): Step[] => [
    { world, key, body, mode },
  ];
  const group = (steps: Step[]): Step[] => steps;
  const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
  const script: Array<{ parallel: boolean; steps: Step[] }> = [
    { parallel: false, steps: seqStep('a', 'k1', () => entryBody({ enrollment: { email: 'one@example.com' } }, 0)) },
    { parallel: false, steps: seqStep('a', 'k1', () => entryBody({ enrollment: { full_name: 'Changed Name' } }, 1)) },
    { parallel: false, steps: seqStep('a', 'k2', () => entryBody({ enrollment: { email: 'ONE@example.com' } }, 1)) },
    { parallel: false, steps: seqStep('a', 'k2', () => entryBody({ enrollment: { email: 'two@example.com' } }, 1)) },
    { parallel: false, steps: seqStep('a', 'k3', () => entryBody({ evidence: { access_key: makeAccessKey({ model: '01' }) } }, 2)) },
    { parallel: false, steps: seqStep('a', 'k3', () => entryBody({}, 2)) },
    { parallel: false, steps: seqStep('a', 'k4', () => entryBody({ enrollment: { document_number: '111.111.111-11' } }, 3)) },
    { parallel: false, steps: seqStep('a', null, () => entryBody({}, 3)) },
    { parallel: false, steps: seqStep('a', 'k1', () => entryBody({}, 0), 'test') },
    { parallel: false, steps: seqStep('b', 'k1', () => entryBody({}, 0)) },
    {
      parallel: false,
      steps: seqStep('declared', 'w1', ({ prizeId }) => entryBody({ instant_win: { won: true, prize_definition_id: prizeId } }, 4)),
    },
    {
      parallel: false,
      steps: seqStep('declared', 'w2', () =>
        entryBody({ instant_win: { won: true, prize_definition_id: '00000000-0000-4000-8000-000000000000' } }, 5),
      ),
    },
    { parallel: false, steps: seqStep('declared', 'w3', () => entryBody({ instant_win: { won: false } }, 5)) },
    { parallel: false, steps: seqStep('a', 'k5', () => entryBody({ instant_win: { won: false } }, 6)) },
    // distinct keys and participants at once: all accepted
    { parallel: true, steps: group(range(12).map((i) => ({ world: 'a', key: `p-${i}`, body: () => entryBody({}, 10 + i) }))) },
    // distinct participants claiming one phone at once: exactly one gets it
    {
      parallel: true,
      steps: group(
        range(6).map((i) => ({ world: 'b', key: `ph-${i}`, body: () => entryBody({ enrollment: { phone: '5511912340000' } }, 30 + i) })),
      ),
    },
    // one new participant, several keys at once: one enrollment, every entry accepted
    {
      parallel: true,
      steps: group(
        range(6).map((i) => ({ world: 'b', key: `same-${i}`, body: () => entryBody({ enrollment: { full_name: `Name ${i}xx` } }, 40) })),
      ),
    },
    // replays of earlier keys mixed with new ones at once
    {
      parallel: true,
      steps: group([
        ...range(4).map((i): Step => ({ world: 'a', key: `p-${i}`, body: () => entryBody({}, 50 + i) })),
        ...range(4).map((i): Step => ({ world: 'a', key: `q-${i}`, body: () => entryBody({}, 50 + i) })),
      ]),
    },
    // one key, many requests at once
    { parallel: true, steps: group(range(20).map(() => ({ world: 'a', key: 'storm', body: () => entryBody({}, 60) }))) },
  ];

  async function runScript(server: TestServer, blocks = script): Promise<{ outcomes: string[]; rows: Record<string, number> }> {
    const worlds = {
      a: makeCampaign(server.ctx),
      b: makeCampaign(server.ctx),
      declared: makeCampaign(server.ctx, { instantPrize: 'INTEGRATOR_DECLARED' }),
    };
    const prizeId = makePrize(server.ctx, worlds.declared.campaign.id, 'live').id;
    const firstSeen = new Map<string, number>();
    let n = 0;
    const describe = (res: TestResponse, index: number): string => {
      if (res.status !== 202) return `${res.status} ${res.body?.code}`;
      const seen = firstSeen.get(res.body.entry_id);
      if (seen === undefined) firstSeen.set(res.body.entry_id, index);
      const kind = seen === undefined ? 'new' : /replay/.test(res.body.message) ? `replay of #${seen}` : `same as #${seen}`;
      return `202 ${res.body.status} ${kind}`;
    };
    const send = (step: Step): Promise<TestResponse> => {
      const w = worlds[step.world];
      return server.request('POST', '/v1/entries', {
        key: step.mode === 'test' ? w.testKey : w.liveKey,
        idempotencyKey: step.key,
        body: step.body({ prizeId }),
      });
    };
    const outcomes: string[] = [];
    for (const block of blocks) {
      if (!block.parallel) {
        const index = n++;
        outcomes.push(describe(await send(block.steps[0]), index));
        continue;
      }
      const responses = await Promise.all(block.steps.map(send));
      const base = n;
      n += responses.length;
      // Arrival order inside a group is up to the network: compare the group as a sorted multiset,
      // and a one-key storm as "one entry, answered 202 or 409".
      const keys = new Set(block.steps.map((st) => st.key));
      if (keys.size === 1) {
        const ids = new Set(responses.filter((r) => r.status === 202).map((r) => r.body.entry_id));
        const others = responses.filter((r) => r.status !== 202).map((r) => `${r.status} ${r.body.code}`);
        assert.ok(
          others.every((o) => o === '409 idempotency_conflict'),
          others.join(),
        );
        outcomes.push(`storm: ${ids.size} entry`);
        for (const id of ids) if (!firstSeen.has(id)) firstSeen.set(id, base);
      } else {
        outcomes.push(
          `group: ${responses
            .map((r, i) => describe(r, base + i).replace(/#\d+/, (m) => (Number(m.slice(1)) >= base ? '#group' : m)))
            .sort()
            .join(' | ')}`,
        );
      }
    }
    const rows = Object.fromEntries(
      ['entries', 'enrollments', 'consents', 'jobs', 'awards', 'award_history', 'webhook_deliveries'].map((t) => [
        t,
        (server.ctx.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n,
      ]),
    );
    return { outcomes, rows };
  }

  test('the same scripted sequence gives the same statuses, codes, replay pattern and row counts', async () => {
    const batched = await startTestServer({ seed: 77 });
    const unbatched = await startTestServer({ seed: 77, groupCommit: false });
    try {
      const a = await runScript(batched);
      const b = await runScript(unbatched);
      assert.deepEqual(a.outcomes, b.outcomes);
      assert.deepEqual(a.rows, b.rows);
      // And the sequence itself means what the spec says.
      assert.deepEqual(a.outcomes.slice(0, 14), [
        '202 PENDING new',
        '202 PENDING replay of #0',
        '422 email_taken',
        '202 PENDING new',
        '202 REJECTED new',
        '202 REJECTED replay of #4',
        '422 invalid_document',
        '422 idempotency_key_missing',
        '202 PENDING new',
        '202 PENDING new',
        '202 PENDING new',
        '422 unknown_prize',
        '202 PENDING new',
        '422 instant_win_not_allowed',
      ]);
      assert.equal(a.outcomes[14], `group: ${Array(12).fill('202 PENDING new').join(' | ')}`);
      assert.equal(a.outcomes[15], `group: 202 PENDING new | ${Array(5).fill('422 phone_taken').join(' | ')}`);
      assert.equal(a.outcomes[16], `group: ${Array(6).fill('202 PENDING new').join(' | ')}`);
      assert.equal(
        a.outcomes[17],
        `group: ${[...Array(4).fill('202 PENDING new'), '202 PENDING replay of #14', '202 PENDING replay of #15', '202 PENDING replay of #16', '202 PENDING replay of #17'].sort().join(' | ')}`,
      );
      assert.equal(a.outcomes[18], 'storm: 1 entry');
    } finally {
      await batched.close();
      await unbatched.close();
    }
  });
});
