// The group committer (src/intake/group-commit.ts): writes of one event-loop turn share a transaction,
// a failing write never undoes its neighbours, leaves nothing of itself, and a batch that fell back
// to savepoints stores exactly what a one-transaction-per-write committer stores.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createDirectCommitter, createGroupCommitter, type Committer } from '../../src/intake/group-commit.ts';
import { seededRandom, streamRandom } from '../../src/kernel/random.ts';

function world(seed: number) {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, label TEXT NOT NULL UNIQUE)');
  const random = seededRandom(seed);
  // As intake does: each write gets a seed when it is queued and draws its ids from that seed, so a
  // re-run after a rollback draws the same ones.
  const insert = (label: string, failAfterInsert = false) => {
    const seedBytes = random.bytes(16);
    return () => {
      const id = streamRandom(seedBytes).uuid();
      db.prepare('INSERT INTO t (id, label) VALUES (?, ?)').run(id, label);
      if (failAfterInsert) throw new Error(`write ${label} failed after its insert`);
      return id;
    };
  };
  return { db, insert };
}

const settle = (p: Promise<unknown>) =>
  p.then(
    (v) => ({ ok: true, v }),
    (e: Error) => ({ ok: false, v: e.message }),
  );

async function script(make: (db: Database.Database) => Committer, seed: number) {
  const w = world(seed);
  const committer = make(w.db);
  // One turn: five writes, the third fails after inserting, the fourth collides with the first.
  const results = await Promise.all([
    settle(committer.run(w.insert('a'))),
    settle(committer.run(w.insert('b'))),
    settle(committer.run(w.insert('c', true))),
    settle(committer.run(w.insert('a'))),
    settle(committer.run(w.insert('d'))),
  ]);
  // The next turn starts clean.
  const later = await Promise.all([settle(committer.run(w.insert('e'))), settle(committer.run(w.insert('f')))]);
  const rows = w.db.prepare('SELECT id, label FROM t ORDER BY label').all();
  return { results: [...results, ...later].map((r) => ({ ok: r.ok, v: r.ok ? 'id' : String(r.v).replace(/: t\.label/, '') })), rows };
}

test('a failing write is undone alone, and the batch stores what one transaction per write stores (same ids too)', async () => {
  const grouped = await script((db) => createGroupCommitter(db), 5);
  const direct = await script((db) => createDirectCommitter(db), 5);
  assert.deepEqual(
    grouped.results.map((r) => r.ok),
    [true, true, false, false, true, true, true],
  );
  assert.deepEqual(
    grouped.rows.map((r: any) => r.label),
    ['a', 'b', 'd', 'e', 'f'],
  );
  assert.deepEqual(grouped, direct);
});

test('writes of one turn share one transaction; a lone failing write rejects without a second pass', async () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (n INTEGER)');
  const committer = createGroupCommitter(db);
  let runs = 0;
  const seen: boolean[] = [];
  const write = (n: number) => () => {
    seen.push(db.inTransaction);
    db.prepare('INSERT INTO t (n) VALUES (?)').run(n);
    return n;
  };
  assert.deepEqual(await Promise.all([1, 2, 3].map((n) => committer.run(write(n)))), [1, 2, 3]);
  assert.ok(seen.every(Boolean));
  const lone = committer.run(() => {
    runs++;
    db.prepare('INSERT INTO t (n) VALUES (99)').run();
    throw new Error('no');
  });
  await assert.rejects(lone, /no/);
  assert.equal(runs, 1);
  assert.equal((db.prepare('SELECT count(*) AS n FROM t WHERE n = 99').get() as { n: number }).n, 0);
  await committer.drain();
});
