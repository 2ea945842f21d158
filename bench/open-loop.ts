// An open-loop load generator: requests leave at a fixed rate whatever the server does, as a
// campaign's traffic does (autocannon's closed loop waits for each answer and so slows down with
// the server). A request's latency counts from the instant it was due to leave, so a stalled
// sender cannot hide a stalled server. Bounded in count and time; traffic to 127.0.0.1 only.
import http from 'node:http';

export interface OpenLoopOptions {
  url: string;
  path: string;
  ratePerS: number;
  durationS: number;
  headers?: Record<string, string>;
  next: (n: number) => { body: string; headers?: Record<string, string> };
  /** Stops sending when aborted (the requests in flight are still awaited); durationS stays the limit. */
  signal?: AbortSignal;
}

export interface OpenLoopRequest {
  /** Wall-clock ms when the request was due to leave. */
  dueAt: number;
  /** Wall-clock ms when its answer had arrived. */
  answeredAt: number;
  status: number;
  /** entry_id of a 202. */
  entryId: string | null;
}

export interface OpenLoopResult {
  requests: OpenLoopRequest[];
  errors: number;
}

/** Latency percentiles (ms) of the requests due in [from, to). */
export function latencyPercentiles(
  requests: OpenLoopRequest[],
  from = 0,
  to = Number.POSITIVE_INFINITY,
): { p50: number; p99: number; count: number } {
  const sorted = requests
    .filter((r) => r.dueAt >= from && r.dueAt < to)
    .map((r) => r.answeredAt - r.dueAt)
    .sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), count: sorted.length };
}

export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

export async function openLoop(o: OpenLoopOptions): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(o.path, o.url);
  const total = Math.round(o.ratePerS * o.durationS);
  const requests: OpenLoopRequest[] = [];
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const start = Date.now();
  const send = (n: number, dueAt: number): Promise<void> =>
    new Promise((resolve) => {
      const next = o.next(n);
      const req = http.request(
        target,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', ...o.headers, ...next.headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            let entryId: string | null = null;
            if (res.statusCode === 202) {
              try {
                entryId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { entry_id?: string }).entry_id ?? null;
              } catch {
                entryId = null;
              }
            }
            requests.push({ dueAt, answeredAt: Date.now(), status: res.statusCode ?? 0, entryId });
            resolve();
          });
          res.on('error', () => {
            errors++;
            resolve();
          });
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(next.body);
    });
  for (let n = 0; n < total; n++) {
    const dueAt = start + (n * 1000) / o.ratePerS;
    const wait = dueAt - Date.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    if (o.signal?.aborted) break;
    const p = send(n, dueAt).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { requests, errors };
}
