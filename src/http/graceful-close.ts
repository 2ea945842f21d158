// Closing the HTTP server without cutting anyone off. Node's own server.close() (and listhen's
// http-shutdown) destroy every connection that has no request in progress at that instant,
// including ones accepted a moment ago whose request bytes have not been parsed yet: the client
// sees ECONNRESET for a request it already sent. Here the listening socket closes first (new
// connections are refused cleanly), every response from now on carries `Connection: close`,
// keep-alive connections that sit idle after a response are closed at once, and connections that
// have not sent their first request yet get a short grace to do so. Requests in progress run to
// completion and their sockets close after the response.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { monotonicMs } from '../kernel/clock.ts';

interface Tracked {
  /** Has completed at least one response (an idle socket of this kind is plain keep-alive). */
  served: boolean;
  /** Requests in progress on it. */
  active: number;
}

interface RequestTracker {
  /** Closes the server gracefully (see above). */
  close(): Promise<void>;
  /** Requests whose response has not closed yet. */
  activeRequests(): number;
  /** Destroys every connection at once, requests in progress or not (the shutdown deadline passed). */
  destroyAll(): void;
  /** monotonicMs() when the last response closed (-Infinity before the first). */
  lastRequestEndedAt(): number;
}

/** Starts tracking connections and requests now (one listener each, shared by both uses). */
export function trackRequests(server: Server, graceMs = 500): RequestTracker {
  const sockets = new Map<Socket, Tracked>();
  let closing = false;
  let active = 0;
  // Responses in progress: the ones whose headers are not out yet say `Connection: close` once
  // closing begins, like every response after it.
  const responses = new Set<ServerResponse>();
  let lastEndedAt = Number.NEGATIVE_INFINITY;
  server.on('connection', (socket: Socket) => {
    sockets.set(socket, { served: false, active: 0 });
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    const state = sockets.get(socket);
    if (closing && !res.headersSent) res.setHeader('connection', 'close');
    active++;
    responses.add(res);
    if (state) state.active++;
    res.once('close', () => {
      active--;
      responses.delete(res);
      lastEndedAt = monotonicMs();
      if (!state) return;
      state.active--;
      state.served = true;
      if (closing && state.active === 0) socket.destroySoon();
    });
  });
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      closing = true;
      for (const res of responses) if (!res.headersSent) res.setHeader('connection', 'close');
      const closeIdle = (includeFresh: boolean): void => {
        for (const [socket, state] of sockets) {
          if (state.active === 0 && (state.served || includeFresh)) socket.destroySoon();
        }
      };
      closeIdle(false);
      const grace = setTimeout(() => closeIdle(true), graceMs);
      NetServer.prototype.close.call(server, () => {
        clearTimeout(grace);
        // Let Node's http layer run its own close bookkeeping (stops its connection-check timer).
        server.close(() => resolve());
      });
    });
  const destroyAll = (): void => {
    for (const socket of sockets.keys()) socket.destroy();
  };
  return { close, activeRequests: () => active, lastRequestEndedAt: () => lastEndedAt, destroyAll };
}
