// openDatabase's settings that are about the file itself, checked on the file's bytes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../../src/db/open.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-open-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a value replaced by an ordinary UPDATE does not linger in the file (secure_delete=FAST)', () => {
  const path = join(dir, 'ces.db');
  const db = openDatabase(path);
  db.exec('CREATE TABLE scratch (id INTEGER PRIMARY KEY, a TEXT, b TEXT)');
  db.prepare('INSERT INTO scratch (a) VALUES (?)').run('maria.replaced@example.com');
  db.prepare('INSERT INTO scratch (a) VALUES (?)').run('a neighbour row');
  // The row grows (it moves within its page), then the value is replaced: SQLite frees the old
  // cell, and without secure_delete its bytes stay in the page's free space.
  db.prepare('UPDATE scratch SET b = ? WHERE id = 1').run('x'.repeat(200));
  db.prepare("UPDATE scratch SET a = 'someone else' WHERE id = 1").run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  assert.equal(readFileSync(path).includes(Buffer.from('maria.replaced@example.com')), false);
});
