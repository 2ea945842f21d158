// Schema migrations on a real file: a database written by an older ces is brought up to date with
// its rows intact.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, SCHEMA_VERSION } from '../../src/db/migrate.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-migrate-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 3: consent choices move into consents.choices', () => {
  test('each consent gets its rows as JSON booleans ordered by consent_type, a consent without rows gets [], and consent_choices is gone', () => {
    const db = new Database(join(dir, 'v2.db'));
    migrate(db, 2);
    assert.equal(db.pragma('user_version', { simple: true }), 2);
    // The consents need no entries for this test.
    db.pragma('foreign_keys = OFF');
    const consent = db.prepare(`INSERT INTO consents (entry_id, enrollment_id, granted_at, ip_address, user_agent, term_version, created_at)
      VALUES (?, 'enr', '2026-11-20T09:00:00-03:00', '203.0.113.7', 'ua', 'v1', '2026-11-20T12:00:00.000Z')`);
    const withChoices = Number(consent.run('entry-1').lastInsertRowid);
    const withoutChoices = Number(consent.run('entry-2').lastInsertRowid);
    const choice = db.prepare('INSERT INTO consent_choices (consent_id, consent_type, granted, explicit) VALUES (?, ?, ?, ?)');
    choice.run(withChoices, 'transactional', 1, 0);
    choice.run(withChoices, 'marketing', 0, 1);
    choice.run(withChoices, 'regulation', 1, 1);

    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    const stored = (id: number) => JSON.parse(db.prepare('SELECT choices FROM consents WHERE id = ?').pluck().get(id) as string);
    assert.deepEqual(stored(withChoices), [
      { consent_type: 'marketing', granted: false, explicit: true },
      { consent_type: 'regulation', granted: true, explicit: true },
      { consent_type: 'transactional', granted: true, explicit: false },
    ]);
    assert.deepEqual(stored(withoutChoices), []);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'consent_choices'").pluck().get(), 0);
    assert.throws(() => db.prepare("UPDATE consents SET choices = 'not json' WHERE id = ?").run(withChoices), /CHECK constraint failed/);
    db.close();
  });
});
