// One step of the schema: run inside the transaction that also sets the new user_version.
import type Database from 'better-sqlite3';

export type Migration = ((db: Database.Database) => void) & {
  /**
   * The tables whose references the step must leave whole, checked before its commit: those that
   * refer to a table the step copies and renames into place (src/db/migrate.ts turns foreign keys
   * off for the copy, as SQLite's procedure for changing a table asks).
   */
  readonly checkReferencesOf?: readonly string[];
};
