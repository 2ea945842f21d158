// The full check of a file `ces serve` has not opened before (src/db/integrity.ts), run after the
// server started: SQLite's integrity_check and foreign_key_check in a process of their own, with a
// read-only connection, at the lowest CPU priority, one table at a time (each in its own snapshot,
// so the WAL is not held for the whole check). On a large file this takes many minutes, much of
// it inside single SQLite statements (integrity_check of a table of 10 million entries), which the
// quick check before serving does not.
//
// A process, not a thread: a thread inside a SQLite call cannot be stopped, and Node's
// process.exit waits for every thread to leave, so a stop waited for the statement in progress.
// A process is killed at once (SIGKILL: its connection only reads), and a stop is answered within
// CES_SHUTDOWN_TIMEOUT_MS.
//
// The check needs better-sqlite3 and nothing of ours, so it is a few lines of CommonJS, run the
// same way from the sources and from the dist/ces.mjs bundle: `node -e`. The executable
// (scripts/build-binary.mjs) accepts no options of Node's; it is started again with CHILD_JOB in
// its environment, and its entry (cli/full-check-child.ts) runs the same lines instead of the
// command line.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { isSea } from 'node:sea';
import { runInThisContext } from 'node:vm';
import type { ConsolaInstance } from 'consola';
import { corruptDatabase, type IntegrityReport } from './integrity.ts';
import type { IntegrityStatus } from './integrity-status.ts';
import { sqliteModulePath } from './sqlite-module.ts';

export interface IntegrityCheck {
  /** Resolves once the check's process has ended (its report recorded). */
  done: Promise<void>;
  /** Ends the check at once, wherever it is; resolves once its process is gone. */
  stop(): Promise<void>;
}

/** Set only by the server for the check's process: what to check, and the better-sqlite3 to check it with. */
const CHILD_JOB = 'CES_FULL_CHECK_JOB';

interface Job {
  sqlite: string;
  path: string;
}

type Message = { progress: { tablesDone: number; tables: number; table: string } } | { report: IntegrityReport } | { failed: string };

// One JSON line on stdout per message, written synchronously: nothing in the check waits for the
// event loop. Should the server be gone (killed), the next line fails with EPIPE and ends the check.
// Its memory: the rows of a report, and a page cache of 2 MiB (better-sqlite3's default is 16),
// which slows the match of a table against its indexes by a tenth.
//
// sqlite_schema comes first: `integrity_check(<table>)` checks that table and its indexes but not
// the freelist (the pages kept for reuse); SQLite checks the freelist in a check of some tables
// only when the first of them is sqlite_schema, page 1. A damaged freelist would hand out pages
// that rows still use. What a check of some tables still leaves out is the page accounting (a page
// of no table nor the freelist, a page of two), which needs the whole file in one snapshot: the
// whole-file check of `ces check` makes it.
const CHILD_CODE = `(function (require, job) {
  const send = (message) => require('node:fs').writeSync(1, JSON.stringify(message) + '\\n');
  try {
    require('node:os').setPriority(19);
  } catch {}
  const Database = require(job.sqlite);
  const problems = (rows) =>
    rows.flatMap((row) => row.split('\\n')).filter((line) => line !== 'ok' && !/^[*]{3} in database /.test(line));
  let db;
  try {
    db = new Database(job.path, { readonly: true, fileMustExist: true });
    db.pragma('cache_size = -2000');
    const tables = ['sqlite_schema'].concat(
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid").all().map((r) => r.name),
    );
    const integrity = [];
    const foreign = [];
    for (let i = 0; i < tables.length; i++) {
      const name = '"' + tables[i].replaceAll('"', '""') + '"';
      try {
        integrity.push(...problems(db.pragma('integrity_check(' + name + ')').map((r) => r.integrity_check)));
        foreign.push(...db.pragma('foreign_key_check(' + name + ')'));
      } catch (error) {
        if (!/^SQLITE_(CORRUPT|NOTADB)/.test(String(error && error.code))) throw error;
        integrity.push('table ' + tables[i] + ': ' + error.message);
      }
      send({ progress: { tablesDone: i + 1, tables: tables.length, table: tables[i] } });
    }
    send({
      report: {
        ok: integrity.length === 0 && foreign.length === 0,
        integrity_check: integrity.length === 0 ? ['ok'] : integrity.slice(0, 100),
        foreign_key_check: foreign.slice(0, 100),
      },
    });
  } catch (error) {
    send({ failed: String(error && error.message) });
  } finally {
    if (db) db.close();
  }
})`;

