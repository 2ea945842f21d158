// Hostile input at every endpoint (fast-check): arbitrary JSON, wrong types at each field of a valid
// body, prototype-pollution keys, 10k-deep nesting (arrays 30k deep inside a field too), huge
// strings, invalid UTF-8, wrong or missing content types, odd Idempotency-Keys, odd ids in the path.
// The rules: never a 5xx; every error is problem+json with a stable snake_case `code`; a rejected
// request changes no row (a checksum of every table before and after); Object.prototype is
// untouched; the server is healthy afterwards.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { entryBody, makeCampaign, makePrize, startTestServer, type TestServer, type World } from './support/harness.ts';

interface Endpoint {
  method: string;
  path: (entryId: string) => string;
  /** Takes a JSON body. */
  body: boolean;
  idempotency?: boolean;
}

// Every endpoint of docs/api.md#api-overview plus the entry read; entry-scoped ones get a real or a
// hostile id.
const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: () => '/v1/entries', body: true, idempotency: true },
  { method: 'GET', path: (id) => `/v1/entries/${id}`, body: false },
  { method: 'POST', path: (id) => `/v1/entries/${id}/lucky-numbers`, body: true },
  { method: 'GET', path: () => '/v1/prizes', body: false },
  { method: 'POST', path: (id) => `/v1/entries/${id}/instant-prize/revoke`, body: true },
  { method: 'POST', path: (id) => `/v1/entries/${id}/instant-prize/reassign`, body: true },
  { method: 'GET', path: () => '/v1/webhook', body: false },
  { method: 'PATCH', path: () => '/v1/webhook', body: true },
];

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/problem+json',
  'APPLICATION/JSON',
  '',
  'application/json; charset=latin1',
  '*/*',
];

function deepNesting(levels: number, open: string, close: string): string {
  return open.repeat(levels) + '1' + close.repeat(levels);
}

/** Every path into a JSON value, for "wrong type at this field". */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const out: string[][] = [prefix];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function setAt(root: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(root) as Record<string, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string, unknown>;
  node[path[path.length - 1]] = replacement;
  return copy;
}

