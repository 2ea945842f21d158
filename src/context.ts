// What every domain function receives: the database, the clock, the random source, the settings
// and the logger. Built once by server.ts or the CLI; tests build it with fakes.
import type { ConsolaInstance } from 'consola';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/open.ts';
import type { Random } from './random.ts';

export interface Ctx {
  db: Db;
  clock: Clock;
  random: Random;
  config: Readonly<Config>;
  log: ConsolaInstance;
}
