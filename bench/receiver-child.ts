// The integrator's side of the pipeline figure, in its own process: an HTTPS endpoint (the test
// certificate of test/fixtures/tls) that verifies every delivery's Standard Webhooks signature with
// the public `standardwebhooks` package, answers 200, and counts what arrived. The parent sets the
// secret and reads the counts over IPC. As a partner's endpoint on the internet would, it answers
// after BENCH_RECEIVER_DELAY_MS (default 0). A request to BENCH_RECEIVER_HANG_PATH (say /hang) is
// never answered (the sender's timeout ends each attempt) and not counted: another campaign's
// endpoint on the same host and port, as a CRM vendor serves several campaigns from one receiver.
// Each path has its own secret. It also keeps when each event arrived, for lag figures.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceiverStats {
  requests: number;
  verified: number;
  unverified: number;
  firstUnverifiedError: string | null;
  /** Distinct event ids per event type (verified deliveries only). */
  events: Record<string, number>;
  /** Distinct entries with a verified entry.evaluated. */
  evaluatedEntries: number;
  /** ms (this process's clock) when the last new entry.evaluated arrived. */
  lastEvaluatedAt: number;
  duplicates: number;
}

const tls = new URL('../test/fixtures/tls/', import.meta.url);
/** The secret of each path's campaign. */
const webhooks = new Map<string, Webhook>();
const seen = new Set<string>();
const evaluated = new Set<string>();
const DELAY_MS = Number(process.env.BENCH_RECEIVER_DELAY_MS ?? 0);
const HANG_PATH = process.env.BENCH_RECEIVER_HANG_PATH ?? null;
/** Arrival (ms, this machine's clock) of each verified event, once per event id. */
const arrivals: number[] = [];
/** Arrival of each entry's entry.received. */
const receivedAt = new Map<string, number>();
const stats: ReceiverStats = {
  requests: 0,
  verified: 0,
  unverified: 0,
  firstUnverifiedError: null,
  events: {},
  evaluatedEntries: 0,
  lastEvaluatedAt: 0,
  duplicates: 0,
};

const server = createServer(
  { key: readFileSync(new URL('server-key.pem', tls)), cert: readFileSync(new URL('server.pem', tls)) },
  (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === HANG_PATH) return;
      stats.requests++;
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      try {
        const webhook = webhooks.get(req.url ?? '');
        if (!webhook) throw new Error(`no secret set yet for ${req.url}`);
        const event = webhook.verify(body, headers) as { id: string; event_type: string; data: { entry_id?: string } };
        stats.verified++;
        if (seen.has(event.id)) {
          stats.duplicates++;
        } else {
          seen.add(event.id);
          arrivals.push(Date.now());
          if (event.event_type === 'entry.received' && event.data.entry_id) receivedAt.set(event.data.entry_id, Date.now());
          stats.events[event.event_type] = (stats.events[event.event_type] ?? 0) + 1;
          if (event.event_type === 'entry.evaluated' && event.data.entry_id && !evaluated.has(event.data.entry_id)) {
            evaluated.add(event.data.entry_id);
            stats.evaluatedEntries = evaluated.size;
            stats.lastEvaluatedAt = Date.now();
          }
        }
      } catch (error) {
        stats.unverified++;
        stats.firstUnverifiedError ??= (error as Error).message;
      }
      const answer = (): void => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      };
      if (DELAY_MS > 0) setTimeout(answer, DELAY_MS);
      else answer();
    });
  },
);
server.keepAliveTimeout = 30_000;

process.on('message', (message: { type: string; secret?: string; path?: string }) => {
  if (message.type === 'secret') {
    webhooks.set(message.path ?? '/hooks', new Webhook(message.secret!));
    process.send!({ type: 'ok' });
  } else if (message.type === 'arrivals') {
    process.send!({ type: 'arrivals', arrivals, received: [...receivedAt] });
  } else if (message.type === 'stats') {
    process.send!({ type: 'stats', stats: { ...stats, events: { ...stats.events }, now: Date.now() } });
  }
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks\n`);
});