/** Body bytes: the interesting shapes an attacker or a broken client sends. */
function bodyArbitrary(valid: Record<string, unknown>, prizeId: string): fc.Arbitrary<Buffer | undefined> {
  const text = (a: fc.Arbitrary<string>) => a.map((s) => Buffer.from(s, 'utf8'));
  const validPaths = paths(valid);
  const wrongValue = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.string(),
    fc.constant([]),
    fc.constant({}),
    fc.array(fc.jsonValue(), { maxLength: 3 }),
    fc.constant('x'.repeat(70_000)),
  );
  return fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: text(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v))), weight: 4 },
    { arbitrary: text(fc.anything({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'undefined')), weight: 2 },
    // The valid body with one field (or the whole body) replaced by a wrong type.
    {
      arbitrary: text(fc.tuple(fc.constantFrom(...validPaths), wrongValue).map(([p, v]) => JSON.stringify(setAt(valid, p, v)))),
      weight: 6,
    },
    // Prototype-pollution keys at the top level and inside every object of a valid body.
    {
      arbitrary: text(
        fc
          .tuple(
            fc.constantFrom(...validPaths.filter((p) => p.length < 3)),
            fc.constantFrom(...POLLUTION_KEYS),
            fc.jsonValue({ maxDepth: 2 }),
          )
          .map(([p, key, v]) => {
            const json = JSON.stringify(setAt(valid, p, {}));
            const inject = `{"${key}":{"polluted":${JSON.stringify(v)},"is_active":true,"won":true}`;
            // Splice the key in as raw JSON text so JSON.parse creates an own "__proto__" property.
            return p.length === 0 ? `${inject},"x":1}` : json.replace(`"${p[p.length - 1]}":{}`, `"${p[p.length - 1]}":${inject}}`);
          }),
      ),
      weight: 4,
    },
    // Shapes with real-looking values for the other endpoints.
    {
      arbitrary: text(
        fc
          .record(
            {
              numbers: fc.array(
                fc.record({
                  series: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.string()),
                  order_number: fc.oneof(fc.integer({ min: -1, max: 100_001 }), fc.string()),
                }),
                { maxLength: 4 },
              ),
              prize_definition_id: fc.oneof(fc.constant(prizeId), fc.uuid(), fc.string(), fc.integer()),
              target_entry_id: fc.oneof(fc.uuid(), fc.string(), fc.constant(null)),
              endpoint_url: fc.oneof(
                fc.webUrl(),
                fc.constant('http://127.0.0.1/x'),
                fc.constant('https://169.254.169.254/latest'),
                fc.string(),
              ),
              is_active: fc.oneof(fc.boolean(), fc.string(), fc.integer()),
              reason: fc.oneof(fc.string(), fc.integer()),
            },
            { requiredKeys: [] },
          )
          .map((v) => JSON.stringify(v)),
      ),
      weight: 4,
    },
    {
      arbitrary: fc
        .constantFrom(
          deepNesting(10_000, '[', ']'),
          deepNesting(10_000, '{"a":', '}'),
          `{"enrollment":${deepNesting(10_000, '{"address":', '}')}}`,
        )
        .map((s) => Buffer.from(s)),
      weight: 2,
    },
    {
      arbitrary: fc.integer({ min: 60_000, max: 70_000 }).map((n) => Buffer.from(JSON.stringify({ ...valid, pad: 'p'.repeat(n) }))),
      weight: 1,
    },
    // Invalid UTF-8: lone continuation bytes, overlongs, surrogates, truncated sequences.
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom([0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0x80], [0xe2, 0x82]),
          fc.constantFrom(...validPaths.filter((p) => p.length === 2)),
        )
        .map(([bad, p]) => {
          const json = JSON.stringify(setAt(valid, p, 'MARK'));
          const [head, tail] = json.split('MARK');
          return Buffer.concat([Buffer.from(head), Buffer.from(bad), Buffer.from(tail)]);
        }),
      weight: 2,
    },
    { arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)), weight: 2 },
  );
}

const idArbitrary = (realIds: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...realIds), weight: 5 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.string({ maxLength: 50 }).map((s) => encodeURIComponent(s) || 'x'), weight: 2 },
    { arbitrary: fc.constantFrom('..%2F..%2Fetc', '%00', "1'%20OR%201=1--", '__proto__', 'constructor', 'a'.repeat(5000)), weight: 1 },
  );

