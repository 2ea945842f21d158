// Client of a campaign's external fiscal verifier (campaign option --fiscal-verifier-url). The
// protocol (docs/api.md, "Fiscal verifier protocol"): POST {access_key, entry_id, livemode} as JSON; a
// 2xx answer {valid: boolean, reason?: string} is the verdict. Anything else (timeout, connection
// error, non-2xx, a body without a boolean `valid`) means "no verdict yet": the job is retried with
// backoff and the entry stays PENDING, because a verifier being down is not the participant's fault.
// Called outside any transaction; the result is committed afterwards under the job's lease.
import { ofetch } from 'ofetch';
import { readCappedBody } from '../tools/capped-body.ts';
import { describeFetchError } from '../tools/fetch-error.ts';
import { USER_AGENT } from '../kernel/version.ts';

export type VerifierAnswer = { kind: 'verdict'; valid: boolean; reason: string | null } | { kind: 'unavailable'; error: string };

interface VerifierRequest {
  access_key: string;
  entry_id: string;
  livemode: boolean;
}

/** Largest verifier answer read: a longer one is a verifier failure (no verdict; the job is retried). */
const MAX_VERIFIER_ANSWER_BYTES = 64 * 1024;

/**
 * One call. `timeoutMs` bounds the whole exchange, the answer's body included (ofetch's own
 * timeout stops at the headers, and a verifier that then drips its body would hold the call for
 * ever); `signal` ends it early (the server is shutting down).
 */
export async function callFiscalVerifier(
  url: string,
  body: VerifierRequest,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<VerifierAnswer> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const abort = signal ? AbortSignal.any([deadline, signal]) : deadline;
  try {
    const res = await ofetch.raw<ReadableStream<Uint8Array>, 'stream'>(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': USER_AGENT },
      responseType: 'stream',
      ignoreResponseError: true,
      retry: 0,
      signal: abort,
      redirect: 'manual',
    });
    const text = await readCappedBody(res._data ?? null, MAX_VERIFIER_ANSWER_BYTES);
    if (text === null) return { kind: 'unavailable', error: `verifier answered more than ${MAX_VERIFIER_ANSWER_BYTES / 1024} KiB` };
    if (res.status < 200 || res.status > 299) return { kind: 'unavailable', error: `verifier answered HTTP ${res.status}` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { kind: 'unavailable', error: 'verifier answered 2xx with a body that is not JSON' };
    }
    const valid = (parsed as { valid?: unknown } | null)?.valid;
    if (typeof valid !== 'boolean') return { kind: 'unavailable', error: 'verifier answered 2xx without a boolean "valid"' };
    const reason = (parsed as { reason?: unknown }).reason;
    return { kind: 'verdict', valid, reason: typeof reason === 'string' && reason !== '' ? reason.slice(0, 500) : null };
  } catch (error) {
    return { kind: 'unavailable', error: `verifier unreachable: ${describeFetchError(error)}` };
  }
}

/**
 * The verifier's own words follow this prefix: free text from a third party, which may name the
 * participant, so an anonymization replaces it (src/participants/participants.ts).
 */
export const VERIFIER_REJECTION_PREFIX = 'The fiscal verifier rejected the access key: ';
