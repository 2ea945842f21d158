// The ceiling of the benchmark: an h3 v2 app whose one POST handler parses the JSON body and echoes
// it, served exactly like ces (h3's Node adapter on node:http, keep-alive defaults) in its own
// process, bundled by esbuild like ces. Prints `listening on http://127.0.0.1:PORT` once bound;
// exits on SIGTERM. The handler returns the parsed object and lets h3 serialize it: h3's fastest
// JSON path, and so the highest ceiling (a handler that builds a web `Response` instead answered
// 4.7k req/s where this one answered 12.3k, on an idle machine).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';

const app = new H3();
app.post('/echo', async (event) => {
  return await event.req.json();
});

const server = createServer(toNodeHandler(app));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
