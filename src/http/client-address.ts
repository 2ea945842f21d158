// The address of the client a request comes from, for per-address limits and the request log
// (README.md#configuration, CES_TRUSTED_PROXIES). It is the connection's peer, unless that peer is
// one of CES_TRUSTED_PROXIES: then X-Forwarded-For is read from the right, skipping trusted
// proxies, and the first address that is not one is the client. So a client can never choose its
// address by sending the header itself, and behind a proxy that is named, clients are not lumped
// together. Off Node's HTTP server (a request handed to the app in process, as the tests do) the
// peer is the request's `ip`, when the caller gives one.
import { isIP } from 'node:net';
import type { H3Event } from 'h3';
import { unmapped, type TrustedProxies } from '../kernel/trusted-proxies.ts';
import { nodeRequest } from './body.ts';

export function clientAddress(event: H3Event, trusted: TrustedProxies): string {
  const peer = unmapped(nodeRequest(event)?.socket?.remoteAddress ?? event.req.ip ?? 'unknown');
  if (!trusted.has(peer)) return peer;
  const forwarded = event.req.headers.get('x-forwarded-for');
  if (!forwarded) return peer;
  const hops = forwarded.split(',').map((hop) => unmapped(hop.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    if (isIP(hops[i]) === 0) return peer; // a malformed chain is not believed
    if (!trusted.has(hops[i])) return hops[i];
  }
  return hops[0] ?? peer;
}
