// The schema texts: schema.generated.sql at the repository root (the current schema, which a new
// database is created from) and src/db/migrations/001-initial.sql (version 1, where the steps of an
// older database start). The bundle (build.mjs) defines __CES_SCHEMA__ and __CES_INITIAL_SCHEMA__
// with the files' contents so dist/ces.mjs needs neither beside it; from source they are read.
import { readFileSync } from 'node:fs';

declare const __CES_SCHEMA__: string | undefined;
declare const __CES_INITIAL_SCHEMA__: string | undefined;

export function readSchemaSql(): string {
  if (typeof __CES_SCHEMA__ === 'string') return __CES_SCHEMA__;
  return readFileSync(new URL('../../schema.generated.sql', import.meta.url), 'utf8');
}

export function readInitialSchemaSql(): string {
  if (typeof __CES_INITIAL_SCHEMA__ === 'string') return __CES_INITIAL_SCHEMA__;
  return readFileSync(new URL('./migrations/001-initial.sql', import.meta.url), 'utf8');
}
