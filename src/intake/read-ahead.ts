// Reads ahead of intake's writes. An entry's write looks up and then changes a page of each index
// keyed by what the client chose: the Idempotency-Key, the participant's document, e-mail and phone,
// and the participant's own entries. Those keys are random, so in a file larger than memory each
// lookup is a read from the disk, made by the HTTP thread inside the group commit's transaction: one
// read at a time, and every request of the batch waits for all of them (BENCHMARKS.md, section A file
// of 10 million entries: intake at 10 million entries served a third of an empty file's requests).
//
// So before a write joins the group commit, the same lookups run on a few threads with read-only
// connections of their own: the pages they read stay in the operating system's page cache, and the
// write finds them there. The threads wait for the disk while the HTTP thread goes on serving.
//
// Nothing depends on the answers: the write looks everything up again inside its transaction. A
// lookup that fails, a thread that stops, or an answer later than READ_AHEAD_WAIT_MS only means
// the write reads for itself, as it did before.
import { Worker } from 'node:worker_threads';
import type { ConsolaInstance } from 'consola';
import { sqliteModulePath } from '../db/sqlite-module.ts';

/**
 * Whether a server on a file of `fileBytes` reads ahead, on a machine of `memoryBytes`: only when
 * the file is larger than half the memory. A smaller file's index pages stay in the page cache, and
 * the threads would only spend CPU beside the HTTP thread (at a million entries, a 2 GB file, they
 * added 30% to the server's CPU per request and no request a second).
 */
export function worthReadingAhead(fileBytes: number, memoryBytes: number): boolean {
  return fileBytes > memoryBytes / 2;
}

/**
 * Threads reading ahead. At 10 million entries 2, 4 and 8 served as many requests a second (the
 * disk's queue is not the limit left, the HTTP thread's CPU is), and each thread costs some 8 MB
 * of resident memory.
 */
const READ_AHEAD_THREADS = 2;
/** How long a write waits for its lookups before it goes ahead without them. */
const READ_AHEAD_WAIT_MS = 250;

/** One write's lookups, as plain data for a thread. */
export interface Lookup {
  campaignId: string;
  livemode: number;
  idempotencyKey: string;
  document: string;
  emailKey: string | null;
  phone: string | null;
}

interface ReadAhead {
  /** Resolves once the pages of `lookup` are read (or READ_AHEAD_WAIT_MS has passed); never rejects. */
  warm(lookup: Lookup): Promise<void>;
  /** Stops the threads; pending warms resolve at once. */
  close(): Promise<void>;
}

