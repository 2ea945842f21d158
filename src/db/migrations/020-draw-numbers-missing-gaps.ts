// Schema version 20 (issue 30): a frozen series may be stored as the elements it lacks (encoding
// 2, LEB128 gaps; src/draws/number-set.ts). Numbers given in order fill their series, and what a
// freeze leaves out of a full series is the few numbers of rejected entries and anonymised
// participants: 1 to 3 bytes each instead of the 12,500-byte bitmap, and nothing for a series
// left whole. SQLite changes a CHECK only by copying the table; the sets frozen before keep their
// encodings.
import type { Migration } from './migration.ts';

export const migration020: Migration = (db) =>
  db.exec(`
  CREATE TABLE draw_numbers_v20 (
    draw_id  TEXT NOT NULL REFERENCES draws (id),
    series   INTEGER NOT NULL,
    encoding INTEGER NOT NULL CHECK (encoding IN (0, 1, 2)),   -- 0 bitmap of 100,000 bits, 1 LEB128 gaps, 2 LEB128 gaps of the missing elements
    count    INTEGER NOT NULL CHECK (count >= 1),
    data     BLOB NOT NULL,
    PRIMARY KEY (draw_id, series)
  ) WITHOUT ROWID, STRICT;
  INSERT INTO draw_numbers_v20 (draw_id, series, encoding, count, data)
    SELECT draw_id, series, encoding, count, data FROM draw_numbers ORDER BY draw_id, series;
  DROP TABLE draw_numbers;
  ALTER TABLE draw_numbers_v20 RENAME TO draw_numbers;
`);
