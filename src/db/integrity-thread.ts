// The full check of a file `ces serve` has not opened before (src/db/integrity.ts), run after the
// server started: SQLite's integrity_check and foreign_key_check on a thread of their own, with a
// read-only connection, at the lowest CPU priority, one table at a time (each in its own snapshot,
// so the WAL is not held for the whole check). On a large file this takes many minutes, which the
// quick check before serving does not. A shutdown stops it between two tables: a thread inside
// SQLite cannot be stopped, and the process waits for it to leave before it exits.
import { Worker } from 'node:worker_threads';
import type { ConsolaInstance } from 'consola';
import { corruptDatabase, type IntegrityReport } from './integrity.ts';
import type { IntegrityStatus } from './integrity-status.ts';
import { sqliteModulePath } from './sqlite-module.ts';

export interface IntegrityThread {
  /** Resolves once the thread has ended (its report recorded), or at once if stopped. */
  done: Promise<void>;
  /** Stops the check after the table in progress; resolves once the thread has exited. */
  stop(): Promise<void>;
}

const WORKER_CODE = `
const { parentPort, workerData: w } = require('node:worker_threads');
const Database = require(w.sqlite);
const stop = new Int32Array(w.stop);
try {
  require('node:os').setPriority(19);
} catch {}
const run = () => {
  const db = new Database(w.path, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid").all().map((r) => r.name);
    const integrity = [];
    const foreign = [];
    for (let i = 0; i < tables.length; i++) {
      if (Atomics.load(stop, 0) === 1) return { stopped: true };
      const name = '"' + tables[i].replaceAll('"', '""') + '"';
      try {
        const rows = db.pragma('integrity_check(' + name + ')').map((r) => r.integrity_check);
        if (!(rows.length === 1 && rows[0] === 'ok')) integrity.push(...rows);
        foreign.push(...db.pragma('foreign_key_check(' + name + ')'));
      } catch (error) {
        if (!/^SQLITE_(CORRUPT|NOTADB)/.test(String(error && error.code))) throw error;
        integrity.push('table ' + tables[i] + ': ' + error.message);
      }
      parentPort.postMessage({ progress: { tablesDone: i + 1, tables: tables.length, table: tables[i] } });
    }
    return {
      report: {
        ok: integrity.length === 0 && foreign.length === 0,
        integrity_check: integrity.length === 0 ? ['ok'] : integrity.slice(0, 100),
        foreign_key_check: foreign.slice(0, 100),
      },
    };
  } finally {
    db.close();
  }
};
try {
  parentPort.postMessage(run());
} catch (error) {
  parentPort.postMessage({ failed: String(error && error.message) });
}
`;

const LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 };

/**
 * Starts the full check of `path`. `status` follows it; `passed` records the file once it passes
 * (the next start skips both checks). A failure is logged with what to do, and GET /healthz reports it.
 */
export function startIntegrityThread(
  path: string,
  status: IntegrityStatus,
  log: ConsolaInstance,
  passed: () => void,
  monotonicMs: () => number,
): IntegrityThread {
  const stopFlag = new SharedArrayBuffer(4);
  const started = monotonicMs();
  status.state = 'checking';
  status.reason = null;
  log.info({ message: 'full integrity and foreign-key check of this file started on its own thread; GET /healthz reports it' });
  const worker = new Worker(WORKER_CODE, {
    eval: true,
    workerData: { sqlite: sqliteModulePath(), path, stop: stopFlag },
    resourceLimits: LIMITS,
  });
  // Referenced, like any work in progress: whoever waits for `done` needs the event loop kept alive
  // until the thread ends, and a shutdown stops it first (`stop`).
  let lastLog = started;
  const fail = (reason: string): void => {
    status.state = 'failed';
    status.reason = reason;
    log.error({ message: `full integrity check failed: ${reason}`, db_path: path });
  };
  worker.on(
    'message',
    (m: { progress?: { tablesDone: number; tables: number; table: string }; report?: IntegrityReport; failed?: string }) => {
      if (m.progress && monotonicMs() - lastLog >= 5_000) {
        lastLog = monotonicMs();
        log.info({ message: `full integrity check: ${m.progress.tablesDone} of ${m.progress.tables} tables done`, ...m.progress });
      }
      if (m.failed) fail(`the check could not run: ${m.failed}`);
      if (m.report && !m.report.ok) fail(corruptDatabase(path, m.report).message);
      if (m.report?.ok) {
        try {
          passed();
          status.state = 'ok';
          log.info({ message: `full integrity check passed in ${Math.round((monotonicMs() - started) / 1000)} s` });
        } catch (error) {
          // Not a fault of the file: the check runs again at the next start.
          status.state = 'ok';
          log.warn({ message: `full integrity check passed but could not be recorded: ${(error as Error).message}` });
        }
      }
    },
  );
  worker.on('error', (error) => fail(`the check could not run: ${error.message}`));
  const done = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    done,
    stop: async () => {
      Atomics.store(new Int32Array(stopFlag), 0, 1);
      await done;
      if (status.state === 'checking') status.reason = 'stopped before it finished; it runs again at the next start';
    },
  };
}
