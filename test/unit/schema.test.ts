// The schema you read is the schema that runs: schema.generated.sql is what version 1 becomes
// through every migration, and a new database (created from schema.generated.sql in one step) ends
// up with exactly the schema of one that walked all the steps.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, SCHEMA_VERSION } from '../../src/db/migrate.ts';
import { migratedSchema, renderSchema } from '../../src/db/schema-dump.ts';

const committed = readFileSync(new URL('../../schema.generated.sql', import.meta.url), 'utf8');

test('schema.generated.sql is the schema version 1 becomes through every migration (npm run schema rewrites it)', () => {
  assert.equal(committed, migratedSchema());
  assert.match(committed, new RegExp(`^-- ces schema, version ${SCHEMA_VERSION}:`));
});

test('a new database, created from schema.generated.sql at once, has the schema of one migrated step by step', () => {
  const db = new Database(':memory:');
  try {
    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.equal(renderSchema(db), committed);
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`).pluck().all();
    for (const table of ['entry_counts', 'receipts', 'server_process']) assert.ok(tables.includes(table), table);
    assert.ok(!tables.includes('consent_choices'), 'dropped by version 3');
  } finally {
    db.close();
  }
});
