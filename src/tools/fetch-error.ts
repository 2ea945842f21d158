// Why an outgoing HTTP call failed, in a few words an operator can act on. Shared by the fiscal
// verifier call (src/pipeline/verifier.ts) and webhook deliveries (src/webhooks/), which both
// record it as the attempt's error.

/** A short, operator-readable cause of a failed fetch (timeout, refused connection, TLS...). */
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