// The check's heap holds little more than its report.
const HEAP_LIMITS = '--max-old-space-size=32 --max-semi-space-size=1';

/** Whether this process is the executable started again to run the check (see runFullCheckChild). */
export function isFullCheckChild(): boolean {
  return process.env[CHILD_JOB] !== undefined;
}

/** The check, in the executable started again for it: its require loads files by their path. */
export function runFullCheckChild(): void {
  const job = JSON.parse(process.env[CHILD_JOB]!) as Job;
  (runInThisContext(CHILD_CODE, { filename: 'ces-full-check.cjs' }) as (require: NodeJS.Require, job: Job) => void)(
    createRequire(process.execPath),
    job,
  );
}

/** The command that runs CHILD_CODE: this executable again, or Node with it as its script. */
function childCommand(): string[] {
  return isSea() ? [] : ['-e', `${CHILD_CODE}(require, JSON.parse(process.env.${CHILD_JOB}))`];
}

/**
 * Starts the full check of `path`. `status` follows it; `passed` records the file once it passes
 * (the next start skips both checks). A failure is logged with what to do, and GET /healthz reports it.
 */
export function startIntegrityCheck(
  path: string,
  status: IntegrityStatus,
  log: ConsolaInstance,
  passed: () => void,
  monotonicMs: () => number,
): IntegrityCheck {
  const started = monotonicMs();
  status.state = 'checking';
  status.reason = null;
  const job: Job = { sqlite: sqliteModulePath(), path };
  // Referenced, like any work in progress: whoever waits for `done` needs the event loop kept alive
  // until the check ends, and a shutdown stops it first (`stop`).
  const child = spawn(process.execPath, childCommand(), {
    env: { ...process.env, NODE_OPTIONS: HEAP_LIMITS, [CHILD_JOB]: JSON.stringify(job) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  log.info({
    message: 'full integrity and foreign-key check of this file started in a process of its own; GET /healthz reports it',
    check_pid: child.pid,
  });
  let stopping = false;
  let lastLog = started;
  let ended = false;
  let stderr = '';
  const fail = (reason: string): void => {
    status.state = 'failed';
    status.reason = reason;
    log.error({ message: `full integrity check failed: ${reason}`, db_path: path });
  };
  const onMessage = (m: Message): void => {
    if ('progress' in m && monotonicMs() - lastLog >= 5_000) {
      lastLog = monotonicMs();
      log.info({ message: `full integrity check: ${m.progress.tablesDone} of ${m.progress.tables} tables done`, ...m.progress });
    }
    if ('failed' in m) {
      ended = true;
      fail(`the check could not run: ${m.failed}`);
    }
    if ('report' in m) {
      ended = true;
      if (!m.report.ok) fail(corruptDatabase(path, m.report).message);
      else {
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
    }
  };
  // What the check writes is its messages, each a line of JSON; anything else (a line of the
  // runtime's own, or the end of one cut by a kill) is kept with stderr, for the reason should the
  // process fail.
  const keep = (text: string): void => void (stderr = (stderr + text).slice(-2_000));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      keep(`${line}\n`);
      return;
    }
    onMessage(message);
  });
  child.stderr.on('data', (chunk: Buffer) => keep(chunk.toString('utf8')));
  const done = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      ended = true;
      fail(`the check could not run: ${error.message}`);
      resolve();
    });
    child.once('close', (code, signal) => {
      if (!ended && !stopping)
        fail(`the check could not run: its process ended (${signal ?? `exit code ${code}`}) ${stderr.trim()}`.trim());
      resolve();
    });
  });
  return {
    done,
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await done;
      if (status.state === 'checking') status.reason = 'stopped before it finished; it runs again at the next start';
    },
  };
}
