// Schema version 8: an Idempotency-Key is stored as the text the client sent (src/entries/idempotency-key.ts):
// bytes that are valid UTF-8 are read as UTF-8. Until now a key was stored as Node reads a
// header, one Latin-1 character per byte, so `é` sent by curl (bytes C3 A9) was stored as `Ã©`,
// and intake now looks that request up as `é`: without a rewrite, its retry would be new.
// Only keys with a character beyond ASCII are read, from the covering unique index. A rewrite
// that would collide with a key already stored in the scope (another entry whose client sent
// `é` as the one Latin-1 byte E9, which reads as the same text) leaves the row as it was.
import type { Migration } from './migration.ts';

const LATIN1 = /^[\x00-\xff]*$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value read as Latin-1, decoded as UTF-8 when its bytes are valid UTF-8: intake's reading
 * of version 8, frozen here (a migration is history; src/entries/idempotency-key.ts may change).
 */
function decodeHeaderTextV8(latin1: string): string {
  try {
    return UTF8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return latin1;
  }
}

export const migration008: Migration = (db) => {
  const rows = db.prepare(`SELECT rowid, idempotency_key AS key FROM entries WHERE idempotency_key GLOB '*[^ -~]*'`).all() as Array<{
    rowid: number;
    key: string;
  }>;
  const setKey = db.prepare('UPDATE OR IGNORE entries SET idempotency_key = ? WHERE rowid = ?');
  for (const { rowid, key } of rows) {
    if (!LATIN1.test(key)) continue; // not a header as Node read it
    const text = decodeHeaderTextV8(key);
    if (text !== key) setKey.run(text, rowid);
  }
};
