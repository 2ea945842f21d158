// A database file whose full integrity check spends seconds inside one SQLite statement: ces's
// tables, and a table of 500,000 rows with three indexes that `PRAGMA integrity_check(bulk)`
// matches row by row (about 5 s on a quiet 2-core machine; longer on a busy one, the check running
// at the lowest CPU priority). ces's own tables, empty, take the check a few milliseconds, so a
// second after it starts it is inside that one statement. For the tests of a shutdown during the
// check (test/integrity.test.ts, test/slow/shutdown.test.ts).
import { openDatabase } from '../../src/db/open.ts';

export function fileWithLongCheck(path: string): string {
  const db = openDatabase(path);
  db.exec(`
    CREATE TABLE bulk (id INTEGER PRIMARY KEY, a BLOB, b BLOB, c BLOB);
    WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500000)
      INSERT INTO bulk SELECT i, randomblob(8), randomblob(8), randomblob(8) FROM n;
    CREATE INDEX bulk_a ON bulk (a);
    CREATE INDEX bulk_b ON bulk (b);
    CREATE INDEX bulk_c ON bulk (c);
  `);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return path;
}