// The thread: one read transaction per batch, the statements the write will run (or ones that
// walk to the same index pages), answers thrown away. Small heap and page cache: what it reads is
// meant for the operating system's cache, not its own.
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
let db;
try {
  db = new Database(workerData.path, { readonly: true, fileMustExist: true });
  db.pragma('cache_size = -1024');
  const statements = {
    begin: db.prepare('BEGIN'),
    commit: db.prepare('COMMIT'),
    key: db.prepare('SELECT rowid FROM entries WHERE campaign_id = ? AND livemode = ? AND idempotency_key = ?'),
    document: db.prepare('SELECT * FROM enrollments WHERE campaign_id = ? AND livemode = ? AND document_number = ?'),
    entries: db.prepare('SELECT max(created_at) FROM entries WHERE enrollment_id = ?'),
    email: db.prepare('SELECT id FROM enrollments WHERE campaign_id = ? AND livemode = ? AND email_key = ?'),
    phone: db.prepare('SELECT id FROM enrollments WHERE campaign_id = ? AND livemode = ? AND phone = ?'),
  };
  parentPort.on('message', (batch) => {
    if (batch === 'stop') {
      db.close();
      parentPort.close();
      return;
    }
    let failed = null;
    try {
      statements.begin.run();
      for (const l of batch.lookups) {
        statements.key.get(l.campaignId, l.livemode, l.idempotencyKey);
        const enrollment = statements.document.get(l.campaignId, l.livemode, l.document);
        if (enrollment) statements.entries.get(enrollment.id);
        if (l.emailKey !== null) statements.email.get(l.campaignId, l.livemode, l.emailKey);
        if (l.phone !== null) statements.phone.get(l.campaignId, l.livemode, l.phone);
      }
    } catch (error) {
      // A lookup that fails costs nothing but its warmth: the write reads for itself.
      failed = String(error);
    } finally {
      if (db.inTransaction) statements.commit.run();
    }
    parentPort.postMessage({ id: batch.id, failed });
  });
} catch (error) {
  if (db && db.open) db.close();
  parentPort.postMessage({ failed: String(error) });
  parentPort.close();
}
`;

const LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 };

interface Thread {
  worker: Worker;
  alive: boolean;
  /** Batches sent and not yet answered, by id. */
  waiting: Map<number, () => void>;
}

/** Starts `threads` threads reading ahead on the database file at `path`. */
export function startReadAhead(path: string, log: ConsolaInstance, threads = READ_AHEAD_THREADS, waitMs = READ_AHEAD_WAIT_MS): ReadAhead {
  const pool: Thread[] = [];
  // Said once: a statement that no longer fits the schema would fail for every batch.
  let reported = false;
  const report = (error: string): void => {
    if (reported) return;
    reported = true;
    log.warn({ message: 'reading ahead of intake failed; each write reads its pages for itself', error });
  };
  for (let i = 0; i < threads; i++) {
    const worker = new Worker(WORKER_CODE, { eval: true, workerData: { sqlite: sqliteModulePath(), path }, resourceLimits: LIMITS });
    // Never what keeps the process alive.
    worker.unref();
    const thread: Thread = { worker, alive: true, waiting: new Map() };
    const stopped = (): void => {
      thread.alive = false;
      for (const done of thread.waiting.values()) done();
      thread.waiting.clear();
    };
    worker.on('message', (message: { id?: number; failed: string | null }) => {
      if (message.failed !== null) report(message.failed);
      if (message.id === undefined) return stopped();
      thread.waiting.get(message.id)?.();
      thread.waiting.delete(message.id);
    });
    worker.on('error', (error) => {
      report(String(error));
      stopped();
    });
    worker.on('exit', stopped);
    pool.push(thread);
  }

  // The lookups of one turn of the event loop go out together, split across the threads.
  let queued: Array<{ lookup: Lookup; done: () => void }> = [];
  let nextId = 0;
  let turn = 0;
  const flush = (): void => {
    const batch = queued;
    queued = [];
    const alive = pool.filter((thread) => thread.alive);
    if (alive.length === 0) {
      for (const item of batch) item.done();
      return;
    }
    // Started from the next thread each turn: one request a turn still spreads across them all.
    const share = Math.ceil(batch.length / alive.length);
    turn = (turn + 1) % alive.length;
    alive.forEach((_, i) => {
      const thread = alive[(turn + i) % alive.length];
      const part = batch.slice(i * share, (i + 1) * share);
      if (part.length === 0) return;
      const id = nextId++;
      thread.waiting.set(id, () => {
        for (const item of part) item.done();
      });
      thread.worker.postMessage({ id, lookups: part.map((item) => item.lookup) });
    });
  };

  return {
    warm(lookup) {
      if (!pool.some((thread) => thread.alive)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        let settled = false;
        const timer = setTimeout(() => done(), waitMs);
        const done = (): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve();
        };
        if (queued.length === 0) setImmediate(flush);
        queued.push({ lookup, done });
      });
    },
    async close() {
      for (const item of queued) item.done();
      queued = [];
      await Promise.all(
        pool.map(async (thread) => {
          if (!thread.alive) return;
          const exited = new Promise<void>((resolve) => thread.worker.once('exit', () => resolve()));
          thread.worker.ref();
          thread.worker.postMessage('stop');
          await exited;
        }),
      );
    },
  };
}
