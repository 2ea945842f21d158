// Schema version 20 (src/db/migrations/020-draw-numbers-missing-gaps.ts): draw_numbers accepts a
// third encoding, the missing elements' gaps. A set frozen by an older ces, in the two encodings it
// wrote, reads back the same after the upgrade, and the CHECK still refuses an encoding it does not know.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate } from '../src/db/migrate.ts';
import { canonicalSha256, ENCODING_BITMAP, ENCODING_GAPS, ENCODING_MISSING_GAPS, NumberSet } from '../src/draws/number-set.ts';

test('a set frozen before version 20 reads the same after the upgrade, which allows encoding 2 and no other', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-draws-v20-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = new Database(join(dir, 'old.db'));
  t.after(() => db.close());
  migrate(db, 19);
  // A half-full series (its bitmap) and a sparse one (gaps): the encodings version 19 wrote.
  const set = new NumberSet(3);
  for (let e = 0; e < 100_000; e += 2) set.add(0, e);
  for (const e of [5, 70_000, 99_999]) set.add(2, e);
  const parts = set.encode();
  assert.deepEqual(
    parts.map((p) => p.encoding),
    [ENCODING_BITMAP, ENCODING_GAPS],
  );
  db.pragma('foreign_keys = OFF');
  db.prepare(
    `INSERT INTO draws (id, campaign_id, livemode, name, cutoff, status, winners_count, series_count, series_digits, element_digits,
      approximation, one_win_per_document, eligible_count, numbers_sha256, frozen_at, created_at, updated_at)
    VALUES ('d-1', 'c-1', 1, 'old', '2026-11-01T00:00:00.000Z', 'frozen', 1, 3, '1d', '1u,2u,3u,4u,5u', 'scpc', 1, ?, ?,
      '2026-11-02T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z')`,
  ).run(set.count, canonicalSha256(set));
  const insert = db.prepare('INSERT INTO draw_numbers (draw_id, series, encoding, count, data) VALUES (?, ?, ?, ?, ?)');
  for (const p of parts) insert.run('d-1', p.series, p.encoding, p.count, Buffer.from(p.data));
  assert.throws(
    () => insert.run('d-1', 1, ENCODING_MISSING_GAPS, 100_000, Buffer.alloc(0)),
    /CHECK constraint failed/,
    'version 19 knows two',
  );
  const before = db.prepare('SELECT * FROM draw_numbers ORDER BY draw_id, series').all();

  migrate(db, 20);
  const after = db.prepare('SELECT * FROM draw_numbers ORDER BY draw_id, series').all() as Array<{
    series: number;
    encoding: 0 | 1 | 2;
    count: number;
    data: Buffer;
  }>;
  assert.deepEqual(after, before);
  const back = NumberSet.decode(3, after);
  assert.equal(canonicalSha256(back), canonicalSha256(set));
  insert.run('d-1', 1, ENCODING_MISSING_GAPS, 100_000, Buffer.alloc(0));
  assert.throws(() => insert.run('d-1', 9, 3, 1, Buffer.alloc(0)), /CHECK constraint failed/);
});

// Schema version 21 (src/db/migrations/021-draw-voided-approximations.ts) copies the draws table,
// which draw_winners and draw_numbers refer to: with foreign keys on, as every ces connection has
// them, the upgrade keeps each draw and what refers to it, and the copy's CHECKs take the new
// status and readings while still refusing what they do not know.
test('version 21 copies draws under their references, and then allows voided and the new readings', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-draws-v21-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = new Database(join(dir, 'old.db'));
  t.after(() => db.close());
  db.pragma('foreign_keys = ON');
  migrate(db, 20);
  const at = '2026-11-01T00:00:00.000Z';
  db.prepare(`INSERT INTO campaigns (id, name, series_count, created_at, updated_at) VALUES ('c-1', 'Old', 1, ?, ?)`).run(at, at);
  const insertDraw = db.prepare(
    `INSERT INTO draws (id, campaign_id, livemode, name, cutoff, status, winners_count, series_count, series_digits, element_digits,
      approximation, one_win_per_document, created_at, updated_at)
    VALUES (?, 'c-1', 1, 'old', ?, ?, 1, 1, '', '1u,2u,3u,4u,5u', ?, 1, ?, ?)`,
  );
  insertDraw.run('d-1', at, 'frozen', 'scpc', at, at);
  assert.throws(() => insertDraw.run('d-2', at, 'voided', 'scpc', at, at), /CHECK constraint failed/, 'version 20 knows no voided draw');
  db.prepare(`INSERT INTO draw_numbers (draw_id, series, encoding, count, data) VALUES ('d-1', 0, 1, 1, x'05')`).run();
  const before = db.prepare('SELECT * FROM draws').all();

  migrate(db, 21);
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1, 'foreign keys are on again after the upgrade');
  assert.deepEqual(db.prepare('SELECT * FROM draws').all(), before);
  assert.deepEqual(db.pragma('foreign_key_check'), []);
  assert.throws(
    () => db.prepare(`INSERT INTO draw_numbers (draw_id, series, encoding, count, data) VALUES ('d-9', 0, 1, 1, x'05')`).run(),
    /FOREIGN KEY constraint failed/,
    'draw_numbers still refers to draws',
  );
  insertDraw.run('d-2', at, 'voided', 'above-then-below', at, at);
  insertDraw.run('d-3', at, 'created', 'nearest', at, at);
  assert.throws(() => insertDraw.run('d-4', at, 'lost', 'nearest', at, at), /CHECK constraint failed/);
  assert.throws(() => insertDraw.run('d-5', at, 'created', 'nearby', at, at), /CHECK constraint failed/);
});
