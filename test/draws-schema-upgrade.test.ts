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