const idempotencyArbitrary = fc.oneof(
  fc.constant(undefined),
  fc.constant(''),
  fc.uuid(),
  fc.string({ maxLength: 200 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x')),
  fc.constant('k'.repeat(129)),
  fc.constant('k'.repeat(5000)),
  fc.constant('caf\u00e9-latin1'),
);

function tableChecksum(s: TestServer): string {
  const hash = createHash('sha256');
  const tables = s.ctx.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as Array<{ name: string }>;
  for (const { name } of tables) {
    const rows = s.ctx.db
      .prepare(`SELECT * FROM "${name}"`)
      .all()
      .map((r) => JSON.stringify(r))
      .sort();
    hash.update(`${name}:${rows.length}\n${rows.join('\n')}\n`);
  }
  return hash.digest('hex');
}

describe('hostile input at every endpoint', () => {
  let s: TestServer;
  let w: World;
  let entryIds: string[];
  let prizeId: string;
  let cases = 0;
  const statuses = new Map<number, number>();

  before(async () => {
    s = await startTestServer({ env: { CES_RATE_LIMIT_RPS: '0', CES_AUTH_FAILURE_LIMIT: '0' } });
    w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'manual' });
    prizeId = makePrize(s.ctx, w.campaign.id, 'live', 5).id;
    entryIds = [];
    for (let i = 0; i < 3; i++) {
      const res = await s.request('POST', '/v1/entries', {
        key: w.liveKey,
        body: entryBody({ instant_win: { won: true, prize_definition_id: prizeId } }, i),
        idempotencyKey: `seed-${i}`,
      });
      assert.equal(res.status, 202, res.text);
      entryIds.push(res.body.entry_id);
    }
  });
  after(async () => {
    console.log(`hostile-input: ${cases} fuzz cases, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    await s.close();
  });

  async function send(
    ep: Endpoint,
    id: string,
    body: Buffer | undefined,
    contentType: string | undefined,
    idem: string | undefined,
    methodOverride?: string,
  ) {
    // In process (the app's own answers are what is tested; Node's limits are in limits.test.ts).
    const headers: Record<string, string> = { authorization: `Bearer ${w.liveKey}` };
    if (contentType !== undefined) headers['content-type'] = contentType;
    if (idem !== undefined) headers['idempotency-key'] = idem;
    const method = methodOverride ?? ep.method;
    const res = await s
      .fetch(ep.path(id), {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : (body as unknown as BodyInit),
      })
      .catch((error: Error) => {
        throw new Error(`fetch failed: ${String((error as { cause?: unknown }).cause ?? error)}`);
      });
    const text = await res.text();
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text };
  }

  function check(res: { status: number; contentType: string; text: string }, beforeSum: string, label: string): void {
    cases++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    assert.ok(res.status < 500, `${label}: got ${res.status} ${res.text.slice(0, 300)}`);
    if (res.status >= 400) {
      assert.match(res.contentType, /^application\/problem\+json/, `${label}: ${res.status} without problem+json`);
      const body = JSON.parse(res.text);
      assert.equal(body.status, res.status, label);
      assert.match(String(body.code), /^[a-z][a-z0-9_]*$/, `${label}: code ${body.code}`);
      assert.equal(tableChecksum(s), beforeSum, `${label}: a rejected request (${res.status} ${body.code}) changed rows`);
    }
  }

  for (const ep of ENDPOINTS) {
    test(`${ep.method} ${ep.path(':id')}: arbitrary bodies, content types, headers and ids never give a 5xx or change rows when rejected`, async () => {
      const valid = entryBody({}, 7);
      await fc.assert(
        fc.asyncProperty(
          bodyArbitrary(valid, prizeId),
          fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
          idempotencyArbitrary,
          idArbitrary(entryIds),
          async (body, contentType, idem, id) => {
            const beforeSum = tableChecksum(s);
            const res = await send(ep, id, ep.body ? body : undefined, contentType, ep.idempotency ? idem : undefined);
            check(
              res,
              beforeSum,
              `${ep.method} ${ep.path(id).slice(0, 80)} ct=${contentType} body=${body?.subarray(0, 120).toString('latin1')}`,
            );
          },
        ),
        { numRuns: 45, seed: 6006 + ENDPOINTS.indexOf(ep), includeErrorInReport: true },
      );
    });
  }

  // Printing such a value for a message recursed once per level (src/tools/printable.ts): a 500 at
  // 5,000 levels, and at 30,000 the walk that guards printing overflowed and said "not valid JSON".
  test('a field holding arrays nested thousands deep is a 422 on that field, at every field and endpoint', async () => {
    const valid = entryBody({ instant_win: { won: false } }, 8);
    for (const levels of [5_000, 30_000]) {
      const deep = '['.repeat(levels) + ']'.repeat(levels);
      for (const path of paths(valid).filter((p) => p.length > 0)) {
        const label = `${levels} levels at ${path.join('.')}`;
        const json = JSON.stringify(setAt(valid, path, 'DEEP')).replace('"DEEP"', deep);
        const beforeSum = tableChecksum(s);
        const res = await send(ENDPOINTS[0], '', Buffer.from(json), 'application/json', `deep-${levels}-${path.join('.')}`);
        check(res, beforeSum, label);
        assert.equal(res.status, 422, `${label}: ${res.text.slice(0, 300)}`);
        const body = JSON.parse(res.text);
        assert.equal(body.code, 'validation_failed', label);
        assert.ok(
          body.errors.some((e: { field: string }) => e.field === path.join('.')),
          `${label}: ${res.text.slice(0, 300)}`,
        );
      }
      const others: Array<[Endpoint, string]> = [
        [ENDPOINTS[2], `{"numbers":[{"series":${deep},"order_number":"00001"}]}`],
        [ENDPOINTS[4], `{"reason":${deep}}`],
        [ENDPOINTS[5], `{"prize_definition_id":${deep}}`],
        [ENDPOINTS[7], `{"endpoint_url":${deep},"is_active":true}`],
      ];
      for (const [ep, json] of others) {
        const beforeSum = tableChecksum(s);
        const res = await send(ep, entryIds[1], Buffer.from(json), 'application/json', undefined);
        check(res, beforeSum, `${ep.method} ${ep.path(':id')} with ${levels} levels`);
      }
    }
  });

  test('wrong methods, no key and malformed Authorization headers are problem+json too', async () => {
    const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
    for (const ep of ENDPOINTS) {
      for (const method of methods) {
        const beforeSum = tableChecksum(s);
        const res = await send(ep, entryIds[0], Buffer.from('{}'), 'application/json', 'm-1', method);
        if (method === ep.method) continue;
        check(res, beforeSum, `${method} ${ep.path(entryIds[0])}`);
        // A path that is served, asked with a method it does not serve: 405, never "no such endpoint".
        const served = ENDPOINTS.filter((other) => other.path('x') === ep.path('x')).map((other) => other.method);
        if (!served.includes(method)) {
          assert.equal(res.status, 405, `${method} ${ep.path(entryIds[0])}: ${res.text}`);
          assert.equal(JSON.parse(res.text).code, 'method_not_allowed');
        }
      }
      for (const auth of [
        '',
        'Bearer',
        'Bearer ',
        'Basic abc',
        `Bearer ${w.liveKey}x`,
        `Bearer ${'service_live_'.padEnd(5000, 'a')}`,
        `bearer\t${w.liveKey}`,
      ]) {
        const beforeSum = tableChecksum(s);
        const res = await s.fetch(ep.path(entryIds[0]), {
          method: ep.method,
          headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': 'a-1' },
          body: ep.method === 'GET' ? undefined : JSON.stringify(valid7()),
        });
        const out = { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
        check(out, beforeSum, `${ep.method} ${ep.path('x')} auth=${auth.slice(0, 30)}`);
        assert.equal(out.status, 401);
      }
    }
  });

  test('405 names the methods a path takes in Allow; an unknown path is 404', async () => {
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/v1/webhook', 'GET, HEAD, PATCH'],
      ['PUT', `/v1/entries/${entryIds[0]}`, 'GET, HEAD'],
      ['GET', `/v1/entries/${entryIds[0]}/instant-prize/reassign`, 'POST'],
      ['OPTIONS', '/v1/entries', 'POST'],
      ['POST', '/healthz', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await s.fetch(path, { method, headers: { authorization: `Bearer ${w.liveKey}` } });
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
      const body = (await res.json()) as { code: string; detail: string };
      assert.equal(body.code, 'method_not_allowed');
      assert.match(body.detail, new RegExp(`^${method} is not served on this endpoint`));
    }
    for (const path of ['/v1/nothing', `/v1/entries/${entryIds[0]}/other`, '/v1/entries/a/b/c/d']) {
      const res = await s.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${w.liveKey}` } });
      assert.equal(res.status, 404, path);
      assert.equal(((await res.json()) as { code: string }).code, 'not_found');
    }
  });

  test('afterwards Object.prototype is clean and the server still serves normal requests', async () => {
    assert.deepEqual(
      Object.getOwnPropertyNames(Object.prototype).filter((k) => ['polluted', 'is_active', 'won'].includes(k)),
      [],
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const read = await s.request('GET', `/v1/entries/${entryIds[0]}`, { key: w.liveKey });
    assert.equal(read.status, 200, read.text);
    const fresh = await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody({}, 20), idempotencyKey: 'after-fuzz' });
    assert.equal(fresh.status, 202, fresh.text);
    assert.equal((s.ctx.db.pragma('integrity_check') as Array<{ integrity_check: string }>)[0].integrity_check, 'ok');
    assert.ok(cases >= 300, `ran ${cases} cases`);
  });
});

function valid7(): Record<string, unknown> {
  return entryBody({}, 7);
}
