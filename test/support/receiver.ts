// A real HTTPS webhook receiver for tests: records every request, verifies its Standard Webhooks
// signature exactly as an integrator would (the public `standardwebhooks` package), and answers
// with a status the test chooses, optionally after a delay. It serves the test-only certificate
// in test/fixtures/tls, so the process must start with NODE_EXTRA_CA_CERTS pointing at ca.pem.
// Tests wait on what arrived (waitFor) instead of sleeping.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  method: string;
  /** Path and query as sent, e.g. "/hooks". */
  path: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
  /** Wall-clock ms when the body had fully arrived. */
  receivedAt: number;
  /** `new Webhook(secret).verify(body, headers)` succeeded; null when no secret was set. */
  verified: boolean | null;
  /** Why verify failed (e.g. "Message timestamp too old"), else null. */
  verifyError: string | null;
  /**
   * The v1 signature matches for the id and timestamp in the headers, ignoring how far that
   * timestamp is from the real clock; null when no secret was set. standardwebhooks rejects a
   * timestamp more than 5 minutes from Date.now(), so a service running on a ManualClock far from
   * real time gives verified=false but signatureMatches=true.
   */
  signatureMatches: boolean | null;
  /** The status this receiver answered (or will answer, after delayMs). */
  status: number;
}

/** `body`: the answer's text (default: the status code). */
export type RespondResult = number | { status: number; delayMs?: number; body?: string };

export interface ReceiverOptions {
  /** Decides each response; may be async. Default 200 at once. */
  respond?: (req: ReceivedRequest) => RespondResult | Promise<RespondResult>;
}

export interface Receiver {
  /** https://127.0.0.1:PORT/hooks */
  url: string;
  /** Every request so far, in arrival order. */
  requests: ReceivedRequest[];
  /** The secret (`whsec_...`) requests are verified with from now on. */
  setSecret(secret: string): void;
  /** Resolves once pred(requests) is true; checked now and after every request. */
  waitFor(pred: (reqs: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const TLS_DIR = new URL('../fixtures/tls/', import.meta.url);

export async function startReceiver(opts: ReceiverOptions = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const delayTimers = new Set<NodeJS.Timeout>();
  let secret: string | null = null;

  const server: Server = createServer(
    {
      key: readFileSync(new URL('server-key.pem', TLS_DIR)),
      cert: readFileSync(new URL('server.pem', TLS_DIR)),
    },
    (req, res) => {
      handle(req, res).catch(() => res.destroy());
    },
  );
  // HTTP/1.1 keep-alive is on by default; idle sockets outlive the client's own idle timeout so
  // the server never closes one the client is about to reuse.
  server.keepAliveTimeout = 30_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => {}); // the client may give up (delivery timeout) before we answer
    const body = await readBody(req);
    const headers = flattenHeaders(req);
    const received: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers,
      body,
      json: parseJson(body),
      receivedAt: Date.now(),
      ...verify(secret, body, headers),
      status: 200,
    };

    let decided: RespondResult = 200;
    try {
      if (opts.respond) decided = await opts.respond(received);
    } catch (err) {
      // A throwing respond() is a test bug: record and answer 500 so the failure is visible.
      console.error('receiver: respond() threw', err);
      decided = 500;
    }
    const { status, delayMs = 0, body: answer = String(status) } = typeof decided === 'number' ? { status: decided } : decided;
    received.status = status;
    requests.push(received);
    for (const wake of [...waiters]) wake();

    const send = () => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
    };
    if (delayMs <= 0) return send();
    const timer = setTimeout(() => {
      delayTimers.delete(timer);
      send();
    }, delayMs);
    delayTimers.add(timer);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}/hooks`,
    requests,
    setSecret(s: string) {
      secret = s;
    },
    waitFor(pred, timeoutMs = 5_000) {
      return new Promise<void>((resolve, reject) => {
        if (pred(requests)) return resolve();
        const check = () => {
          let done: boolean;
          try {
            done = pred(requests);
          } catch (err) {
            finish();
            return reject(err);
          }
          if (done) {
            finish();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`receiver.waitFor timed out after ${timeoutMs} ms with ${requests.length} request(s)`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    close() {
      for (const timer of delayTimers) clearTimeout(timer);
      delayTimers.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // server.close() waits for idle keep-alive sockets; tests should not.
        server.closeAllConnections();
      });
    },
  };
}

function verify(
  secret: string | null,
  body: string,
  headers: Record<string, string>,
): Pick<ReceivedRequest, 'verified' | 'verifyError' | 'signatureMatches'> {
  if (secret === null) return { verified: null, verifyError: null, signatureMatches: null };
  const webhook = new Webhook(secret);
  let verified = true;
  let verifyError: string | null = null;
  try {
    webhook.verify(body, headers);
  } catch (err) {
    verified = false;
    verifyError = err instanceof Error ? err.message : String(err);
  }
  return { verified, verifyError, signatureMatches: signatureMatches(webhook, body, headers) };
}

// Re-signs with the header's own id and timestamp, so it judges the HMAC alone.
function signatureMatches(webhook: Webhook, body: string, headers: Record<string, string>): boolean {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const signatures = headers['webhook-signature'];
  if (!id || !signatures || !Number.isInteger(timestamp)) return false;
  const expected = webhook.sign(id, new Date(timestamp * 1000), body);
  return signatures.split(' ').includes(expected);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
