// The OpenAPI document: valid OpenAPI 3.1 by a real validator, covers exactly the routes the server
// registers, is the same over HTTP and from `ces openapi`, and tells the truth: real responses
// match the documented schemas and every problem code a request provokes is listed for its
// endpoint and status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { assert as assertStruct, type Struct } from 'superstruct';
import { createHttpApp } from '../src/http/app.ts';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from '../src/openapi/document.ts';
import { documentedOperations, documentedProblemCodes, errorCodesOf } from '../src/openapi/operations.ts';
import { EXAMPLES } from '../src/openapi/examples.ts';
import {
  AwardStruct,
  EntryAcceptedStruct,
  EntryCompletedEventStruct,
  EntryEvaluatedEventStruct,
  EntryReceivedEventStruct,
  EntryStruct,
  HealthStruct,
  LuckyNumbersAssignedStruct,
  PrizeStruct,
  ProblemStruct,
  WebhookConfigCreatedStruct,
  WebhookConfigStruct,
} from '../src/openapi/schemas.ts';
import {
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  ROOT,
  runCli,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './support/harness.ts';

type AnyStruct = Struct<any, any>;

/** h3 route pattern -> OpenAPI path template. */
const toTemplate = (route: string): string => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('OpenAPI document', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(buildOpenApiDocument());
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
  });

  test('documents exactly the routes the server registers, with every method', () => {
    const app = createHttpApp(s.server.service) as unknown as { '~routes': Array<{ method: string; route: string }> };
    // The operator dashboard's HTML pages (docs/operations.md, Dashboard) are not the integrator API.
    const served = app['~routes']
      .filter((r) => !r.route.startsWith('/dashboard'))
      .map((r) => `${r.method} ${toTemplate(r.route)}`)
      .sort();
    const documented = documentedOperations()
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    assert.ok(served.length >= 11, `expected the full route table, got ${served.join(', ')}`);
    assert.deepEqual(documented, served);
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, unknown>>;
    for (const op of documentedOperations())
      assert.ok(paths[op.path]?.[op.method.toLowerCase()], `${op.method} ${op.path} missing from paths`);
  });

  test('GET /openapi.json and `ces openapi` serve the same document, without authentication', async () => {
    const res = await s.request('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(res.body, buildOpenApiDocument());
    const cli = await runCli(['openapi']);
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(JSON.parse(cli.stdout), res.body);
  });

  test('every problem code the HTTP app can reach in the source is documented', () => {
    // The modules the server can run: src/http/app.ts and everything it imports, transitively; not
    // the dashboard, whose errors are operator pages (test/dashboard-*.test.ts), not problem+json.
    const reachable = new Set<string>();
    const visit = (file: string): void => {
      if (reachable.has(file) || file.startsWith(join(ROOT, 'src/dashboard/'))) return;
      reachable.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(/^import [^;]*? from '(\.{1,2}\/[^']+\.ts)';/gm))
        visit(join(dirname(file), m[1]));
    };
    visit(join(ROOT, 'src/http/app.ts'));
    assert.ok(reachable.has(join(ROOT, 'src/mechanics/instant-prize.ts')) && reachable.size > 30, `walked ${reachable.size} modules`);
    // Codes in shared modules that only operator (CLI) input can trigger, never an HTTP request.
    const cliOnly = new Set([
      'delivery_pending',
      'delivery_skipped',
      'key_revoked',
      'invalid_campaign_options',
      'invalid_mode',
      'invalid_option',
      'invalid_prize',
      'invalid_window',
      // `ces webhook set` (src/webhooks/webhook-config.ts setWebhookConfig): a URL no delivery could reach.
      'webhook_url_refused',
      // The status of a request whose client hung up mid-body, or stalled until the server closed
      // it, for the log and metrics: never answered.
      'client_closed_request',
      'request_timeout',
      // Opening and migrating the database (src/db/open.ts, migrate.ts): a CLI command, or `ces serve` before it listens.
      'database_in_use',
      'database_not_found',
      'cannot_open_database',
      'not_a_ces_database',
      // The executable's SQLite addon made ready on the first open (src/binary/native-cache.ts): before `ces serve` listens.
      'native_module_unavailable',
      // Creating a private file (src/tools/private-files.ts): the database before `ces serve` listens, a backup, an export.
      'cannot_write_file',
      // After the draw (src/winners/, src/campaigns/campaigns.ts assertCampaignOpen): an operator's
      // step on a winner, or a change to a closed campaign; a closed campaign's entries are the 403 of registration.
      'campaign_closed',
      'winner_final',
      // A step's files (src/winners/attachments.ts, whose limits winner.updated documents): the CLI's and dashboard's.
      'invalid_attachment',
    ]);
    const raised = new Set<string>();
    for (const file of reachable) {
      for (const m of readFileSync(file, 'utf8').matchAll(/AppError\(\s*[45]\d\d,\s*'([a-z_]+)'/g)) raised.add(m[1]);
    }
    const documented = documentedProblemCodes();
    const missing = [...raised].filter((c) => !documented.has(c) && !cliOnly.has(c));
    assert.deepEqual(missing, [], 'raised by code the server runs but documented on no endpoint');
  });

  test('security, headers and webhook events are described', () => {
    const doc = buildOpenApiDocument() as any;
    assert.deepEqual(doc.components.securitySchemes.bearer, {
      type: 'http',
      scheme: 'bearer',
      description: doc.components.securitySchemes.bearer.description,
    });
    const create = doc.paths['/v1/entries'].post;
    assert.deepEqual(create.security, [{ bearer: [] }]);
    assert.ok(create.parameters.some((p: { $ref?: string }) => p.$ref === '#/components/parameters/IdempotencyKey'));
    assert.equal(doc.components.parameters.IdempotencyKey.schema.maxLength, 128);
    // docs/api.md#entry-submission: a replay's 202 carries Idempotent-Replayed: true
    // (test/slow/intake-idempotency.test.ts sends it).
    assert.deepEqual(create.responses['202'].headers['Idempotent-Replayed'], { $ref: '#/components/headers/IdempotentReplayed' });
    assert.deepEqual(doc.components.headers.IdempotentReplayed.schema, { type: 'string', enum: ['true'] });
    assert.deepEqual(doc.paths['/healthz'].get.security, [], 'operations endpoints take no API key');
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [
      'award.updated',
      'draw.published',
      'entry.completed',
      'entry.evaluated',
      'entry.received',
      'ping',
      'winner.updated',
    ]);
    for (const event of Object.values(doc.webhooks) as any[]) {
      assert.deepEqual(
        event.post.parameters.map((p: { name: string }) => p.name),
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      );
    }
    assert.deepEqual(doc.components.schemas.EntryReceivedEvent.required, [
      'id',
      'event_type',
      'created_at',
      'livemode',
      'campaign_id',
      'data',
    ]);
    // Every error response is problem+json with the endpoint's codes.
    const problem422 = create.responses['422'].content['application/problem+json'].schema;
    assert.deepEqual(problem422.allOf[0], { $ref: '#/components/schemas/Problem' });
    assert.ok(problem422.allOf[1].properties.code.enum.includes('idempotency_key_missing'));
  });

  test("speaks the integrator's words: no operator command or flag, and the ping says what it is in domain terms", () => {
    const doc = buildOpenApiDocument() as any;
    // Commands are written as code (`ces award revoke`, `ces --version`); flags anywhere.
    const commands = [...JSON.stringify(doc).matchAll(/`ces\b[^`]*`|--[a-z][a-z-]+/g)].map((m) => m[0]);
    assert.deepEqual(commands, [], "CLI commands are the operator's business");
    assert.equal(doc.webhooks.ping.post.summary, 'The test event an operator sends to check the endpoint and its signature check.');
    assert.equal(doc.paths['/openapi.json'].get.description, 'This OpenAPI 3.1 document, as the service prints it. No API key.');
    assert.match(doc.webhooks['award.updated'].post.summary, /\(an operator's revoke\)/);
    assert.equal(doc.components.schemas.Health.properties.versions.properties.ces.description, 'The release of ces.');
  });

  test('request bodies are the validating structs: required fields, enums and limits appear as enforced', () => {
    const schemas = (buildOpenApiDocument() as any).components.schemas;
    assert.deepEqual(schemas.EntrySubmission.required, ['enrollment', 'consent', 'evidence']);
    assert.deepEqual(schemas.EntrySubmission.properties.enrollment.required, ['document_number']);
    assert.deepEqual(schemas.EntrySubmission.properties.consent.properties.consents.type, ['array', 'null']);
    assert.deepEqual(schemas.EntrySubmission.properties.consent.properties.consents.items.properties.consent_type.enum, [
      'regulation',
      'privacy_policy',
      'marketing',
      'data_sharing',
      'image_use',
      'transactional',
      'other',
    ]);
    assert.equal(schemas.EntrySubmission.properties.enrollment.properties.birthdate.format, 'date');
    assert.deepEqual(schemas.LuckyNumbersSubmission.properties.numbers.items.properties.order_number.pattern, '^[0-9]{5}$');
    assert.equal(schemas.RevokeRequest.properties.reason.maxLength, 1000);
    assert.deepEqual(schemas.ReassignRequest.required, ['prize_definition_id']);
    assert.equal(schemas.WebhookPatch.properties.endpoint_url.maxLength, 2048);
    assert.equal(schemas.WebhookPatch.required, undefined, 'both PATCH fields are optional');
  });
});

describe('the document states every rule the server enforces', () => {
  const doc = buildOpenApiDocument() as any;
  const schemas = doc.components.schemas;
  const entry = schemas.EntrySubmission.properties;
  const nonNull = (schema: any) => schema.anyOf?.find((s: any) => s.type !== 'null') ?? schema;

  test("info.version is package.json's version", () => {
    assert.equal(doc.info.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  test('the entry body: patterns, enums, consts, lengths, formats and the instant_win coupling', () => {
    const e = entry.enrollment.properties;
    const address = nonNull(e.address).properties;
    const document = new RegExp(e.document_number.pattern, 'u');
    for (const ok of ['52998224725', '529.982.247-25', '12ABC34501DE35', '12.abc.345/01de-35']) assert.match(ok, document);
    for (const bad of ['5299822472', '529.982.247-2X', '12ABC34501DEXX', '']) assert.doesNotMatch(bad, document);
    assert.equal(e.full_name.minLength, 3);
    assert.equal(e.full_name.maxLength, 200);
    assert.match('+55 (11) 98765-4321', new RegExp(e.phone.pattern, 'u'));
    assert.doesNotMatch('phone: 11 98765', new RegExp(e.phone.pattern, 'u'));
    assert.equal(e.birthdate.format, 'date');
    assert.equal(address.state.enum.filter((v: unknown) => v !== null).length, 27);
    assert.ok(address.country.enum.includes('BR') && address.country.enum.length === 250, 'the 249 ISO codes and null');
    assert.deepEqual(entry.consent.properties.ip_address.anyOf, [
      { type: 'string', format: 'ipv4' },
      { type: 'string', format: 'ipv6' },
    ]);
    assert.equal(entry.consent.properties.granted_at.format, 'date-time');
    assert.equal(entry.consent.properties.consents.allOf.length, 7, 'each consent_type at most once');
    assert.equal(entry.evidence.properties.type.const, 'fiscal_key');
    assert.match(`${'3'.repeat(22)} ${'3'.repeat(22)}`, new RegExp(entry.evidence.properties.access_key.pattern, 'u'));
    const [won, lost, none] = entry.instant_win.oneOf;
    assert.deepEqual([won.properties.won.const, won.required], [true, ['won', 'prize_definition_id']]);
    // Lost: no prize_definition_id at all (the closed object refuses one), rather than one that can
    // only be null, which openapi-fetch reads as "never sent" and refuses the schema's own type for.
    assert.deepEqual([lost.properties.won.const, lost.required, lost.additionalProperties], [false, ['won'], false]);
    assert.equal('prize_definition_id' in lost.properties, false);
    assert.deepEqual(none, { type: 'null' });
    assert.match(schemas.WebhookPatch.properties.endpoint_url.pattern, /^\^\(\?:https:/);
    assert.equal(schemas.LuckyNumbersSubmission.properties.numbers.items.properties.series.pattern, '^[0-9]{1,9}$');
  });

  // Issue 43: the integrator's validators. One that leaves formats off (Ajv without ajv-formats,
  // many generated clients) must still take a good body: ip_address's two formats as a oneOf
  // would match twice there, which a oneOf refuses.
  test('a body the server takes is valid against the schema with formats off, ip_address v4 or v6, instant_win lost without a prize', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(doc, 'ces');
    const validate = ajv.compile({ $ref: 'ces#/components/schemas/EntrySubmission' });
    const body = entryBody({}, 1) as { consent: { ip_address: string } };
    for (const ip of ['203.0.113.7', '2001:db8::7']) {
      body.consent.ip_address = ip;
      assert.ok(validate(body), `${ip}: ${JSON.stringify(validate.errors)}`);
    }
    assert.ok(validate({ ...body, instant_win: { won: false } }), JSON.stringify(validate.errors));
    assert.equal(validate({ ...body, instant_win: { won: false, prize_definition_id: '0196a1b2-0000-7000-8000-000000000000' } }), false);
  });

  test('codes are enums of the real codes; mechanics narrow on mechanic_type', () => {
    const fieldCodes = schemas.Problem.properties.errors.items.properties.code.enum;
    for (const code of ['unknown_field', 'in_future', 'invalid_series', 'invalid_order_number', 'duplicate', 'not_allowed'])
      assert.ok(fieldCodes.includes(code), code);
    assert.ok(!fieldCodes.includes('invalid_option'), 'operator input only');
    assert.ok(schemas.RejectionReason.properties.code.enum.includes('access_key_invalid_check_digit'));
    assert.deepEqual(schemas.MechanicResult.discriminator, {
      propertyName: 'mechanic_type',
      mapping: { lucky_numbers: '#/components/schemas/LuckyNumbersResult', instant_prize: '#/components/schemas/InstantPrizeResult' },
    });
    assert.equal(schemas.LuckyNumbersResult.properties.outcome.oneOf.length, 3);
    assert.equal(schemas.InstantPrizeResult.properties.outcome.oneOf.length, 2);
  });

  test('every operation lists the errors any operation can answer; webhooks need no API key', () => {
    for (const [path, item] of Object.entries(doc.paths) as Array<[string, Record<string, any>]>) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = Object.keys(op.responses);
        const expected = ['400', '500'];
        if (op.security.length > 0) expected.push('401', '429', '503');
        if (op.requestBody) expected.push('413', '415');
        for (const status of expected) assert.ok(statuses.includes(status), `${method} ${path} lists ${status}`);
      }
    }
    for (const event of Object.values(doc.webhooks) as any[]) assert.deepEqual(event.post.security, []);
  });

  test('every example recorded from the real run is in the document', () => {
    const shown = new Set<string>();
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      const examples = (node as { examples?: unknown }).examples;
      if (examples && !Array.isArray(examples)) for (const e of Object.values(examples)) shown.add(JSON.stringify(e));
      for (const child of Object.values(node)) walk(child);
    };
    walk(doc);
    for (const [name, example] of Object.entries(EXAMPLES)) assert.ok(shown.has(JSON.stringify(example)), name);
    assert.ok(Object.keys(EXAMPLES).length >= 25);
  });
});

describe('the document tells the truth about real traffic', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  /** Asserts a response against its documented success schema or, for errors, Problem + the listed codes. */
  function check(res: TestResponse, method: string, path: string, status: number, struct?: AnyStruct): void {
    assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
    if (status >= 400) {
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assertStruct(res.body, ProblemStruct);
      const codes = errorCodesOf(method, path)[status];
      assert.ok(
        codes?.includes(res.body.code),
        `${method} ${path} answered ${status} ${res.body.code}, documented: ${JSON.stringify(codes)}`,
      );
      if (status === 401) {
        // RFC 9110: a 401 carries a challenge, and the document declares it.
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="(ces|metrics)"/);
        const documented = (
          buildOpenApiDocument().paths as Record<
            string,
            Record<string, { responses: Record<string, { headers: Record<string, unknown> }> }>
          >
        )[path][method.toLowerCase()].responses['401'].headers;
        assert.ok(documented['WWW-Authenticate'], `${method} ${path}: 401 declares WWW-Authenticate`);
      }
    } else if (struct) {
      assertStruct(res.body, struct);
    }
    assert.ok(res.headers.get('x-request-id'), 'every response carries X-Request-Id');
  }

  test('entries, prizes, awards, lucky numbers and webhook configuration responses match their schemas', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'manual', luckyQuantity: 1 });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 5, 'Gift card');
    const other = makePrize(s.ctx, w.campaign.id, 'live', 5, 'Voucher');
    const E = '/v1/entries/{entry_id}';

    const created = await s.request('POST', '/v1/entries', {
      key: w.liveKey,
      idempotencyKey: 'oa-1',
      body: entryBody({ instant_win: { won: true, prize_definition_id: prize.id } }, 1),
    });
    check(created, 'POST', '/v1/entries', 202, EntryAcceptedStruct);
    const id = created.body.entry_id as string;
    check(await s.request('GET', `/v1/entries/${id}`, { key: w.liveKey }), 'GET', E, 200, EntryStruct);
    await drainAll(s);
    check(await s.request('GET', `/v1/entries/${id}`, { key: w.liveKey }), 'GET', E, 200, EntryStruct);
    // The events written for it (the exact bodies a receiver gets) match the documented envelopes.
    const events: Record<string, AnyStruct> = {
      'entry.received': EntryReceivedEventStruct,
      'entry.completed': EntryCompletedEventStruct,
      'entry.evaluated': EntryEvaluatedEventStruct,
    };
    const payloads = s.ctx.db
      .prepare(`SELECT event_type, payload FROM webhook_deliveries WHERE entry_id = ? ORDER BY seq`)
      .all(id) as Array<{ event_type: string; payload: string }>;
    assert.deepEqual(
      payloads.map((p) => p.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated'],
    );
    for (const p of payloads) assertStruct(JSON.parse(p.payload), events[p.event_type]);

    const prizes = await s.request('GET', '/v1/prizes', { key: w.liveKey });
    check(prizes, 'GET', '/v1/prizes', 200);
    assert.equal(prizes.body.length, 2);
    for (const p of prizes.body) assertStruct(p, PrizeStruct);

    check(
      await s.request('POST', `/v1/entries/${id}/lucky-numbers`, {
        key: w.liveKey,
        body: { numbers: [{ series: '0', order_number: '00042' }] },
      }),
      'POST',
      `${E}/lucky-numbers`,
      201,
      LuckyNumbersAssignedStruct,
    );
    check(
      await s.request('POST', `/v1/entries/${id}/instant-prize/reassign`, { key: w.liveKey, body: { prize_definition_id: other.id } }),
      'POST',
      `${E}/instant-prize/reassign`,
      200,
      AwardStruct,
    );
    check(
      await s.request('POST', `/v1/entries/${id}/instant-prize/revoke`, { key: w.liveKey, body: { reason: 'fraud' } }),
      'POST',
      `${E}/instant-prize/revoke`,
      200,
      AwardStruct,
    );

    check(
      await s.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://example.com/hooks' } }),
      'PATCH',
      '/v1/webhook',
      201,
      WebhookConfigCreatedStruct,
    );
    check(
      await s.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { is_active: false } }),
      'PATCH',
      '/v1/webhook',
      200,
      WebhookConfigStruct,
    );
    check(await s.request('GET', '/v1/webhook', { key: w.liveKey }), 'GET', '/v1/webhook', 200, WebhookConfigStruct);
    check(await s.request('GET', '/healthz'), 'GET', '/healthz', 200, HealthStruct);
  });

  test('every problem a request provokes is documented for its endpoint and status', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'manual', require: 'email' });
    const closed = makeCampaign(s.ctx, { startsAt: '2030-01-01T00:00:00Z' });
    const plain = makeCampaign(s.ctx);
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 5);
    const k = w.liveKey;
    const pending = (
      await s.request('POST', '/v1/entries', {
        key: k,
        idempotencyKey: 'p-1',
        body: entryBody({ enrollment: { email: 'a@example.com' } }, 2),
      })
    ).body.entry_id as string;
    const pendingWin = (
      await s.request('POST', '/v1/entries', {
        key: k,
        idempotencyKey: 'p-2',
        body: entryBody({ enrollment: { email: 'w@example.com' }, instant_win: { won: true, prize_definition_id: prize.id } }, 7),
      })
    ).body.entry_id as string;
    const missing = '00000000-0000-4000-8000-000000000000';
    const E = '/v1/entries/{entry_id}';
    const cases: Array<[string, string, string, number, Parameters<TestServer['request']>[2]]> = [
      ['POST', '/v1/entries', '/v1/entries', 401, { key: 'service_live_nope', idempotencyKey: 'x', body: entryBody() }],
      ['POST', '/v1/entries', '/v1/entries', 401, { key: null, idempotencyKey: 'x', body: entryBody() }],
      ['POST', '/v1/entries', '/v1/entries', 403, { key: closed.liveKey, idempotencyKey: 'x', body: entryBody() }],
      ['POST', '/v1/entries', '/v1/entries', 422, { key: k, body: entryBody() }],
      ['POST', '/v1/entries', '/v1/entries', 422, { key: k, idempotencyKey: 'x'.repeat(129), body: entryBody() }],
      ['POST', '/v1/entries', '/v1/entries', 422, { key: k, idempotencyKey: 'v-1', body: { enrollment: {} } }],
      [
        'POST',
        '/v1/entries',
        '/v1/entries',
        422,
        { key: k, idempotencyKey: 'v-2', body: entryBody({ enrollment: { document_number: '11111111111', email: 'b@example.com' } }) },
      ],
      ['POST', '/v1/entries', '/v1/entries', 422, { key: k, idempotencyKey: 'v-3', body: entryBody({}, 3) }],
      [
        'POST',
        '/v1/entries',
        '/v1/entries',
        422,
        { key: k, idempotencyKey: 'v-4', body: entryBody({ enrollment: { email: 'a@example.com' } }, 4) },
      ],
      [
        'POST',
        '/v1/entries',
        '/v1/entries',
        422,
        { key: plain.liveKey, idempotencyKey: 'v-5', body: entryBody({ instant_win: { won: false } }, 5) },
      ],
      [
        'POST',
        '/v1/entries',
        '/v1/entries',
        422,
        {
          key: k,
          idempotencyKey: 'v-6',
          body: entryBody({ enrollment: { email: 'c@example.com' }, instant_win: { won: true, prize_definition_id: missing } }, 6),
        },
      ],
      ['POST', '/v1/entries', '/v1/entries', 400, { key: k, idempotencyKey: 'v-7', raw: '{nope' }],
      ['POST', '/v1/entries', '/v1/entries', 415, { key: k, idempotencyKey: 'v-8', raw: '{}', headers: { 'content-type': 'text/plain' } }],
      ['POST', '/v1/entries', '/v1/entries', 413, { key: k, idempotencyKey: 'v-9', raw: JSON.stringify({ pad: 'x'.repeat(70_000) }) }],
      ['GET', `/v1/entries/${missing}`, E, 404, { key: k }],
      ['GET', `/v1/entries/${pending}`, E, 401, { key: 'service_test_nope' }],
      ['POST', `/v1/entries/${missing}/lucky-numbers`, `${E}/lucky-numbers`, 404, { key: k, body: { numbers: [] } }],
      ['POST', `/v1/entries/${pending}/lucky-numbers`, `${E}/lucky-numbers`, 409, { key: k, body: { numbers: [] } }],
      [
        'POST',
        `/v1/entries/${pending}/lucky-numbers`,
        `${E}/lucky-numbers`,
        415,
        { key: k, raw: '{}', headers: { 'content-type': 'text/plain' } },
      ],
      ['POST', `/v1/entries/${missing}/instant-prize/revoke`, `${E}/instant-prize/revoke`, 404, { key: k }],
      ['POST', `/v1/entries/${pendingWin}/instant-prize/revoke`, `${E}/instant-prize/revoke`, 422, { key: k }],
      ['POST', `/v1/entries/${pendingWin}/instant-prize/revoke`, `${E}/instant-prize/revoke`, 422, { key: k, body: { reason: 7 } }],
      ['POST', `/v1/entries/${pending}/instant-prize/reassign`, `${E}/instant-prize/reassign`, 422, { key: k, body: {} }],
      [
        'POST',
        `/v1/entries/${missing}/instant-prize/reassign`,
        `${E}/instant-prize/reassign`,
        404,
        { key: k, body: { prize_definition_id: prize.id } },
      ],
      ['GET', '/v1/webhook', '/v1/webhook', 404, { key: k }],
      ['PATCH', '/v1/webhook', '/v1/webhook', 422, { key: k, body: { endpoint_url: 'http://example.com/' } }],
      ['PATCH', '/v1/webhook', '/v1/webhook', 422, { key: k, body: { is_active: true } }],
      ['PATCH', '/v1/webhook', '/v1/webhook', 422, { key: k, body: { endpoint_url: 42 } }],
      ['GET', '/v1/prizes', '/v1/prizes', 401, { key: 'Bearer' }],
    ];
    for (const [method, url, template, status, options] of cases) {
      check(await s.request(method, url, options), method, template, status);
    }
  });
});
