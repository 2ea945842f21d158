// The intake write stage on a worker thread (CES_WRITER_THREAD=1; see src/entries/writer.ts). On
// the HTTP thread, a group-commit batch of fifty entries is some five hundred statements and an
// fsync during which no request is read. Here the HTTP thread batches the write requests of one
// event-loop turn into one message; the writer thread runs every message that has arrived into one
// group-commit transaction on its own connection (WAL: reads on the HTTP thread's connection never
// wait for it) and answers with one message per batch. A 202 is still sent only after the COMMIT
// that holds the entry.
//
// The worker runs this same module: from source this file, from dist/ces.mjs a bundle of this
// file alone that build.mjs embeds (see spawnWriter).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { AppError, storageUnavailable, type FieldError } from '../errors.ts';
import { createLogger } from '../log.ts';
import type { IntakeResult } from './intake.ts';
import { createCommitter, performWrite, type EntryWriter, type WriteBase, type WriteRequest } from './writer.ts';

const ROLE = 'ces-intake-writer';
// Two batches may be on their way at once: the writer has the next one queued when it finishes
// one, instead of idling while the answer travels back and the next batch is sent.
const MAX_BATCHES_IN_FLIGHT = 2;

interface WriterData {
  role: typeof ROLE;
  config: Config;
  groupCommit: boolean;
}

// Writes travel as JSON text: a batch of submissions serializes several times faster with
// JSON.stringify than with postMessage's structured clone of the same objects.
type ToWriter = { type: 'write'; items: string } | { type: 'close' };
type WriteItem = { id: number; request: WriteRequest };

type SerializedError =
  | { kind: 'app'; status: number; code: string; message: string; errors?: FieldError[]; headers?: Record<string, string> }
  | { kind: 'other'; name: string; message: string; code?: string; stack?: string };

type Settled = { id: number; ok: true; value: IntakeResult } | { id: number; ok: false; error: SerializedError };

type FromWriter = { type: 'done'; results: string };

interface Pending {
  resolve: (value: IntakeResult) => void;
  reject: (error: unknown) => void;
}

export interface ThreadWriter extends EntryWriter {
  /** Stops the thread at once, as a crash would (tests; the next write starts a new one). */
  killThread(): Promise<void>;
}

/**
 * Starts the writer thread now, so that the first request does not wait for it to boot (0.7 s from
 * source), and again on the next write after it dies.
 */
