// The operations of the OpenAPI document: every endpoint the server registers, with its summary,
// body, responses and the problem codes it can answer by status, common ones merged in
// (test/openapi.test.ts introspects the router against this list and exercises the codes).
import { LISTED_EVENT_TYPES } from '../webhooks/events-list.ts';

type ErrorCodes = Partial<Record<number, string[]>>;

export interface Operation {
  method: 'get' | 'post' | 'patch';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: boolean;
  idempotencyKey?: boolean;
  body?: { schema: string; required: boolean };
  responses: Record<number, { description: string; schema?: string; contentType?: string; example?: unknown; headers?: string[] }>;
  errors: ErrorCodes;
  /** Query parameters, in the order they are documented. */
  query?: Array<{ name: string; description: string; schema: Record<string, unknown> }>;
}

/** Problems any request can get before it reaches an endpoint: a malformed URL, an unknown path, a method the path does not take. */
const GLOBAL_PROBLEM_CODES: ErrorCodes = { 400: ['bad_request'], 404: ['not_found'], 405: ['method_not_allowed'] };

// What every operation can answer, merged into its own list: a malformed URL (the 404 and 405 of
// GLOBAL_PROBLEM_CODES are answers to paths and methods no operation serves, so no operation
// lists them), and a bug.
const ANY_OPERATION: ErrorCodes = { 400: ['bad_request'], 500: ['internal_error'] };
// Errors any authenticated endpoint can give: a refused key, the two rate limits, and a database
// that cannot take the request (src/http/respond.ts: SQLITE_BUSY, FULL, IOERR).
const AUTHENTICATED: ErrorCodes = {
  401: ['invalid_api_key'],
  429: ['rate_limited', 'auth_rate_limited'],
  503: ['service_unavailable'],
};
const JSON_BODY: ErrorCodes = { 400: ['invalid_json'], 413: ['payload_too_large'], 415: ['unsupported_media_type'] };

