// What every domain function receives: the database, the clock, the random source, the settings
// and the logger. Built once by src/http/server.ts or the CLI; tests build it with fakes. The
// database is better-sqlite3's type itself (src/db/open.ts names it Db): files directly in src/
// import no folder of src/, so that every folder may import them. What is kept per connection
// beside the context (compiled statements, memoized rows and figures) is listed in
// src/db/per-connection.ts; the rest of the state outside it in docs/architecture.md.
import type Database from 'better-sqlite3';
import type { ConsolaInstance } from 'consola';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Random } from './random.ts';

export interface Ctx {
  db: Database.Database;
  clock: Clock;
  random: Random;
  config: Readonly<Config>;
  log: ConsolaInstance;
}
