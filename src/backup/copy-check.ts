// The check of a fresh copy, a backup's or a restore's: the copy leaves WAL mode (one file, no -wal
// beside it), then PRAGMA integrity_check, and for a restore foreign_key_check. On a file of
// gigabytes that is many minutes inside single SQLite statements (10 million entries, 23 GB: 11
// minutes here), so it runs on a thread of its own and the command's event loop stays free to say,
// now and then, that it is still checking.
//
// The thread needs better-sqlite3 and nothing of ours: a few lines of CommonJS, evaluated, which
// run the same from the sources, the dist/ces.mjs bundle and the executable.
import { Worker } from 'node:worker_threads';
import { monotonicMs } from '../kernel/clock.ts';
import { sqliteModulePath } from '../db/sqlite-module.ts';

export interface CopyCheck {
  /** integrity_check's problems (at most 20), or the error that stopped it; [] when the copy is sound. */
  problems: string[];
  /** Rows foreign_key_check found (0 when not asked or not reached). */
  foreignKeyViolations: number;
}

interface Job {
  sqlite: string;
  path: string;
  foreignKeys: boolean;
}

const WORKER_CODE = `
const { workerData: job, parentPort } = require('node:worker_threads');
const Database = require(job.sqlite);
let db;
try {
  db = new Database(job.path, { fileMustExist: true });
  db.pragma('journal_mode = DELETE');
  const rows = db.prepare('PRAGMA integrity_check(20)').all().map((r) => r.integrity_check);
  const problems = rows.length === 1 && rows[0] === 'ok' ? [] : rows;
  const foreignKeyViolations = job.foreignKeys && problems.length === 0 ? db.prepare('PRAGMA foreign_key_check').all().length : 0;
  parentPort.postMessage({ problems, foreignKeyViolations });
} catch (error) {
  // A copy too damaged to open or to leave WAL mode: SQLite's own words are the problem.
  parentPort.postMessage({ problems: [String(error && error.message ? error.message : error)], foreignKeyViolations: 0 });
} finally {
  if (db) db.close();
}
`;

/**
 * Seals the copy at `path` and checks it on a thread of its own; `stillChecking` is called every
 * `everyMs` with the time spent so far, until the check ends.
 */
export function sealAndCheckCopy(
  path: string,
  o: { foreignKeys: boolean; stillChecking?: (elapsedMs: number) => void; everyMs?: number },
): Promise<CopyCheck> {
  const started = monotonicMs();
  const job: Job = { sqlite: sqliteModulePath(), path, foreignKeys: o.foreignKeys };
  const worker = new Worker(WORKER_CODE, { eval: true, workerData: job });
  const { stillChecking } = o;
  const timer = stillChecking ? setInterval(() => stillChecking(monotonicMs() - started), o.everyMs ?? 60_000) : null;
  return new Promise<CopyCheck>((resolve) => {
    let answer: CopyCheck = { problems: ['the check stopped without an answer'], foreignKeyViolations: 0 };
    worker.on('message', (message: CopyCheck) => (answer = message));
    worker.on('error', (error) => (answer = { problems: [String(error)], foreignKeyViolations: 0 }));
    worker.on('exit', () => {
      if (timer) clearInterval(timer);
      resolve(answer);
    });
  });
}
