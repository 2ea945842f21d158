// The connection pool of webhook deliveries: the keep-alive http.Agent/https.Agent pairs every
// attempt sends through. This module owns them, and they are state outside the context:
//
// - What it holds: one pair per pair of delivery limits (CES_DELIVERY_CONCURRENCY,
//   CES_DELIVERY_PER_ENDPOINT), each agent with its open sockets by host and port, and the https
//   agent with the TLS sessions it can resume. Bound: sockets in use, at most
//   CES_DELIVERY_CONCURRENCY (the scheduler's attempts in flight); idle ones, at most
//   CES_DELIVERY_PER_ENDPOINT a host; 256 TLS sessions; a server has one pair.
// - Lifetime: the process's. A pair is made by the first attempt under its limits (a server's tick,
//   `ces webhook test`) and shared by every later one, whichever service or context sent it; a
//   process that never sends a webhook makes none.
// - Reset and close: nothing resets or closes it, and nothing needs to. An idle socket is unref'd
//   by Node, so it never keeps the process alive; it closes when the receiver drops it (the
//   next attempt opens a new connection, resuming the TLS session), and every socket goes when the
//   process ends. Stopping one server must not close the pair: another service in the same process
//   (a test file runs many) may be sending through it.
// - Tests see it only through their receivers: each listens on its own port, so no socket crosses
//   from one test to another; a test that wants new connections drops them on the receiver's side
//   (test/slow/webhooks-scheduling.test.ts counts connections and resumed sessions that way).
import http from 'node:http';
import https from 'node:https';
import type { Config } from '../kernel/config.ts';

export interface DeliveryAgents {
  https: https.Agent;
  http: http.Agent;
}

const agentPairs = new Map<string, DeliveryAgents>();

/**
 * The keep-alive agents of a configuration: each endpoint's connections are kept open and reused
 * (at most CES_DELIVERY_PER_ENDPOINT idle ones per host), and a new connection to a host seen
 * before resumes its TLS session instead of a full handshake. The agents limit nothing else: an
 * endpoint is a campaign's URL, not a host, and the scheduler alone keeps attempts within its
 * limits (per endpoint, and CES_DELIVERY_CONCURRENCY in all), so no request ever waits inside an
 * agent for a socket, where the scheduler would not see it. A cap per host would let a hanging
 * endpoint's attempts take every socket of a receiver that serves other campaigns on other paths;
 * a cap in total counts idle sockets too, so connections kept for quiet endpoints would hold up
 * another endpoint's first one until a receiver dropped them. Certificates are always checked
 * (README.md#configuration): said here, so that NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn it off.
 */
export function agentsFor(config: Pick<Config, 'deliveryConcurrency' | 'deliveryPerEndpoint'>): DeliveryAgents {
  const key = `${config.deliveryConcurrency}/${config.deliveryPerEndpoint}`;
  let pair = agentPairs.get(key);
  if (!pair) {
    const options = {
      keepAlive: true,
      keepAliveMsecs: 1_000,
      // As many as the scheduler may have in flight: every endpoint on one host could be sending.
      maxSockets: config.deliveryConcurrency,
      maxFreeSockets: config.deliveryPerEndpoint,
      scheduling: 'lifo' as const,
    };
    pair = { https: new https.Agent({ ...options, rejectUnauthorized: true, maxCachedSessions: 256 }), http: new http.Agent(options) };
    agentPairs.set(key, pair);
  }
  return pair;
}
