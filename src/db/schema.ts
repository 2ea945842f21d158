// The v1 schema text. The bundle (build.mjs) defines __CES_SCHEMA__ with the file's contents so
// dist/ces.mjs needs no schema.sql beside it; from source it is read from the repository root.
import { readFileSync } from 'node:fs';

declare const __CES_SCHEMA__: string | undefined;

export function readSchemaSql(): string {
  if (typeof __CES_SCHEMA__ === 'string') return __CES_SCHEMA__;
  return readFileSync(new URL('../../schema.sql', import.meta.url), 'utf8');
}
