// One `ces serve` per database (src/db/server-claim.ts), decided from the record a server leaves in
// server_process and from /proc: which recorded servers still hold the file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, type Db } from '../../src/db/open.ts';
import { claimDatabase, releaseDatabase, type ServerProcess } from '../../src/db/server-claim.ts';
import { AppError } from '../../src/kernel/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-claim-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function freshDb(): { db: Db; dbPath: string } {
  const dbPath = join(dir, `claim-${n++}.db`);
  return { db: openDatabase(dbPath), dbPath };
}

const record = (db: Db): ServerProcess | undefined =>
  db.prepare('SELECT pid, host, started_at FROM server_process').get() as ServerProcess | undefined;

/** A pid that no process has now: a child that has exited (its pid is not reused this soon). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

test('a first server records itself; stopping removes the record', () => {
  const { db, dbPath } = freshDb();
  assert.deepEqual(claimDatabase(db, { pid: 4242, host: 'box', started_at: 't1', dbPath }), { previous: null });
  assert.deepEqual(record(db), { pid: 4242, host: 'box', started_at: 't1' });
  releaseDatabase(db, { pid: 4242, host: 'box' });
  assert.equal(record(db), undefined);
  db.close();
});

test('a recorded server on this host that still has the file open is refused with database_in_use', () => {
  const { db, dbPath } = freshDb();
  // This test process has the file open: it stands for the first server.
  claimDatabase(db, { pid: process.pid, host: 'box', started_at: 't1', dbPath });
  assert.throws(
    () => claimDatabase(db, { pid: process.pid + 1_000_000, host: 'box', started_at: 't2', dbPath }),
    (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'database_in_use');
      assert.match(error.message, new RegExp(`process ${process.pid}, started t1`));
      return true;
    },
  );
  assert.deepEqual(record(db), { pid: process.pid, host: 'box', started_at: 't1' }, 'the first server keeps its record');
  // Nor does a stop of the refused one remove the first server's record.
  releaseDatabase(db, { pid: process.pid + 1_000_000, host: 'box' });
  assert.equal(record(db)?.pid, process.pid);
  db.close();
});

test('a record left by a server that died, or by a live process that no longer has the file open, is taken over', async () => {
  const { db, dbPath } = freshDb();
  const gone = await deadPid();
  db.prepare("INSERT INTO server_process (id, pid, host, started_at) VALUES (1, ?, 'box', 't0')").run(gone);
  assert.deepEqual(claimDatabase(db, { pid: 7, host: 'box', started_at: 't1', dbPath }), { previous: null });
  assert.equal(record(db)?.pid, 7);
  // The test runner that started this file is alive but does not have this database open.
  db.prepare('UPDATE server_process SET pid = ?').run(process.ppid);
  claimDatabase(db, { pid: 8, host: 'box', started_at: 't2', dbPath });
  assert.equal(record(db)?.pid, 8);
  db.close();
});

test('the same process may claim again (a server restarted in-process)', () => {
  const { db, dbPath } = freshDb();
  claimDatabase(db, { pid: process.pid, host: 'box', started_at: 't1', dbPath });
  claimDatabase(db, { pid: process.pid, host: 'box', started_at: 't2', dbPath });
  assert.equal(record(db)?.started_at, 't2');
  db.close();
});

test('a record from another host cannot be checked: it is returned for a warning and replaced', () => {
  const { db, dbPath } = freshDb();
  claimDatabase(db, { pid: process.pid, host: 'other-box', started_at: 't1', dbPath });
  const { previous } = claimDatabase(db, { pid: process.pid + 1_000_000, host: 'box', started_at: 't2', dbPath });
  assert.deepEqual(previous, { pid: process.pid, host: 'other-box', started_at: 't1' });
  assert.equal(record(db)?.host, 'box');
  db.close();
});
