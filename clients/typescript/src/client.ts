// The ces client: every operation of the OpenAPI document through openapi-fetch (`client.api`),
// and on top of it what integrators otherwise write by hand: submitting an entry with an
// idempotency key, retries and replay detection; reading an entry; walking GET /v1/events.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi.generated.ts';
import { DEFAULT_RETRY, sleep as realSleep, withRetries, type RetryContext, type RetryOptions } from './retry.ts';
import type { Entry, EntryStatus, EntrySubmission, ListedEvent } from './types.ts';

export interface CesClientOptions {
  /** Where ces answers, e.g. `http://127.0.0.1:3000` or `https://ces.example.com`. */
  baseUrl: string;
  /** A campaign's API key, `service_test_…` or `service_live_…`: it decides the campaign and the mode. */
  apiKey: string;
  retry?: RetryOptions;
  /** Each attempt's deadline in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Replaces fetch (a proxy agent, a test double). */
  fetch?: (request: Request) => Promise<Response>;
  /** Replaces the wait between attempts (tests: record the delay instead of waiting). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Makes the Idempotency-Key when submitEntry is given none (default crypto.randomUUID). */
  generateIdempotencyKey?: () => string;
}

export interface SubmitEntryOptions {
  /**
   * Your key for this entry (1 to 128 characters), e.g. your own order id, so that a retry after
   * a crash of your process is a replay and not a second entry. Default: a new UUID.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface SubmittedEntry {
  entry_id: string;
  status: EntryStatus;
  message: string;
  /** The key the entry is stored under (the one given, or the one generated). */
  idempotency_key: string;
  /**
   * True when the server answered with an entry an earlier request stored under this key
   * (`Idempotent-Replayed: true`): this body was ignored. A generated key is new, so a replay of it
   * can only be this call's own earlier attempt (its answer lost): then this is false. With your
   * own key, after an earlier attempt of this call was lost (`attempts` > 1), a replay may be that
   * attempt's: this stays true, so that another participant's entry is never taken for this one.
   */
  replayed: boolean;
  /** Attempts made, the first included. */
  attempts: number;
}

export type EventsQuery = NonNullable<paths['/v1/events']['get']['parameters']['query']> & { signal?: AbortSignal };

export interface CesClient {
  /** Every operation of the OpenAPI document, typed (openapi-fetch); no retries. */
  api: Client<paths>;
  /** POST /v1/entries with an Idempotency-Key, retried on network errors, 409 idempotency_conflict, 429 and 503. */
  submitEntry(body: EntrySubmission, options?: SubmitEntryOptions): Promise<SubmittedEntry>;
  /** GET /v1/entries/{entry_id}, retried like submitEntry; a CesApiError 404 when it is not the key's. */
  getEntry(entryId: string, options?: { signal?: AbortSignal }): Promise<Entry>;
  /**
   * The events of the key's campaign and mode, newest first, page after page (GET /v1/events with
   * `starting_after` while `has_more`): `for await (const event of client.events({ type: 'entry.evaluated' }))`.
   */
  events(query?: EventsQuery): AsyncIterableIterator<ListedEvent>;
}

export function createCesClient(options: CesClientOptions): CesClient {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const context: RetryContext = {
    options: { ...DEFAULT_RETRY, ...options.retry },
    sleep: options.sleep ?? realSleep,
    now: () => Date.now(),
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const generateKey = options.generateIdempotencyKey ?? (() => crypto.randomUUID());

  return {
    api,

    async submitEntry(body, { idempotencyKey, signal } = {}) {
      const key = idempotencyKey ?? generateKey();
      const result = await withRetries(context, signal, (attemptSignal) =>
        api.POST('/v1/entries', { params: { header: { 'Idempotency-Key': key } }, body, signal: attemptSignal }),
      );
      const saysReplay = result.response.headers.get('idempotent-replayed') === 'true';
      return {
        entry_id: result.data.entry_id,
        status: result.data.status,
        message: result.data.message,
        idempotency_key: key,
        replayed: saysReplay && idempotencyKey !== undefined,
        attempts: result.attempts,
      };
    },

    async getEntry(entryId, { signal } = {}) {
      const result = await withRetries(context, signal, (attemptSignal) =>
        api.GET('/v1/entries/{entry_id}', { params: { path: { entry_id: entryId } }, signal: attemptSignal }),
      );
      return result.data;
    },

    async *events({ signal, ...query } = {}) {
      let startingAfter = query.starting_after;
      for (;;) {
        const page = await withRetries(context, signal, (attemptSignal) =>
          api.GET('/v1/events', { params: { query: { ...query, starting_after: startingAfter } }, signal: attemptSignal }),
        );
        yield* page.data.data;
        const last = page.data.data.at(-1);
        if (!page.data.has_more || last === undefined) return;
        startingAfter = last.id;
      }
    },
  };
}
