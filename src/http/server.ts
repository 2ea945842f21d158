// Composition root of `ces serve`: open the database, build the service and the HTTP app, listen
// (listhen over h3's Node adapter), and stop gracefully on SIGINT/SIGTERM.
import { existsSync } from 'node:fs';
import { isLoopbackHost, LOOPBACK_HOSTS } from '../tools/loopback-host.ts';
import { quickCheckUnfamiliarFile, recordCheckedFile, recordFileChecked, type CheckProgress } from '../db/integrity.ts';
import { startIntegrityCheck, type IntegrityCheck } from '../db/integrity-child.ts';
import { isUnsafePort } from 'get-port-please';
import type { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';
import { listen, type Listener } from 'listhen';
import type { ConsolaInstance } from 'consola';
import { hostname } from 'node:os';
import { monotonicMs, nowIso, systemClock, type Clock } from '../kernel/clock.ts';
import type { Config } from '../kernel/config.ts';
import type { Ctx } from '../kernel/context.ts';
import { startCheckpointer, type Checkpointer } from '../db/checkpointer.ts';
import { openDatabase } from '../db/open.ts';
import { revalidateRowsForRequest } from '../db/row-cache.ts';
import { claimDatabase, releaseDatabase } from '../db/server-claim.ts';
import { createHttpApp } from './app.ts';
import { recordPublicUrl } from '../dashboard/public-url.ts';
import { closeTimedOutSocket } from './body.ts';
import { trackRequests } from './graceful-close.ts';
import { createTicker, finishesWithin, releaseStaleLeases, type TickReport } from '../pipeline/tick.ts';
import { cryptoRandom, type Random } from '../kernel/random.ts';
import { createService, type Service } from './service.ts';

export interface RunningServer {
  url: string;
  service: Service;
  /** Runs one background tick now (after the one in progress, if any) and reports what it did. */
  tick(): Promise<TickReport>;
  close(): Promise<void>;
  /** Settles when the full check of a file the server had not opened before has ended. */
  fullCheck: Promise<void>;
}

interface ServiceStartOptions {
  clock?: Clock;
  random?: Random;
  groupCommit?: boolean;
  /** The delivery scheduler's clock (src/http/service.ts); tests only. */
  deliveryClock?: () => number;
}

interface StartOptions extends ServiceStartOptions {
  /** Run the background tick on its timer (default true); tests drive it by hand instead. */
  tick?: boolean;
}

const refusedPort = (port: number): Error =>
  new Error(`port ${port} is refused by the HTTP listener (a port browsers block); choose another one`);

/** How long after its last request the server still counts as busy (see httpBusy). */
const BUSY_LINGER_MS = 250;

/** What `ces serve` holds besides its listener and its tick's timer (see openService). */
interface OpenedService {
  service: Service;
  app: H3;
  /** Lets go of the writer, the checkpoint thread, this server's record in the database, the database. */
  release(): Promise<void>;
  /** Settles when the full check of an unfamiliar file has ended (at once for a familiar one). */
  fullCheck: Promise<void>;
}

/**
 * Everything `ces serve` runs but the listener and the tick's timer: the database claimed for this
 * process (src/db/server-claim.ts), stale leases released, the checkpoint thread (unless
 * CES_CHECKPOINT_THREAD=0 or CES_CHECKPOINTS=external), the service and its HTTP app. startServer listens with it; tests drive
 * the app in process (test/support/harness.ts).
 */
export function openService(config: Readonly<Config>, log: ConsolaInstance, options: ServiceStartOptions = {}): OpenedService {
  const clock = options.clock ?? systemClock;
  const created = config.dbPath !== ':memory:' && !existsSync(config.dbPath);
  const db = openDatabase(config.dbPath, { checkpoints: config.checkpoints });
  const self = { pid: process.pid, host: hostname() };
  let unfamiliar: string | null;
  try {
    // A file this server has just created holds only what its own SQLite wrote: nothing to check.
    if (created) recordFileChecked(db, config.dbPath, nowIso(clock));
    // A file this server has not opened before (a restore) gets a quick check before anything
    // reads it, and the full check once the server runs.
    unfamiliar = quickCheckUnfamiliarFile(db, config.dbPath, logCheckProgress(log));
    const { previous } = claimDatabase(db, { ...self, started_at: nowIso(clock), dbPath: config.dbPath });
    if (previous) {
      log.warn({
        message: `this database was last served from host ${previous.host} (process ${previous.pid}, started ${previous.started_at}); if that server still runs, stop one of them: two would send each webhook twice`,
        previous_host: previous.host,
        previous_pid: previous.pid,
      });
    }
  } catch (error) {
    db.close();
    throw error;
  }
  // With CES_CHECKPOINTS=external Litestream checkpoints, and nothing of ours does (src/db/wal-watch.ts).
  const checkpointer: Checkpointer | null =
    config.checkpoints === 'internal' && config.checkpointThread && config.dbPath !== ':memory:'
      ? startCheckpointer(config.dbPath, log)
      : null;
  const ctx: Ctx = { db, clock, random: options.random ?? cryptoRandom, config, log };
  const service = createService(ctx, { groupCommit: options.groupCommit, deliveryClock: options.deliveryClock });
  releaseStaleLeases(ctx);
  const identity = unfamiliar;
  const integrity: IntegrityCheck | null =
    identity === null
      ? null
      : startIntegrityCheck(config.dbPath, service.integrity, log, () => recordCheckedFile(db, identity, nowIso(clock)), monotonicMs);
  return {
    service,
    app: createHttpApp(service),
    fullCheck: integrity?.done ?? Promise.resolve(),
    release: async () => {
      await integrity?.stop();
      await service.writer.close();
      await checkpointer?.close();
      await service.wal.settled();
      try {
        releaseDatabase(db, self);
      } catch (error) {
        // Harmless if left: the next server sees this process gone and takes the database.
        log.warn({ message: `could not clear this server's record in the database: ${(error as Error).message}` });
      }
      db.close();
    },
  };
}

/** The quick check's progress in the log: a line every few seconds, so a long one is seen working. */
function logCheckProgress(log: ConsolaInstance): (p: CheckProgress) => void {
  const started = monotonicMs();
  let last = started;
  return (p) => {
    const now = monotonicMs();
    const finished = p.tablesDone === p.tables;
    if (now - last < 5_000 && !(finished && now - started >= 5_000)) return;
    last = now;
    log.info({
      message: `quick check of a file this server has not opened before: ${p.tablesDone} of ${p.tables} tables done (${Math.round((now - started) / 1000)} s)`,
      tables_done: p.tablesDone,
      tables: p.tables,
      table: p.table,
    });
  };
}

export async function startServer(config: Readonly<Config>, log: ConsolaInstance, options: StartOptions = {}): Promise<RunningServer> {
  // get-port-please (under listhen) swaps a port it deems unsafe (those browsers block: 6667,
  // 10080...) for 3000 without a word, or, with 3000 taken, says it found no free port. Asked
  // first, with its own list, so the operator hears the real reason and no file is opened.
  if (config.port !== 0 && isUnsafePort(config.port)) throw refusedPort(config.port);
  const { service, app, release, fullCheck } = openService(config, log, options);
  const { ctx } = service;
  const handler = toNodeHandler(app);
  let listener: Listener;
  try {
    listener = await listen(handler, {
      // get-port-please would otherwise turn 0 into 3000 and a busy port into "the next free one";
      // an operator who asks for a port gets that port or an error.
      port: config.port === 0 ? { port: 0, random: true } : { port: config.port, random: false },
      hostname: config.host,
      showURL: false,
      qr: false,
      // Loopback is not public: listhen warns when a private host is served as public.
      public: !LOOPBACK_HOSTS.has(config.host),
      isProd: true,
      // Signals are ours: finish in-flight requests and the tick, close the database, exit 0.
      autoClose: false,
    });
  } catch (error) {
    await release();
    throw error;
  }
  const address = listener.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : null;
  if (config.port !== 0 && boundPort !== config.port) {
    // Not expected after the check above; an operator who asks for a port gets it or an error.
    await listener.close();
    await release();
    throw refusedPort(config.port);
  }
  applyTimeouts(listener.server, config.requestTimeoutMs);
  dropShutdownTracking(listener.server, handler);
  // Before the app reads a memoized row for it: a key revoked by the CLI just before this request
  // was sent is refused (src/db/row-cache.ts).
  listener.server.prependListener('request', () => revalidateRowsForRequest(ctx.db));
  const http = trackRequests(listener.server);
  const port = boundPort ?? config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  try {
    recordPublicUrl(ctx, port);
  } catch (error) {
    // Not a reason to stop serving: `ces dashboard link` then falls back to its own settings.
    log.warn({ message: `could not record the public URL that sign-in links are made with: ${(error as Error).message}` });
  }
  if (!isLoopbackHost(config.host)) {
    log.warn({
      message: `serving plain HTTP on ${url}, reachable from other machines: API keys, CPFs and webhook secrets would cross the network in clear. Put a TLS-terminating proxy in front (docs: Deployment) and listen on 127.0.0.1 unless the proxy runs on another machine.`,
      host: config.host,
    });
  }
  // Requests in progress or finished within BUSY_LINGER_MS, so the background tick gives intake the
  // CPU first. The linger matters under load: right after a group commit answers every waiting
  // request, none is in progress until the clients' next ones are parsed, and a tick that looked
  // then would take the idle-sized share.
  const httpBusy = (): boolean => http.activeRequests() > 0 || monotonicMs() - http.lastRequestEndedAt() < BUSY_LINGER_MS;
  const ticker = createTicker(ctx, service.tick, httpBusy, service.deliveries, service.wal, service.chores);
  if (options.tick ?? true) ticker.start(config.tickMs);
  let closing: Promise<void> | null = null;
  return {
    url,
    service,
    fullCheck,
    tick: () => ticker.tick(),
    close: () => {
      closing ??= (async () => {
        // Stop accepting and let in-flight requests finish while the current tick completes, for
        // at most CES_SHUTDOWN_TIMEOUT_MS: then requests still open are cut and outgoing calls
        // abandoned (retried by the next start), so a hanging partner never holds up a stop.
        const deadline = config.shutdownTimeoutMs;
        const closed = http.close();
        const [httpDone] = await Promise.all([finishesWithin(closed, deadline), ticker.stop(deadline)]);
        if (!httpDone) {
          log.warn({ message: `shutdown: requests still open after ${deadline} ms are cut` });
          http.destroyAll();
          await finishesWithin(closed, 1_000);
        }
        await release();
      })();
      return closing;
    },
  };
}

/**
 * Slow or stalled clients must not hold sockets forever. requestTimeout/headersTimeout are Node's
 * own limits (checked every 30 s by Node, answered with 408); the socket idle timeout closes a
 * connection that sends nothing for the same period mid-request, precisely. Node's default header
 * limit (16 KiB, request line included) stays: larger heads get 431 from Node before any handler.
 */
function applyTimeouts(server: import('node:http').Server, requestTimeoutMs: number): void {
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(requestTimeoutMs, 20_000);
  server.timeout = requestTimeoutMs;
  // Idle keep-alive sockets close after 5 s (Node's default), well under the request timeout.
  server.keepAliveTimeout = 5_000;
  // What Node does with a socket that timed out (it destroys it), but marked first, so that a body
  // cut short by it is logged as the server's 408 and not as a client that hung up (499).
  server.on('timeout', closeTimedOutSocket);
}

/**
 * listhen decorates the server with http-shutdown, whose 'request' listener marks sockets idle on
 * each response's 'finish' for its own `server.shutdown()`. We never call that (our graceful close
 * is src/http/graceful-close.ts), so the listener is pure cost on every request, and it reads
 * `req.socket` after Node has set it to null when it answered early and dropped the connection (a
 * 413 to a chunked upload still sending): an uncaught TypeError that would kill the server. Only
 * the app's handler stays.
 */
function dropShutdownTracking(server: import('node:http').Server, handler: unknown): void {
  for (const listener of server.listeners('request')) {
    if (listener !== handler) server.removeListener('request', listener as (...args: unknown[]) => void);
  }
}
