// truncateWal (src/db/wal-truncate.ts) against a real checkpoint in progress on another
// connection: SQLite answers the truncation busy at once, without its busy handler, so one try is
// skipped; the retries empty the WAL once that checkpoint is done. No sleep decides the order: a
// reader thread holds a snapshot until the first retry's pause lets it go, and a checkpointer
// thread runs wal_checkpoint(FULL), which holds the checkpoint and write locks while it waits for
// that reader (seen from here as the write lock being taken).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { openDatabase, type Db } from '../../src/db/open.ts';
import { truncateWal } from '../../src/db/wal-truncate.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const THREAD_CODE = `
const { workerData: w, parentPort } = require('node:worker_threads');
const Database = require(w.sqlite);
const db = new Database(w.path);
if (w.role === 'writer') {
  // An intake writer: waits at most a second for the write lock, as intake may; counts what failed.
  db.pragma('busy_timeout = 1000');
  const insert = db.prepare('INSERT INTO t (v) VALUES (-1)');
  let inserts = 0;
  let busy = 0;
  let told = false;
  while (Atomics.load(new Int32Array(w.release), 0) === 0) {
    try {
      insert.run();
      inserts++;
    } catch (error) {
      if (error.code !== 'SQLITE_BUSY') throw error;
      busy++;
    }
    if (inserts === 1 && !told) {
      told = true;
      parentPort.postMessage('writing');
    }
  }
  db.close();
  parentPort.postMessage({ inserts, busy });
} else if (w.role === 'reader') {
  db.exec('BEGIN');
  db.prepare('SELECT count(*) FROM t').get();
  parentPort.postMessage('reading');
  Atomics.wait(new Int32Array(w.release), 0, 0);
  db.exec('COMMIT');
  db.close();
  parentPort.postMessage('done');
} else {
  db.pragma('busy_timeout = 120000');
  const result = db.pragma('wal_checkpoint(FULL)')[0];
  db.close();
  parentPort.postMessage(result);
}
`;

function thread(
  role: 'reader' | 'checkpointer' | 'writer',
  path: string,
  release: SharedArrayBuffer,
): { worker: Worker; next: () => Promise<unknown> } {
  const worker = new Worker(THREAD_CODE, {
    eval: true,
    workerData: { role, path, release, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  const messages: unknown[] = [];
  const waiting: Array<(m: unknown) => void> = [];
  worker.on('message', (m) => (waiting.length > 0 ? waiting.shift()!(m) : messages.push(m)));
  worker.on('error', (e) => {
    throw e;
  });
  return { worker, next: () => (messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise((r) => waiting.push(r))) };
}

/** True once another connection holds the write lock (the FULL checkpoint waiting on the reader). */
function writeLockTaken(db: Db): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  }
}

test('the truncation is tried again while another connection checkpoints, and empties the WAL once it is done', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-wal-truncate-'));
  dirs.push(dir);
  const path = join(dir, 'ces.db');
  // No commit of this connection checkpoints by itself: the WAL holds what the test writes.
  const db = openDatabase(path, { checkpoints: 'external', migrate: false });
  const release = new SharedArrayBuffer(4);
  try {
    db.exec('CREATE TABLE t (v INTEGER NOT NULL) STRICT');
    db.prepare('INSERT INTO t (v) VALUES (1)').run();
    const reader = thread('reader', path, release);
    assert.equal(await reader.next(), 'reading');
    // Frames the reader's snapshot does not see: a FULL checkpoint must wait for it.
    for (let i = 0; i < 50; i++) db.prepare('INSERT INTO t (v) VALUES (?)').run(i);
    const checkpointer = thread('checkpointer', path, release);
    db.pragma('busy_timeout = 0');
    for (let i = 0; !writeLockTaken(db); i++) {
      assert.ok(i < 12_000, 'the FULL checkpoint never started');
      await sleep(5);
    }
    db.pragma('busy_timeout = 10000');

    assert.equal(truncateWal(db, { retries: 0 }), false, 'one try meets the checkpoint in progress and is skipped');
    assert.ok(statSync(`${path}-wal`).size > 0);

    let pauses = 0;
    const truncated = truncateWal(db, {
      retries: 60_000,
      pause: (ms) => {
        // The first pause lets the reader go; the checkpoint then finishes and frees its locks.
        if (pauses++ === 0) {
          Atomics.store(new Int32Array(release), 0, 1);
          Atomics.notify(new Int32Array(release), 0);
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
      },
    });
    assert.equal(truncated, true);
    assert.ok(pauses >= 1);
    assert.equal(statSync(`${path}-wal`).size, 0, 'the WAL is empty');
    const full = (await checkpointer.next()) as { busy: number; log: number; checkpointed: number };
    assert.equal(full.busy, 0, 'the other checkpoint finished too');
    assert.equal(await reader.next(), 'done');
  } finally {
    Atomics.store(new Int32Array(release), 0, 1);
    Atomics.notify(new Int32Array(release), 0);
    db.close();
  }
});

// A TRUNCATE checkpoint takes the write lock and then waits for the readers, holding it: with the
// connection's busy timeout, a reader holding a snapshot (an export, a `sqlite3` shell) stopped
// every writer for the whole timeout (intake stalled ~12 s from the dashboard). No try waits now.
test('a reader holding a snapshot makes the truncation answer busy at once, and a writer beside it never waits past its second', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-wal-truncate-'));
  dirs.push(dir);
  const path = join(dir, 'ces.db');
  const db = openDatabase(path, { checkpoints: 'external', migrate: false });
  const stop = new SharedArrayBuffer(4);
  try {
    db.exec('CREATE TABLE t (v INTEGER NOT NULL) STRICT');
    db.prepare('INSERT INTO t (v) VALUES (1)').run();
    const reader = openDatabase(path, { readonly: true, migrate: false });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM t').get();
    db.prepare('INSERT INTO t (v) VALUES (2)').run(); // a frame the reader's snapshot does not see
    const writer = thread('writer', path, stop);
    assert.equal(await writer.next(), 'writing');

    // Far past the writer's second: were it waited on, the writer's inserts would fail meanwhile.
    db.pragma('busy_timeout = 5000');
    assert.equal(truncateWal(db, { retries: 3 }), false, 'busy while the reader holds its snapshot');
    assert.equal(db.pragma('busy_timeout', { simple: true }), 5000, "the connection's busy timeout is restored");
    Atomics.store(new Int32Array(stop), 0, 1);
    const written = (await writer.next()) as { inserts: number; busy: number };
    assert.equal(written.busy, 0, 'no insert of the writer waited past its busy timeout');
    assert.ok(written.inserts >= 1);

    reader.exec('COMMIT');
    reader.close();
    assert.equal(truncateWal(db, { retries: 0 }), true, 'the reader gone, the WAL empties');
    assert.equal(statSync(`${path}-wal`).size, 0);
  } finally {
    Atomics.store(new Int32Array(stop), 0, 1);
    db.close();
  }
});
