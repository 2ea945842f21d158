// Schema versions keyed on PRAGMA user_version (src/db/migrations/, one file a version). A new
// database is created from schema.generated.sql, the current schema, in one step; an older one is
// brought up step by step, each migration in its own transaction together with the version bump. A
// database newer than this code is refused rather than half-understood.
import type Database from 'better-sqlite3';
import { AppError } from '../kernel/errors.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { readSchemaSql } from './schema.ts';

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The tables Litestream creates in the database it replicates (its sequence and its write lock). */
const LITESTREAM_TABLES = `'_litestream_seq', '_litestream_lock'`;

/** Brings the database to `target` (the newest version unless a test asks for an older one). */
export function migrate(db: Database.Database, target = SCHEMA_VERSION): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new AppError(
      422,
      'not_a_ces_database',
      `${db.name} has schema version ${current}, newer than this ces (${SCHEMA_VERSION}); upgrade ces`,
    );
  }
  // A step that copies a table others refer to (the only way SQLite changes a CHECK) drops the
  // original before renaming the copy into place: foreign keys are off meanwhile, as SQLite's own
  // procedure for that says, and the step names the tables whose references it checks before its
  // commit (a whole-file check would read every row of every table at each step).
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) === 1;
  if (foreignKeys && current < target) db.pragma('foreign_keys = OFF');
  try {
    migrateFrom(db, current, target);
  } finally {
    if (foreignKeys) db.pragma('foreign_keys = ON');
  }
}

function migrateFrom(db: Database.Database, current: number, target: number): void {
  let v = current;
  while (v < target) {
    // IMMEDIATE takes the write lock up front, so two processes opening a new file do not both
    // try to create the tables; the loser re-reads the version after the winner commits.
    v = db
      .transaction(() => {
        const now = db.pragma('user_version', { simple: true }) as number;
        if (now > v) return now;
        // Version 0 is an empty file: one holding tables belongs to something else, and ours would be
        // created among them. Litestream's two tables do not count: started before the first
        // `ces serve`, it adds them to the empty file it replicates.
        if (v === 0 && db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name NOT IN (${LITESTREAM_TABLES})`).pluck().get() !== 0) {
          throw new AppError(
            422,
            'not_a_ces_database',
            `${db.name} is an SQLite database of something else (it has tables, and no ces schema version)`,
          );
        }
        // A new file gets the current schema at once; the steps are for files written by an older ces.
        const next = v === 0 && target === SCHEMA_VERSION ? SCHEMA_VERSION : v + 1;
        if (next === SCHEMA_VERSION && v === 0) db.exec(readSchemaSql());
        else MIGRATIONS[v](db);
        for (const table of MIGRATIONS[v].checkReferencesOf ?? []) {
          const broken = db.pragma(`foreign_key_check(${table})`) as Array<{ parent: string }>;
          // A migration's own bug, never an operator's input: nothing is committed.
          if (broken.length > 0)
            throw new Error(`schema version ${next} leaves ${broken.length} row(s) of ${table} without their ${broken[0].parent} row`);
        }
        db.pragma(`user_version = ${next}`);
        return next;
      })
      .immediate();
  }
}
