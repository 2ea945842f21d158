// A webhook receiver that keeps each request's body as the bytes that arrived (read whole, never
// decoded chunk by chunk), over https with the test certificate (test/fixtures/tls, trusted
// through NODE_EXTRA_CA_CERTS) for real deliveries, or plain http for `ces webhook listen`.
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { eventually } from './ces.ts';

export interface Delivery {
  headers: IncomingMessage['headers'];
  body: Uint8Array;
}

export interface RawReceiver {
  url: string;
  deliveries: Delivery[];
  /** The deliveries whose JSON body `pick` keeps, once there are `count` of them. */
  waitFor(count: number, pick: (event: any) => boolean): Promise<Delivery[]>;
  close(): Promise<void>;
}

const TLS = new URL('../../../../test/fixtures/tls/', import.meta.url);

export async function startRawReceiver({ tls }: { tls: boolean }): Promise<RawReceiver> {
  const deliveries: Delivery[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: new Uint8Array(Buffer.concat(chunks)) });
      res.writeHead(204).end();
    });
  };
  const server = tls
    ? createHttpsServer({ key: readFileSync(new URL('server-key.pem', TLS)), cert: readFileSync(new URL('server.pem', TLS)) }, handle)
    : createHttpServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const parse = (d: Delivery): any => JSON.parse(Buffer.from(d.body).toString('utf8'));
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/webhooks`,
    deliveries,
    waitFor: (count, pick) =>
      eventually(`${count} deliveries`, async () => {
        const picked = deliveries.filter((d) => pick(parse(d)));
        return picked.length >= count ? picked : undefined;
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
