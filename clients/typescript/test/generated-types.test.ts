// src/openapi.generated.ts is what openapi-typescript makes of the document `ces openapi` prints
// now: a change to the API without `npm run generate -w @ces/client` fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GENERATED_TYPES_FILE, readOpenApiDocument, renderOpenApiTypes } from '../scripts/openapi-types.ts';

test('the committed types are those generated from `ces openapi`', async () => {
  const expected = await renderOpenApiTypes(await readOpenApiDocument());
  const committed = readFileSync(GENERATED_TYPES_FILE, 'utf8');
  assert.ok(committed === expected, 'clients/typescript/src/openapi.generated.ts is stale: run `npm run generate -w @ces/client`');
});
