// Client of a campaign's external fiscal verifier (campaign option --fiscal-verifier-url). The
// protocol (README, "Fiscal verifier protocol"): POST {access_key, entry_id, livemode} as JSON; a
// 2xx answer {valid: boolean, reason?: string} is the verdict. Anything else (timeout, connection
// error, non-2xx, a body without a boolean `valid`) means "no verdict yet": the job is retried with
// backoff and the entry stays PENDING, because a verifier being down is not the participant's fault.
// Called outside any transaction; the result is committed afterwards under the job's lease.
import { ofetch } from 'ofetch';

export type VerifierAnswer =
  | { kind: 'verdict'; valid: boolean; reason: string | null }
  | { kind: 'unavailable'; error: string };

export interface VerifierRequest {
  access_key: string;
  entry_id: string;
  livemode: boolean;
}

export async function callFiscalVerifier(url: string, body: VerifierRequest, timeoutMs: number): Promise<VerifierAnswer> {
  try {
    const res = await ofetch.raw<string, 'text'>(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'ces/0.1' },
      responseType: 'text',
      ignoreResponseError: true,
      retry: 0,
      timeout: timeoutMs,
      redirect: 'manual',
    });
    if (res.status < 200 || res.status > 299) return { kind: 'unavailable', error: `verifier answered HTTP ${res.status}` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(res._data ?? '');
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

/** A short, operator-readable cause of a failed fetch (timeout, refused connection, TLS...). */
/**
 * The verifier's own words follow this prefix: free text from a third party, which may name the
 * participant, so an anonymization replaces it (src/participants/participants.ts).
 */
export const VERIFIER_REJECTION_PREFIX = 'The fiscal verifier rejected the access key: ';

export function describeFetchError(error: unknown): string {
  // ofetch wraps undici's TypeError('fetch failed'), which wraps the real cause (ECONNREFUSED,
  // a certificate error...): walk the chain to the innermost error that says something.
  type Err = { name?: string; code?: string; message?: string; cause?: unknown };
  const chain: Err[] = [];
  for (let e = error as Err | undefined; e && typeof e === 'object' && chain.length < 6; e = e.cause as Err | undefined) chain.push(e);
  if (chain.some((e) => e.name === 'TimeoutError' || /timeout/i.test(e.message ?? ''))) return 'timed out';
  for (const e of [...chain].reverse()) {
    if (typeof e.code === 'string') return e.message ? `${e.code} (${e.message})` : e.code;
  }
  return chain.at(-1)?.message ?? String(error);
}
