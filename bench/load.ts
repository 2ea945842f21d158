// The load generator: autocannon from this process, 50 keep-alive connections, one request in
// flight per connection, every request built by setupRequest so that each one is distinct.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  path: string;
  connections?: number;
  /** Seconds; or `amount` requests. */
  durationS?: number;
  amount?: number;
  headers?: Record<string, string>;
  /** Request n's body and extra headers. */
  next: (n: number) => { body: string; headers?: Record<string, string> };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationS: number;
  /** Requests sent (setupRequest calls): n ran from 0 to sent-1. */
  sent: number;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  let n = 0;
  const instance = autocannon({
    url: o.url,
    connections: o.connections ?? 50,
    pipelining: 1,
    timeout: 30,
    ...(o.amount !== undefined ? { amount: o.amount } : { duration: o.durationS ?? 10 }),
    requests: [
      {
        method: 'POST',
        path: o.path,
        setupRequest: (req: any) => {
          const next = o.next(n++);
          req.body = next.body;
          req.headers = { 'content-type': 'application/json', ...o.headers, ...next.headers };
          return req;
        },
      },
    ],
  } as autocannon.Options);
  const result = await instance;
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries((result as any).statusCodeStats ?? {}))
    statusCodes[code] = Number((stat as { count: number }).count);
  const durationS = result.duration;
  return {
    rps: result.requests.total / durationS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationS,
    sent: n,
  };
}
