// Bounded retries for the client's own calls: network errors and timeouts, 429 rate_limited, 503,
// and POST /v1/entries' 409 idempotency_conflict. A Retry-After from the server is honoured (never
// retried sooner; a wait longer than maxDelayMs ends the retries instead of being shortened);
// without one the wait doubles from backoffMs. The sleep is injectable so tests need not wait.
import { CesApiError } from './errors.ts';

export interface RetryOptions {
  /** Attempts in all, the first included (default 5; 1 turns retries off). */
  attempts?: number;
  /** Wait before the first retry when the server names none, doubled for each later one (default 500 ms). */
  backoffMs?: number;
  /** Longest wait between attempts (default 60 000 ms); a Retry-After beyond it ends the retries. */
  maxDelayMs?: number;
}

export interface RetryContext {
  options: Required<RetryOptions>;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  /** Each attempt's own deadline (default 30 000 ms): a hung connection is a network error. */
  timeoutMs: number;
}

/** What one attempt of an openapi-fetch call gives. */
export interface Attempt<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export interface Retried<T> {
  data: T;
  response: Response;
  attempts: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { attempts: 5, backoffMs: 500, maxDelayMs: 60_000 };

/** Problem codes worth another attempt; `auth_rate_limited` is not (it answers a wrong key: fix the key). */
const RETRYABLE: Readonly<Record<number, readonly string[]>> = {
  409: ['idempotency_conflict'],
  429: ['rate_limited'],
  503: ['service_unavailable'],
};

export async function withRetries<T>(
  context: RetryContext,
  signal: AbortSignal | undefined,
  attempt: (signal: AbortSignal) => Promise<Attempt<T>>,
): Promise<Retried<T>> {
  const { attempts, backoffMs, maxDelayMs } = context.options;
  for (let n = 1; ; n++) {
    let failure: unknown;
    let delayMs = Math.min(maxDelayMs, backoffMs * 2 ** (n - 1));
    try {
      const result = await attempt(attemptSignal(signal, context.timeoutMs));
      if (result.response.ok) return { data: result.data as T, response: result.response, attempts: n };
      const retryAfterMs = parseRetryAfter(result.response.headers.get('retry-after'), context.now());
      failure = new CesApiError(result.response, result.error, retryAfterMs);
      const { status, code } = failure as CesApiError;
      if (!RETRYABLE[status]?.includes(code)) throw failure;
      if (retryAfterMs !== null) {
        if (retryAfterMs > maxDelayMs) throw failure;
        delayMs = retryAfterMs;
      }
    } catch (error) {
      if (error instanceof CesApiError || signal?.aborted || !isNetworkFailure(error)) throw error;
      failure = error;
    }
    if (n >= attempts) throw failure;
    await context.sleep(delayMs, signal);
  }
}

/**
 * Retry-After as RFC 9110 allows it: delay-seconds or an HTTP-date, in milliseconds from `nowMs`;
 * null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its day and month ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone would read "-1" as a year.
  const at = /^[A-Za-z]{3}, /.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** fetch's own failures (connection refused or reset, DNS) and a timed-out attempt; not a caller's abort. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError');
}

function attemptSignal(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** setTimeout as a promise that an abort ends early (with the signal's reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
