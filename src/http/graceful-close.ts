// Closing the HTTP server without cutting anyone off. Node's own server.close() (and listhen's
// http-shutdown) destroy every connection that has no request in progress at that instant,
// including ones accepted a moment ago whose request bytes have not been parsed yet: the client
// sees ECONNRESET for a request it already sent. Here the listening socket closes first (new
// connections are refused cleanly), every response from now on carries `Connection: close`, and
// only after a short grace are connections that are still idle closed; requests in progress run
// to completion and their sockets close after the response.
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

export function closeHttpServer(server: Server, graceMs = 500): Promise<void> {
  return new Promise((resolve) => {
    server.on('request', (_req, res) => {
      if (!res.headersSent) res.setHeader('connection', 'close');
    });
    let sweep: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => {
      server.closeIdleConnections();
      // Keep-alive connections whose response was in progress become idle when it ends.
      sweep = setInterval(() => server.closeIdleConnections(), 25);
    }, graceMs);
    NetServer.prototype.close.call(server, () => {
      clearTimeout(grace);
      if (sweep) clearInterval(sweep);
      // Let Node's http layer run its own close bookkeeping (stops its connection-check timer).
      server.close(() => resolve());
    });
  });
}