export function createThreadWriter(config: Readonly<Config>, log: WriteBase['log'], options: { groupCommit: boolean }): ThreadWriter {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let outbox: WriteItem[] = [];
  let scheduled = false;
  // Batches sent and not answered yet. While one is being written the next one gathers here, so
  // under load every commit takes everything that arrived during the previous one.
  let batchesInFlight = 0;
  let idle: Array<() => void> = [];

  const settleIdle = (): void => {
    if (pending.size > 0) return;
    worker?.unref();
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };

  /** Rejects the writes sent to a thread that stopped; ones not sent yet go to the next thread. */
  const failSent = (error: unknown): void => {
    const queued = new Set(outbox.map((item) => item.id));
    for (const [id, p] of pending) {
      if (queued.has(id)) continue;
      pending.delete(id);
      p.reject(error);
    }
    settleIdle();
    if (outbox.length > 0) flush();
  };

  const start = (): Worker => {
    const data: WriterData = { role: ROLE, config: { ...config }, groupCommit: options.groupCommit };
    const started = spawnWriter(data);
    started.on('message', (message: FromWriter) => {
      if (message.type !== 'done') return;
      batchesInFlight--;
      if (outbox.length > 0) flush();
      for (const result of JSON.parse(message.results) as Settled[]) {
        const p = pending.get(result.id);
        if (!p) continue;
        pending.delete(result.id);
        if (result.ok) p.resolve(result.value);
        else p.reject(deserializeError(result.error));
      }
      settleIdle();
    });
    started.on('error', (error) => log.error({ message: 'intake writer thread failed', error: String(error) }));
    started.on('exit', (code) => {
      if (worker === started) worker = null;
      batchesInFlight = 0;
      // A write still waiting may or may not have been committed: 503, and a retry with the same
      // Idempotency-Key either stores it or replays it. The next write starts a new thread.
      const sent = pending.size - outbox.length;
      if (sent > 0) log.error({ message: 'intake writer thread stopped with writes in flight', exit_code: code, writes: sent });
      failSent(storageUnavailable());
    });
    return started;
  };

  const flush = (): void => {
    scheduled = false;
    if (outbox.length === 0 || batchesInFlight >= MAX_BATCHES_IN_FLIGHT) return;
    const items = outbox;
    outbox = [];
    worker ??= start();
    worker.ref();
    batchesInFlight++;
    worker.postMessage({ type: 'write', items: JSON.stringify(items) } satisfies ToWriter);
  };

  let closing: Promise<void> | null = null;
  const drain = (): Promise<void> => {
    if (pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => idle.push(resolve));
  };

  // Unreferenced while idle: an idle writer never keeps the process alive.
  worker = start();
  worker.unref();

  return {
    write(request) {
      if (closing) return Promise.reject(storageUnavailable());
      return new Promise<IntakeResult>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        outbox.push({ id, request });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    drain,
    async killThread() {
      await worker?.terminate();
    },
    close() {
      closing ??= (async () => {
        await drain();
        const current = worker;
        if (!current) return;
        current.ref();
        const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
        current.postMessage({ type: 'close' } satisfies ToWriter);
        await exited;
      })();
      return closing;
    },
  };
}

// The writer's own bundle, embedded by build.mjs in the one-file bundle (dist/ces.mjs): a worker
// that loaded all of dist/ces.mjs would carry the HTTP stack, the CLI and their data too (some
// 13 MB of heap for nothing).
declare const __CES_WRITER_BUNDLE__: string | undefined;

// The writer thread needs little memory; a small young generation keeps its footprint small.
const WRITER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * Starts the writer thread. Bundled, it runs the embedded writer bundle from a data: URL, with
 * better-sqlite3 (which cannot be bundled) resolved from the bundle's own location. From source
 * (tsx) it runs this file; on Node 20 a worker does not get tsx's loader from the parent's
 * `--import`, so it registers tsx first.
 */
function spawnWriter(data: WriterData): Worker {
  const options = { workerData: data, resourceLimits: WRITER_LIMITS };
  if (typeof __CES_WRITER_BUNDLE__ === 'string') {
    const sqlite = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;
    const code = __CES_WRITER_BUNDLE__.replaceAll('from "better-sqlite3"', `from ${JSON.stringify(sqlite)}`);
    return new Worker(new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`), options);
  }
  const self = new URL(import.meta.url);
  if (!self.pathname.endsWith('.ts')) return new Worker(self, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

function serializeError(error: unknown): SerializedError {
  if (error instanceof AppError) {
    return { kind: 'app', status: error.status, code: error.code, message: error.message, errors: error.errors, headers: error.headers };
  }
  const e = error as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown } | null;
  return {
    kind: 'other',
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(error),
    code: typeof e?.code === 'string' ? e.code : undefined,
    stack: typeof e?.stack === 'string' ? e.stack : undefined,
  };
}

function deserializeError(error: SerializedError): Error {
  if (error.kind === 'app') return new AppError(error.status, error.code, error.message, error.errors, error.headers);
  // Keeps the SQLite code (SQLITE_FULL, SQLITE_BUSY…) that the HTTP layer maps to 503.
  const rebuilt = Object.assign(new Error(error.message), { code: error.code });
  rebuilt.name = error.name;
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}

/** The worker's side: its own connection, the group committer, one answer per message. */
function runWriterThread(data: WriterData, port: NonNullable<typeof parentPort>): void {
  const db = openDatabase(data.config.dbPath);
  const base: WriteBase = { db, config: data.config, log: createLogger(data.config.logFormat, process.stderr) };
  const committer = createCommitter(db, data.groupCommit);
  port.on('message', (message: ToWriter) => {
    if (message.type === 'close') {
      void committer.drain().then(() => {
        db.close();
        port.close();
      });
      return;
    }
    // Every write of this message (and of any other message read in the same turn) joins one
    // group-commit batch; the answer goes back once all of them are settled.
    void Promise.all(
      (JSON.parse(message.items) as WriteItem[]).map(({ id, request }) =>
        committer
          .run(() => performWrite(base, request))
          .then(
            (value): Settled => ({ id, ok: true, value }),
            (error: unknown): Settled => ({ id, ok: false, error: serializeError(error) }),
          ),
      ),
    ).then((results) => port.postMessage({ type: 'done', results: JSON.stringify(results) } satisfies FromWriter));
  });
}

if (!isMainThread && parentPort && (workerData as WriterData | null)?.role === ROLE) {
  runWriterThread(workerData as WriterData, parentPort);
}
