// The OpenAPI 3.1 document of ces (GET /openapi.json, `ces openapi`), built from the operations
// table (./operations.ts) and the components (./components.ts): paths, webhooks and the examples
// recorded from a real run (./examples.ts).
import { VERSION } from '../kernel/version.ts';
import { buildComponents, EVENTS } from './components.ts';
import { EXAMPLES, type Example } from './examples.ts';
import { errorCodesOf, OPERATIONS, type Operation } from './operations.ts';

const OPENAPI_VERSION = '3.1.0';

export function buildOpenApiDocument(): Record<string, unknown> {
  const components = buildComponents();

  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = operationObject(op);
  }

  const webhooks: Record<string, unknown> = {};
  for (const event of EVENTS) {
    webhooks[event.name] = {
      post: {
        operationId: `event_${event.name.replace('.', '_')}`,
        // Sent by ces to the integrator: no API key is involved; the body is signed (webhook-signature).
        security: [],
        summary: event.summary,
        description:
          'POSTed to the configured endpoint_url, signed per Standard Webhooks. Answer 2xx to acknowledge; anything else, a timeout or a connection error is retried on CES_WEBHOOK_RETRY_SCHEDULE. Delivery is at least once: deduplicate on the event id.',
        parameters: [
          {
            in: 'header',
            name: 'webhook-id',
            required: true,
            description: 'The event id (equals the body `id`).',
            schema: { type: 'string' },
          },
          {
            in: 'header',
            name: 'webhook-timestamp',
            required: true,
            description: 'Unix seconds of this attempt; reject values far from your clock.',
            schema: { type: 'string', pattern: '^[0-9]+$' },
          },
          {
            in: 'header',
            name: 'webhook-signature',
            required: true,
            description:
              "`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of hmac_secret (after `whsec_`). During the grace period of a secret rotation, two such values separated by a space: the new secret's first, then the old one's; accept the delivery if either matches (Standard Webhooks libraries do).",
            schema: { type: 'string', pattern: '^v1,' },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': withExamples({ schema: { $ref: `#/components/schemas/${event.schema}` } }, `event.${event.name}`),
          },
        },
        responses: {
          '2XX': { description: 'Acknowledged; the event is not sent again.' },
          default: { description: 'Not acknowledged; retried later.' },
        },
      },
    };
  }

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Campaign Entry Service (ces)',
      version: VERSION,
      summary: 'Submit entries to Brazilian promotional campaigns; receive their lifecycle as signed webhooks.',
      description:
        'Every /v1 endpoint takes `Authorization: Bearer <API_KEY>`; the key decides the campaign and the mode (live `service_live_…`, test `service_test_…`). Errors are RFC 9457 `application/problem+json` with a stable `code`; each operation lists its codes per status, and any request may also get 400 `bad_request` (malformed URL), 404 `not_found` (no such path) or 405 `method_not_allowed` (a path served with other methods, listed in `Allow`). Every response carries `X-Request-Id` (yours echoed when it is 1 to 128 characters of `[A-Za-z0-9._-]`, else generated).',
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [
      { name: 'Entries', description: 'Submitting entries and reading their status.' },
      { name: 'Mechanics', description: 'Lucky numbers, instant prizes and the prize pool.' },
      { name: 'Webhooks', description: "The campaign's webhook endpoint and the events sent to it, also listed by GET /v1/events." },
      { name: 'Operations', description: 'Health, metrics and this document; not authenticated with API keys.' },
    ],
    paths,
    webhooks,
    components,
  };
}

function operationObject(op: Operation): Record<string, unknown> {
  const parameters: unknown[] = [{ $ref: '#/components/parameters/RequestId' }];
  if (op.path.includes('{entry_id}')) parameters.unshift({ $ref: '#/components/parameters/EntryId' });
  if (op.idempotencyKey) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const q of op.query ?? [])
    parameters.push({ in: 'query', name: q.name, required: false, description: q.description, schema: q.schema });
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    const contentType = r.contentType ?? 'application/json';
    responses[status] = {
      description: r.description,
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/RequestId' },
        ...Object.fromEntries((r.headers ?? []).map((name) => [name, { $ref: `#/components/headers/${name.replaceAll('-', '')}` }])),
      },
      content: {
        [contentType]: withExamples(
          { schema: r.schema ? { $ref: `#/components/schemas/${r.schema}` } : { type: 'string' } },
          `${op.operationId}.${status}`,
        ),
      },
    };
  }
  for (const [status, codes] of Object.entries(errorCodesOf(op.method, op.path))) {
    const headers: Record<string, unknown> = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
    if (status === '429' || status === '503' || (status === '409' && codes!.includes('idempotency_conflict')))
      headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
    if (status === '401') headers['WWW-Authenticate'] = { $ref: '#/components/headers/WwwAuthenticate' };
    responses[status] = {
      description: `Problem; \`code\` is one of: ${codes!.map((c) => `\`${c}\``).join(', ')}.`,
      headers,
      content: {
        'application/problem+json': withExamples(
          { schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { type: 'object', properties: { code: { enum: codes } } }] } },
          `${op.operationId}.${status}`,
        ),
      },
    };
  }
  const operation: Record<string, unknown> = {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    parameters,
    responses,
    security: op.auth ? [{ bearer: [] }] : [],
  };
  if (op.description) operation.description = op.description;
  if (op.body) {
    operation.requestBody = {
      required: op.body.required,
      content: {
        'application/json': withExamples({ schema: { $ref: `#/components/schemas/${op.body.schema}` } }, `${op.operationId}.request`),
      },
    };
  }
  return operation;
}

/**
 * A media type with the examples recorded under `name` (src/openapi/examples.ts, bodies of a real
 * run that test/openapi-examples.test.ts replays): `name` itself as `example`, `name.variant` as
 * `variant`.
 */
function withExamples(media: Record<string, unknown>, name: string): Record<string, unknown> {
  const examples: Record<string, Example> = {};
  for (const [key, example] of Object.entries(EXAMPLES)) {
    if (key === name) examples.example = example;
    else if (key.startsWith(`${name}.`)) examples[key.slice(name.length + 1)] = example;
  }
  return Object.keys(examples).length > 0 ? { ...media, examples } : media;
}