export const OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/v1/entries',
    operationId: 'createEntry',
    tag: 'Entries',
    auth: true,
    idempotencyKey: true,
    summary: 'Submit an entry for asynchronous processing',
    description:
      'Validates, deduplicates on (campaign, mode, Idempotency-Key), stores and queues the entry; `entry.received` follows at once. A replay of a committed key answers 202 with the original entry and ignores the new payload. An access key with a bad check digit, model or state answers 202 with status REJECTED.',
    body: { schema: 'EntrySubmission', required: true },
    responses: { 202: { description: 'Accepted (or an idempotent replay).', schema: 'EntryAccepted', headers: ['Idempotent-Replayed'] } },
    errors: {
      ...JSON_BODY,
      403: ['registration_closed'],
      409: ['idempotency_conflict'],
      422: [
        'validation_failed',
        'invalid_document',
        'idempotency_key_missing',
        'idempotency_key_invalid',
        'missing_required_field',
        'email_taken',
        'phone_taken',
        'companies_not_allowed',
        'unknown_prize',
        'instant_win_not_allowed',
      ],
    },
  },
  {
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    tag: 'Webhooks',
    auth: true,
    summary: "List the key's campaign and mode's events, newest first",
    description:
      'The events of the webhook envelope, exactly as sent (or as they would have been: events recorded while the webhook was paused or not configured are listed too), so a client can reconcile after an outage. Kept as long as the outbox keeps them (CES_RETENTION_DAYS). Page with `starting_after` = the last id of the previous page while `has_more` is true. The test events (`ping`) an operator sends to check the endpoint are not listed.',
    query: [
      { name: 'limit', description: 'Events per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      {
        name: 'starting_after',
        description: 'An event id: the page starts with the next older event.',
        schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
      },
      { name: 'type', description: 'Only events of this type.', schema: { type: 'string', enum: LISTED_EVENT_TYPES } },
      { name: 'entry_id', description: "Only this entry's events.", schema: { type: 'string', format: 'uuid' } },
    ],
    responses: { 200: { description: 'A page of events.', schema: 'EventList' } },
    errors: { 422: ['validation_failed'] },
  },
  {
    method: 'get',
    path: '/v1/entries/{entry_id}',
    operationId: 'getEntry',
    tag: 'Entries',
    auth: true,
    summary: 'Read one entry with its status, mechanics outcome, award and lucky numbers',
    description:
      "`status` is the entry's current status. `mechanics` is the outcome of its evaluation as it was then (the `entry.evaluated` data), null before it; `award` is the current state of its instant-prize award, so an operator's later revoke shows here (and in `award.updated`), not in `mechanics`. `lucky_numbers` lists every number it holds. An id of another campaign or mode is 404.",
    responses: { 200: { description: 'The entry.', schema: 'Entry' } },
    errors: { 404: ['not_found'] },
  },
  {
    method: 'post',
    path: '/v1/entries/{entry_id}/lucky-numbers',
    operationId: 'submitLuckyNumbers',
    tag: 'Mechanics',
    auth: true,
    summary: 'Submit externally generated lucky numbers (manual mode)',
    description:
      'Only after `entry.evaluated`; exactly `outcome.quantity` numbers, each series 0 to `series_count - 1`. The first accepted submission is final.',
    body: { schema: 'LuckyNumbersSubmission', required: true },
    responses: { 201: { description: 'Numbers assigned.', schema: 'LuckyNumbersAssigned' } },
    errors: {
      ...JSON_BODY,
      404: ['not_found'],
      409: ['not_evaluated', 'lucky_numbers_already_submitted'],
      422: [
        'validation_failed',
        'quantity_mismatch',
        'mechanic_not_manual',
        'entry_rejected',
        'series_out_of_range',
        'duplicate_pairs',
        'pair_taken',
      ],
    },
  },
  {
    method: 'get',
    path: '/v1/prizes',
    operationId: 'listPrizes',
    tag: 'Mechanics',
    auth: true,
    summary: "List the campaign's prize pool for the key's mode",
    description:
      "The prizes of the key's campaign in the key's mode with their stock; `id` is what `instant_win.prize_definition_id` and a reassign name. A win is never blocked by an empty pool: its stock stays 0.",
    responses: { 200: { description: 'The prizes.', schema: 'PrizeList' } },
    errors: {},
  },
  {
    method: 'post',
    path: '/v1/entries/{entry_id}/instant-prize/revoke',
    operationId: 'revokeInstantPrize',
    tag: 'Mechanics',
    auth: true,
    summary: "Revoke the entry's instant-prize award (idempotent; no webhook)",
    description:
      "Acts on the entry's latest award: `awarded` becomes `revoked` and its unit returns to stock; an award already revoked answers 200 unchanged. `reason` is recorded in the award's history. INTEGRATOR_DECLARED campaigns only; an award still pending (its entry not evaluated yet) cannot be revoked.",
    body: { schema: 'RevokeRequest', required: false },
    responses: { 200: { description: 'The award, now revoked.', schema: 'Award' } },
    errors: {
      ...JSON_BODY,
      404: ['not_found'],
      422: ['validation_failed', 'instant_prize_not_declared', 'award_not_final', 'award_not_revocable'],
    },
  },
  {
    method: 'post',
    path: '/v1/entries/{entry_id}/instant-prize/reassign',
    operationId: 'reassignInstantPrize',
    tag: 'Mechanics',
    auth: true,
    summary: 'Revoke the award and register it again, with another prize or on another entry (no webhook)',
    description:
      "Revokes the entry's award if it is `awarded` (its unit returns) and registers a new `awarded` award of `prize_definition_id`, on the same entry or on `target_entry_id`: an APPROVED entry of the campaign and mode that holds no award. A pending source is revoked without a unit to return, and the new award is `awarded` at once.",
    body: { schema: 'ReassignRequest', required: true },
    responses: { 200: { description: 'The newly registered award (status awarded).', schema: 'Award' } },
    errors: {
      ...JSON_BODY,
      404: ['not_found'],
      409: ['award_exists'],
      422: [
        'validation_failed',
        'instant_prize_not_declared',
        'award_not_revocable',
        'unknown_prize',
        'target_not_processed',
        'entry_rejected',
      ],
    },
  },
  {
    method: 'get',
    path: '/v1/webhook',
    operationId: 'getWebhookConfig',
    tag: 'Webhooks',
    auth: true,
    summary: "Read the campaign's webhook configuration (never the secret)",
    description:
      'The endpoint and whether deliveries are active; 404 until one is configured. The signing secret is shown once, in the 201 of the PATCH that created the configuration.',
    responses: { 200: { description: 'The configuration.', schema: 'WebhookConfig' } },
    errors: { 404: ['not_found'] },
  },
  {
    method: 'patch',
    path: '/v1/webhook',
    operationId: 'updateWebhookConfig',
    tag: 'Webhooks',
    auth: true,
    summary: 'Create or update the webhook configuration',
    description:
      "Creating requires `endpoint_url` and answers 201 with `hmac_secret`, shown only then. Updating answers 200 without it; omitted fields are unchanged. The campaign's operator decides which keys may: any (the default), live keys only, or none, a setting of the campaign; a key it does not allow gets 403 `webhook_config_locked`. GET stays open to every key of the campaign.",
    body: { schema: 'WebhookPatch', required: true },
    responses: {
      200: { description: 'Updated.', schema: 'WebhookConfig' },
      201: { description: 'Created; the only response that shows the signing secret.', schema: 'WebhookConfigCreated' },
    },
    errors: { ...JSON_BODY, 403: ['webhook_config_locked'], 422: ['validation_failed', 'webhook_url_not_https'] },
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'Operations',
    auth: false,
    summary: 'Liveness and readiness: database reachable, background tick alive, backlog sizes',
    description:
      '503 when the database does not answer or the tick has not finished a run for more than 10 tick intervals. 200 with status `degraded` when it works but, with CES_CHECKPOINTS=external, its WAL is over CES_WAL_ALARM_MB (nothing is checkpointing it: is Litestream running?). `versions` says what the server runs on: the release of ces, Node.js, SQLite and the platform.',
    responses: {
      200: { description: 'Healthy, or degraded (status says which).', schema: 'Health' },
      503: { description: 'Unhealthy; the body says which part failed.', schema: 'Health' },
    },
    errors: {},
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: 'Operations',
    auth: false,
    summary: 'Prometheus metrics (text format 0.0.4)',
    description:
      'Controlled by CES_METRICS_TOKEN: unset or empty = open; `off` = this endpoint answers 404; any other value = requires `Authorization: Bearer <that value>` (not an API key).',
    responses: { 200: { description: 'The exposition.', contentType: 'text/plain; version=0.0.4' } },
    errors: { 401: ['invalid_metrics_token'], 404: ['not_found'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Operations',
    auth: false,
    summary: 'This document',
    description: 'This OpenAPI 3.1 document, as the service prints it. No API key.',
    responses: { 200: { description: 'The OpenAPI 3.1 document.', contentType: 'application/json' } },
    errors: {},
  },
];

/** The error codes an operation can answer, by status (common ones included). */
export function errorCodesOf(method: string, path: string): ErrorCodes {
  const op = OPERATIONS.find((o) => o.method === method.toLowerCase() && o.path === path);
  if (!op) throw new Error(`no operation ${method} ${path}`);
  return mergeErrors(ANY_OPERATION, op.auth ? AUTHENTICATED : {}, op.errors);
}

function mergeErrors(...lists: ErrorCodes[]): ErrorCodes {
  const out: ErrorCodes = {};
  for (const list of lists) {
    for (const [status, codes] of Object.entries(list)) {
      const s = Number(status);
      out[s] = [...new Set([...(out[s] ?? []), ...codes!])];
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b))) as ErrorCodes;
}

/** Every problem code the document names, on any operation or globally. */
export function documentedProblemCodes(): Set<string> {
  const codes = new Set<string>(Object.values(GLOBAL_PROBLEM_CODES).flat() as string[]);
  for (const op of OPERATIONS) for (const list of Object.values(errorCodesOf(op.method, op.path))) for (const c of list!) codes.add(c);
  return codes;
}

/** Every (method, path) documented, OpenAPI style ("/v1/entries/{entry_id}"). */
export function documentedOperations(): Array<{ method: string; path: string }> {
  return OPERATIONS.map((o) => ({ method: o.method.toUpperCase(), path: o.path }));
}
