// One webhook POST on the wire: the deadline over the whole exchange, the cap on the answer read,
// no redirects, and (unless private targets are allowed) a connection only to a public address.
// What is sent, and what the answer means for the delivery, is attempt.ts's business.
import http from 'node:http';
import https from 'node:https';
import type { DeliveryAgents } from './delivery-agents.ts';
import { publicOnlyLookup, refuseAddressLiteral } from './ssrf.ts';

/** Characters of the answer an attempt records. */
export const EXCERPT_CHARS = 512;

/** Bytes of the answer kept (the excerpt is at most EXCERPT_CHARS characters). */
const MAX_BODY_BYTES = 4 * EXCERPT_CHARS;

const PUBLIC_ONLY = publicOnlyLookup();

/**
 * One POST with node:http(s) (not fetch: undici's web streams cost several times the CPU per
 * request, the largest item of a backlog drain's profile). A redirect is not followed: it could
 * lead anywhere, past the address check. Errors keep Node's codes (ECONNREFUSED, certificate
 * errors) for describeFetchError; the timeout covers the whole exchange and rejects with a
 * TimeoutError. With `publicOnly` the connection resolves the host itself through publicOnlyLookup
 * and refuses a non-public address, whatever the DNS answered a moment before. Without `agents`,
 * a connection of its own, closed after the answer.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  o: { timeoutMs: number; publicOnly: boolean; agents?: DeliveryAgents; signal?: AbortSignal },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const isHttps = target.protocol === 'https:';
    if (!isHttps && target.protocol !== 'http:') {
      reject(new Error(`unsupported protocol ${target.protocol}`));
      return;
    }
    const literal = o.publicOnly ? refuseAddressLiteral(target.hostname) : null;
    if (literal) {
      reject(new Error(literal));
      return;
    }
    const payload = Buffer.from(body, 'utf8');
    const req = (isHttps ? https : http).request(target, {
      method: 'POST',
      agent: o.agents ? (isHttps ? o.agents.https : o.agents.http) : false,
      ...(o.publicOnly ? { lookup: PUBLIC_ONLY } : {}),
      headers: { ...headers, 'content-length': String(payload.length), accept: '*/*' },
    });
    const timer = setTimeout(() => {
      const error = new Error(`timed out after ${o.timeoutMs} ms`);
      error.name = 'TimeoutError';
      req.destroy(error);
    }, o.timeoutMs);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const onAbort = (): void => {
      req.destroy(new Error('abandoned at shutdown'));
    };
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (): void => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8') });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough for the excerpt: the rest of an endless or huge answer is not read (the
        // connection is closed, not reused).
        if (size >= MAX_BODY_BYTES) {
          answer();
          req.destroy();
        }
      });
      res.on('error', fail);
      res.on('end', answer);
    });
    req.end(payload);
  });
}
