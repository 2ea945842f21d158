// The row memo never serves a row another connection or this one has changed since.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openDatabase } from '../../src/db/open.ts';
import { cachedRow, invalidateRows, revalidateRows, revalidateRowsForRequest } from '../../src/db/row-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-row-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function setup(name: string) {
  const path = join(dir, name);
  const db = openDatabase(path);
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)');
  db.prepare("INSERT INTO t VALUES ('a', 'one')").run();
  let loads = 0;
  const read = () =>
    cachedRow(db, 't', 'a', () => {
      loads++;
      return db.prepare("SELECT v FROM t WHERE k = 'a'").pluck().get() as string | undefined;
    });
  return { path, db, read, loads: () => loads };
}

test('a memoized row is read once while nothing changes', async () => {
  const { db, read, loads } = setup('same.db');
  assert.equal(read(), 'one');
  assert.equal(read(), 'one');
  await nextTurn();
  assert.equal(read(), 'one');
  assert.equal(loads(), 1);
  db.close();
});

test("another connection's commit is seen from the next event-loop turn on, or at once after revalidateRows", async () => {
  const { path, db, read } = setup('other.db');
  assert.equal(read(), 'one');
  const other = openDatabase(path);
  other.prepare("UPDATE t SET v = 'two' WHERE k = 'a'").run();
  await nextTurn();
  assert.equal(read(), 'two');
  other.prepare("UPDATE t SET v = 'three' WHERE k = 'a'").run();
  revalidateRows(db);
  assert.equal(read(), 'three');
  other.close();
  db.close();
});

test("the first HTTP request of a turn sees another connection's commit made after a read earlier in that turn; later requests of the turn reuse that check", async () => {
  // Issue 32: the tick's timer read the memo, `ces key rotate --grace 0` committed and returned, and
  // the request sent next was served in the same turn with the revoked key.
  const { path, db, read } = setup('request.db');
  await nextTurn();
  assert.equal(read(), 'one', 'a timer reads early in the turn');
  const other = openDatabase(path);
  other.prepare("UPDATE t SET v = 'two' WHERE k = 'a'").run();
  assert.equal(read(), 'one', 'within the turn, a read alone does not look again');
  revalidateRowsForRequest(db);
  assert.equal(read(), 'two', 'the request that arrived after the commit sees it');
  // A commit after that check is not looked for again by a request of the same turn (it arrived
  // with the first one, before that commit): one check per turn.
  other.prepare("UPDATE t SET v = 'later' WHERE k = 'a'").run();
  revalidateRowsForRequest(db);
  assert.equal(read(), 'two', 'a second request of the same turn costs no new check');
  await nextTurn();
  other.prepare("UPDATE t SET v = 'three' WHERE k = 'a'").run();
  read();
  revalidateRowsForRequest(db);
  assert.equal(read(), 'three', 'and the next turn has its own');
  other.close();
  db.close();
});

test("this connection's own write is seen once the repo calls invalidateRows; misses are not kept", () => {
  const { db, read, loads } = setup('own.db');
  assert.equal(read(), 'one');
  db.prepare("UPDATE t SET v = 'two' WHERE k = 'a'").run();
  invalidateRows(db);
  assert.equal(read(), 'two');
  db.prepare('DELETE FROM t').run();
  invalidateRows(db);
  assert.equal(read(), undefined);
  db.prepare("INSERT INTO t VALUES ('a', 'back')").run();
  assert.equal(read(), 'back');
  assert.equal(loads(), 4);
  db.close();
});
