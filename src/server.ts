// Composition root of `ces serve`: open the database, build the service and the HTTP app, listen
// (listhen over h3's Node adapter), and stop gracefully on SIGINT/SIGTERM.
import { toNodeHandler } from 'h3/node';
import { listen, type Listener } from 'listhen';
import type { ConsolaInstance } from 'consola';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Ctx } from './context.ts';
import { openDatabase } from './db/open.ts';
import { createHttpApp } from './http/app.ts';
import { cryptoRandom, type Random } from './random.ts';
import { createService, type Service } from './service.ts';

export interface RunningServer {
  url: string;
  service: Service;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  random?: Random;
  groupCommit?: boolean;
  /** Run the background tick on its timer (default true); tests drive it by hand instead. */
  tick?: boolean;
}

export async function startServer(config: Readonly<Config>, log: ConsolaInstance, options: StartOptions = {}): Promise<RunningServer> {
  const db = openDatabase(config.dbPath);
  const ctx: Ctx = { db, clock: options.clock ?? systemClock, random: options.random ?? cryptoRandom, config, log };
  const service = createService(ctx, { groupCommit: options.groupCommit });
  const app = createHttpApp(service);
  let listener: Listener;
  try {
    listener = await listen(toNodeHandler(app), {
      // get-port-please would otherwise turn 0 into 3000 and a busy port into "the next free one";
      // an operator who asks for a port gets that port or an error.
      port: config.port === 0 ? { port: 0, random: true } : { port: config.port, random: false },
      hostname: config.host,
      showURL: false,
      qr: false,
      public: config.host !== '127.0.0.1' && config.host !== 'localhost',
      isProd: true,
      // Signals are ours: finish in-flight requests and the tick, close the database, exit 0.
      autoClose: false,
    });
  } catch (error) {
    db.close();
    throw error;
  }
  const address = listener.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    service,
    close: () => {
      closing ??= (async () => {
        await listener.close();
        await service.committer.drain();
        db.close();
      })();
      return closing;
    },
  };
}
