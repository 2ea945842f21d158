// The one error the client throws for an answer it does not turn into a result: the server's
// problem+json (RFC 9457) with its stable `code`, the status, the request id to quote, and the
// wait the server asked for.
import type { Problem } from './types.ts';

export class CesApiError extends Error {
  override readonly name = 'CesApiError';
  readonly status: number;
  /** The problem's `code` (`validation_failed`, `rate_limited`…), or `http_<status>` when the body was not a problem. */
  readonly code: string;
  /** The problem+json body, when there was one. */
  readonly problem: Problem | undefined;
  /** X-Request-Id of the answer: quote it to the operator. */
  readonly requestId: string | null;
  /** Retry-After of the answer in milliseconds, when it had one. */
  readonly retryAfterMs: number | null;

  constructor(response: Response, body: unknown, retryAfterMs: number | null) {
    const problem = isProblem(body) ? body : undefined;
    const code = problem?.code ?? `http_${response.status}`;
    super(`${response.status} ${code}${problem?.detail ? `: ${problem.detail}` : ''}`);
    this.status = response.status;
    this.code = code;
    this.problem = problem;
    this.requestId = response.headers.get('x-request-id');
    this.retryAfterMs = retryAfterMs;
  }

  /** The per-field violations of a 422 (every one the server found), else []. */
  get errors(): NonNullable<Problem['errors']> {
    return this.problem?.errors ?? [];
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string';
}
