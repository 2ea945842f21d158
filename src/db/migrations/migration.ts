// One step of the schema: run inside the transaction that also sets the new user_version.
import type Database from 'better-sqlite3';

export type Migration = (db: Database.Database) => void;
