// Schema migrations on a real file: a database written by an older ces is brought up to date with
// its rows intact.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, SCHEMA_VERSION } from '../../src/db/migrate.ts';
import { isEmailTaken } from '../../src/entries/enrollments.repo.ts';
import { findEntryByIdempotencyKey } from '../../src/entries/entries.repo.ts';
import { parseIdempotencyKey } from '../../src/entries/idempotency-key.ts';
import { findEarlierEntryWithAccessKey } from '../../src/pipeline/processing.repo.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-migrate-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A new database file migrated only up to `version`, with foreign keys off so rows need no parents. */
function atVersion(file: string, version: number): Database.Database {
  const db = new Database(join(dir, file));
  migrate(db, version);
  assert.equal(db.pragma('user_version', { simple: true }), version);
  db.pragma('foreign_keys = OFF');
  return db;
}

describe('migration 3: consent choices move into consents.choices', () => {
  test('each consent gets its rows as JSON booleans ordered by consent_type, a consent without rows gets [], and consent_choices is gone', () => {
    const db = atVersion('v2.db', 2);
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

describe('migration 4: a reassigned award names the award it re-registers', () => {
  test('existing reassignments are linked from their history, the earliest copy only; a second link is refused', () => {
    const db = atVersion('v3.db', 3);
    const award = db.prepare(`INSERT INTO awards (id, entry_id, campaign_id, livemode, prize_id, source, status, created_at, updated_at)
      VALUES (?, ?, 'cmp', 1, 'prz', ?, ?, ?, ?)`);
    const history = db.prepare(
      `INSERT INTO award_history (award_id, from_status, to_status, at, actor, reason) VALUES (?, ?, ?, 'x', 'api_key:k', ?)`,
    );
    award.run('declared-a', 'entry-a', 'declared', 'revoked', '2026-11-20T10:00:00.000Z', '2026-11-20T11:00:00.000Z');
    history.run('declared-a', null, 'pending', 'declared at intake');
    // Two copies of A's win (what reassign allowed before version 4), then a same-entry move on C.
    award.run('to-b', 'entry-b', 'reassign', 'awarded', '2026-11-20T11:00:00.000Z', '2026-11-20T11:00:00.000Z');
    history.run('to-b', null, 'awarded', 'reassigned from award declared-a of entry entry-a');
    award.run('to-c', 'entry-c', 'reassign', 'revoked', '2026-11-20T12:00:00.000Z', '2026-11-20T13:00:00.000Z');
    history.run('to-c', null, 'awarded', 'reassigned from award declared-a of entry entry-a');
    history.run('to-c', 'awarded', 'revoked', 'reassigned to prize prz');
    award.run('c-again', 'entry-c', 'reassign', 'awarded', '2026-11-20T13:00:00.000Z', '2026-11-20T13:00:00.000Z');
    history.run('c-again', null, 'awarded', 'reassigned from award to-c of entry entry-c');

    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    const links = db.prepare('SELECT id, reassigned_from FROM awards ORDER BY created_at').all();
    assert.deepEqual(links, [
      { id: 'declared-a', reassigned_from: null },
      { id: 'to-b', reassigned_from: 'declared-a' },
      { id: 'to-c', reassigned_from: null },
      { id: 'c-again', reassigned_from: 'to-c' },
    ]);
    assert.throws(() => db.prepare("UPDATE awards SET reassigned_from = 'declared-a' WHERE id = 'to-c'").run(), /UNIQUE constraint failed/);
    db.close();
  });
});

describe('migration 5: the access keys of entries move from an index into receipts', () => {
  test('every existing entry but the rejected ones is copied in, the mark is the last entry, the index is gone, and a check needs no catch-up', () => {
    const db = atVersion('v4.db', 4);
    const entry =
      db.prepare(`INSERT INTO entries (id, campaign_id, livemode, idempotency_key, enrollment_id, status, evidence_type, access_key, created_at)
      VALUES (?, ?, ?, ?, 'enr', ?, 'fiscal_key', ?, '2026-11-20T12:00:00.000Z')`);
    const key = '3'.repeat(44);
    entry.run('first', 'cmp', 1, 'k1', 'APPROVED', key);
    entry.run('other-mode', 'cmp', 0, 'k2', 'PENDING', key);
    entry.run('second', 'cmp', 1, 'k3', 'PENDING', key);
    entry.run('own-key', 'cmp', 1, 'k4', 'PENDING', '4'.repeat(44));
    entry.run('rejected', 'cmp', 1, 'k5', 'REJECTED', key);

    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual(db.prepare('SELECT campaign_id, livemode, access_key, entry_rowid FROM receipts ORDER BY entry_rowid').all(), [
      { campaign_id: 'cmp', livemode: 1, access_key: key, entry_rowid: 1 },
      { campaign_id: 'cmp', livemode: 0, access_key: key, entry_rowid: 2 },
      { campaign_id: 'cmp', livemode: 1, access_key: key, entry_rowid: 3 },
      { campaign_id: 'cmp', livemode: 1, access_key: '4'.repeat(44), entry_rowid: 4 },
    ]);
    assert.equal(db.prepare('SELECT through_rowid FROM receipts_indexed').pluck().get(), 5);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'entries_access_key'").pluck().get(), 0);
    const found = db
      .transaction(() => findEarlierEntryWithAccessKey(db, { id: 'second', campaign_id: 'cmp', livemode: 1, access_key: key }))
      .immediate();
    assert.equal(found, 'first');
    assert.equal(db.prepare('SELECT count(*) FROM receipts').pluck().get(), 4);
    db.close();
  });

  test('an empty database starts with the mark at 0', () => {
    const db = new Database(join(dir, 'empty-v5.db'));
    migrate(db);
    assert.equal(db.prepare('SELECT through_rowid FROM receipts_indexed').pluck().get(), 0);
    db.close();
  });
});

describe('migration 6: no index on consents.enrollment_id', () => {
  test('the index is gone, and the LGPD look-up reaches consents through the entries of the enrollment', () => {
    const db = atVersion('v5.db', 5);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'consents_enrollment'").pluck().get(), 1);
    migrate(db);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'consents_enrollment'").pluck().get(), 0);
    // The look-up of src/participants/participants.repo.ts: searches by index, never a scan.
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT c.entry_id, c.choices FROM entries e JOIN consents c ON c.entry_id = e.id
      WHERE e.enrollment_id = @id AND c.enrollment_id = @id ORDER BY c.id`,
      )
      .all({ id: 'enr' })
      .map((r) => (r as { detail: string }).detail);
    assert.match(plan[0], /^SEARCH e USING INDEX entries_enrollment \(enrollment_id=\?\)$/);
    assert.match(plan[1], /^SEARCH c USING (COVERING )?INDEX sqlite_autoindex_consents_1 \(entry_id=\?\)$/);
    assert.ok(
      plan.every((step) => !step.startsWith('SCAN')),
      plan.join('; '),
    );
    db.close();
  });
});

describe('migration 7: emails are unique on email_key, folded beyond ASCII', () => {
  test('every email gets its key, folds that already collide keep their emails and one key, and the new unique index serves the check', () => {
    const db = atVersion('v6.db', 6);
    const enrollment =
      db.prepare(`INSERT INTO enrollments (id, campaign_id, livemode, document_type, document_number, email, created_at, updated_at)
      VALUES (?, ?, ?, 'cpf', ?, ?, ?, ?)`);
    const rows: Array<[string, string, number, string | null, string]> = [
      // [id, campaign, mode, email, created_at]
      ['ascii', 'cmp', 1, 'Maria@Example.com', '2026-11-20T10:00:00.000Z'],
      ['no-email', 'cmp', 1, null, '2026-11-20T10:00:00.000Z'],
      // What version 6 let in: two participants with one address, in the case of a non-ASCII letter.
      // The earlier enrollment keeps the key, though lower() of the later one is that very key.
      ['joao-upper', 'cmp', 1, 'JOÃO.SILVA@example.com', '2026-11-20T11:00:00.000Z'],
      ['joao-lower', 'cmp', 1, 'joão.silva@example.com', '2026-11-20T12:00:00.000Z'],
      // `ã` spelled as `a` + combining tilde, the earliest of three spellings: it keeps the key.
      ['decomposed', 'cmp', 1, 'Ana.Gonc\u0327alves@example.com', '2026-11-20T09:00:00.000Z'],
      ['precomposed', 'cmp', 1, 'ANA.GONÇALVES@example.com', '2026-11-20T13:00:00.000Z'],
      // The Kelvin sign folds to an ASCII k: the all-ASCII email keeps the key, though it is later.
      ['kelvin', 'cmp', 1, '\u212Aatia@example.com', '2026-11-20T09:00:00.000Z'],
      ['katia', 'cmp', 1, 'Katia@example.com', '2026-11-20T14:00:00.000Z'],
      // Keys are per campaign and mode: the same address elsewhere gets its own.
      ['test-mode', 'cmp', 0, 'joão.silva@example.com', '2026-11-20T12:00:00.000Z'],
      ['other-campaign', 'cmp2', 1, 'JOÃO.SILVA@EXAMPLE.COM', '2026-11-20T12:00:00.000Z'],
    ];
    for (const [n, [id, campaign, mode, email, at]] of rows.entries()) enrollment.run(id, campaign, mode, String(n), email, at, at);

    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual(db.prepare('SELECT id, email, email_key FROM enrollments ORDER BY rowid').all(), [
      { id: 'ascii', email: 'Maria@Example.com', email_key: 'maria@example.com' },
      { id: 'no-email', email: null, email_key: null },
      { id: 'joao-upper', email: 'JOÃO.SILVA@example.com', email_key: 'joão.silva@example.com' },
      { id: 'joao-lower', email: 'joão.silva@example.com', email_key: null },
      { id: 'decomposed', email: 'Ana.Gonc\u0327alves@example.com', email_key: 'ana.gonçalves@example.com' },
      { id: 'precomposed', email: 'ANA.GONÇALVES@example.com', email_key: null },
      { id: 'kelvin', email: '\u212Aatia@example.com', email_key: null },
      { id: 'katia', email: 'Katia@example.com', email_key: 'katia@example.com' },
      { id: 'test-mode', email: 'joão.silva@example.com', email_key: 'joão.silva@example.com' },
      { id: 'other-campaign', email: 'JOÃO.SILVA@EXAMPLE.COM', email_key: 'joão.silva@example.com' },
    ]);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'enrollments_email'").pluck().get(), 0);
    assert.match(
      db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'enrollments_email_key'").pluck().get() as string,
      /^CREATE UNIQUE INDEX enrollments_email_key ON enrollments \(campaign_id, livemode, email_key\) WHERE email_key IS NOT NULL$/,
    );
    assert.throws(
      () => db.prepare("UPDATE enrollments SET email_key = 'joão.silva@example.com' WHERE id = 'ascii'").run(),
      /UNIQUE constraint failed/,
    );
    // The check of src/entries/enrollments.repo.ts: the held keys are found, through the index.
    assert.equal(isEmailTaken(db, 'cmp', 1, 'JOãO.SILVA@example.com', null), true);
    assert.equal(isEmailTaken(db, 'cmp', 1, 'ana.gonçalves@EXAMPLE.com', null), true);
    assert.equal(isEmailTaken(db, 'cmp', 1, 'katia@example.com', 'katia'), false);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM enrollments WHERE campaign_id = ? AND livemode = ? AND email_key = ? AND id IS NOT ? LIMIT 1`,
      )
      .all('cmp', 1, 'x', null)
      .map((r) => (r as { detail: string }).detail);
    assert.deepEqual(plan, ['SEARCH enrollments USING INDEX enrollments_email_key (campaign_id=? AND livemode=? AND email_key=?)']);
    db.close();
  });
});

describe('migration 8: Idempotency-Keys stored as the text the client sent', () => {
  test('a key stored as Node read its UTF-8 bytes (Latin-1) becomes that text; ASCII, Latin-1 and colliding keys stay', () => {
    const db = atVersion('v7.db', 7);
    const entry =
      db.prepare(`INSERT INTO entries (id, campaign_id, livemode, idempotency_key, enrollment_id, status, evidence_type, access_key, created_at)
      VALUES (?, ?, 1, ?, 'enr', 'PENDING', 'fiscal_key', 'k', '2026-11-20T12:00:00.000Z')`);
    const asRead = (text: string): string => Buffer.from(text, 'utf8').toString('latin1'); // curl's bytes, as Node reads them
    const rows: Array<[string, string, string]> = [
      ['uuid', 'cmp', 'c5d4cc98-1b08-411a-bf7e-e467b21eec35'],
      ['curl', 'cmp', asRead('pedido-café-7')],
      ['emoji', 'cmp', asRead('pedido-\u{1F600}')],
      // fetch sent é as the byte E9: not valid UTF-8, so it stays (and is what intake reads it as).
      ['fetch', 'cmp', 'caf\u00e9'],
      // The same key both ways in one scope: the entry stored as E9 holds it; the other stays as it was.
      ['held', 'cmp2', 'a\u00e7a\u00ed'],
      ['collides', 'cmp2', asRead('a\u00e7a\u00ed')],
    ];
    for (const [id, campaign, key] of rows) entry.run(id, campaign, key);

    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual(db.prepare('SELECT id, idempotency_key AS key FROM entries ORDER BY rowid').all(), [
      { id: 'uuid', key: 'c5d4cc98-1b08-411a-bf7e-e467b21eec35' },
      { id: 'curl', key: 'pedido-café-7' },
      { id: 'emoji', key: 'pedido-\u{1F600}' },
      { id: 'fetch', key: 'caf\u00e9' },
      { id: 'held', key: 'a\u00e7a\u00ed' },
      { id: 'collides', key: asRead('a\u00e7a\u00ed') },
    ]);
    // Intake's lookup of the curl request after the upgrade finds its entry.
    const found = findEntryByIdempotencyKey(
      db,
      'cmp',
      1,
      parseIdempotencyKey(asRead('pedido-café-7'), () => 1),
    );
    assert.equal(found?.id, 'curl');
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT rowid, idempotency_key AS key FROM entries WHERE idempotency_key GLOB '*[^ -~]*'`)
      .all()
      .map((r) => (r as { detail: string }).detail);
    assert.match(plan.join(), /USING COVERING INDEX/);
    db.close();
  });
});

describe('migration 18: sessions that expire or are replaced, and the public URL', () => {
  test('sessions are carried over as they were; the new end reasons are accepted, others refused; public_urls holds one row', () => {
    const db = atVersion('v17.db', 17);
    const session =
      db.prepare(`INSERT INTO dashboard_sessions (id, token_hash, name, link_id, created_at, last_seen_at, ended_at, end_reason)
      VALUES (?, ?, 'maria', 'lnk', '2026-11-20T12:00:00.000Z', '2026-11-20T13:00:00.000Z', ?, ?)`);
    session.run('open', Buffer.from('a'), null, null);
    session.run('out', Buffer.from('b'), '2026-11-20T14:00:00.000Z', 'signed_out');
    assert.throws(() => session.run('new', Buffer.from('c'), '2026-11-20T14:00:00.000Z', 'expired'), /CHECK constraint failed/);

    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual(db.prepare('SELECT id, token_hash, ended_at, end_reason FROM dashboard_sessions ORDER BY id').all(), [
      { id: 'open', token_hash: Buffer.from('a'), ended_at: null, end_reason: null },
      { id: 'out', token_hash: Buffer.from('b'), ended_at: '2026-11-20T14:00:00.000Z', end_reason: 'signed_out' },
    ]);
    const end = db.prepare(`UPDATE dashboard_sessions SET ended_at = 'x', end_reason = ? WHERE id = 'open'`);
    for (const reason of ['expired', 'replaced']) end.run(reason);
    assert.throws(() => end.run('forgotten'), /CHECK constraint failed/);
    assert.throws(() => session.run('dup', Buffer.from('a'), null, null), /UNIQUE constraint failed/, 'token_hash stays unique');
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM dashboard_sessions WHERE ended_at IS NULL ORDER BY created_at`).all();
    assert.match(JSON.stringify(plan), /dashboard_sessions_open/);
    db.prepare(`INSERT INTO public_urls (id, url, recorded_at) VALUES (1, 'https://promo.example.com.br', 'now')`).run();
    assert.throws(() => db.prepare(`INSERT INTO public_urls (id, url, recorded_at) VALUES (2, 'http://x', 'now')`).run(), /CHECK/);
    db.close();
  });
});

describe('migration 19: delivery attempts recorded by an older ces lose the URL credentials they hold', () => {
  test('the password (or a lone user name) becomes ***, in the attempt URL, its error and the delivery last_error; the configuration keeps its URL', () => {
    const db = atVersion('v18.db', 18);
    // As ces before the masking recorded them: the endpoint URL as configured, credentials and all.
    db.prepare(
      `INSERT INTO webhook_configs (campaign_id, endpoint_url, is_active, secret, created_at, updated_at)
      VALUES ('cmp', 'https://partner:s3cret@hooks.example/in', 1, 'whsec_x', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    ).run();
    const delivery = db.prepare(
      `INSERT INTO webhook_deliveries (id, campaign_id, livemode, event_type, payload, status, attempts, last_error, created_at)
      VALUES (?, 'cmp', 1, 'entry.received', '{}', 'failed', 1, ?, '2026-01-01T00:00:00.000Z')`,
    );
    delivery.run('d1', 'connect ECONNREFUSED for https://partner:s3cret@hooks.example/in');
    delivery.run('d2', null);
    const attempt = db.prepare(
      `INSERT INTO webhook_attempts (delivery_id, attempted_at, url, status_code, error, response_excerpt)
      VALUES (?, '2026-01-01T00:00:00.000Z', ?, ?, ?, ?)`,
    );
    attempt.run(
      'd1',
      'https://partner:s3cret@hooks.example/in',
      null,
      'connect ECONNREFUSED for https://partner:s3cret@hooks.example/in',
      null,
    );
    attempt.run('d1', 'https://t0ken@hooks.example/in?x=1', 500, 'HTTP 500', 'mail me at ops@example.com');
    attempt.run('d2', 'https://hooks.example/in', 200, null, 'ok');

    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual(db.prepare('SELECT url, error, response_excerpt FROM webhook_attempts ORDER BY id').all(), [
      {
        url: 'https://partner:***@hooks.example/in',
        error: 'connect ECONNREFUSED for https://partner:***@hooks.example/in',
        response_excerpt: null,
      },
      { url: 'https://***@hooks.example/in?x=1', error: 'HTTP 500', response_excerpt: 'mail me at ops@example.com' },
      { url: 'https://hooks.example/in', error: null, response_excerpt: 'ok' },
    ]);
    assert.deepEqual(db.prepare('SELECT last_error FROM webhook_deliveries ORDER BY seq').pluck().all(), [
      'connect ECONNREFUSED for https://partner:***@hooks.example/in',
      null,
    ]);
    assert.equal(db.prepare('SELECT endpoint_url FROM webhook_configs').pluck().get(), 'https://partner:s3cret@hooks.example/in');
    db.close();
  });
});

describe('migration 25: prizes won before winners were kept get their winners', () => {
  test('every position of a published draw (a disqualified number as disqualified) and every instant prize awarded; nothing else', () => {
    const db = atVersion('v24.db', 24);
    const draw = db.prepare(
      `INSERT INTO draws (id, campaign_id, livemode, name, cutoff, status, winners_count, series_count, series_digits, element_digits,
        approximation, one_win_per_document, prizes, drawn_at, created_at, updated_at)
      VALUES (?, 'cmp', 1, 'Sorteio', 'x', ?, 2, 1, '', '1u,2u,3u,4u,5u', 'nearest', 1, ?, '2026-11-23T02:30:00.000Z', 'x', 'x')`,
    );
    draw.run(
      'published',
      'published',
      JSON.stringify([
        { position: 1, description: 'Moto', value: '15990.00' },
        { position: 2, description: 'TV', value: '3500.5' },
      ]),
    );
    draw.run('drawn', 'drawn', null);
    const winner = db.prepare(
      `INSERT INTO draw_winners (draw_id, position, series, element, entry_id, enrollment_id, steps, picked_at, disqualified_at, disqualified_reason)
      VALUES (?, ?, 0, ?, ?, ?, '[]', 'x', ?, ?)`,
    );
    winner.run('published', 1, 1, 'e1', 'n1', null, null);
    winner.run('published', 2, 2, 'e2', 'n2', '2026-11-23T03:00:00.000Z', 'funcionário');
    winner.run('published', 2, 3, 'e3', 'n3', null, null);
    winner.run('drawn', 1, 4, 'e4', 'n4', null, null);
    db.prepare(
      `INSERT INTO entries (id, campaign_id, livemode, idempotency_key, enrollment_id, status, evidence_type, access_key, created_at)
      VALUES ('e5', 'cmp', 0, 'k', 'n5', 'APPROVED', 'fiscal_key', 'a', 'x')`,
    ).run();
    db.prepare(
      `INSERT INTO prizes (id, campaign_id, livemode, name, type, unit_value, initial_stock, current_stock, created_at)
      VALUES ('p', 'cmp', 0, 'Vale', 'voucher', 50.25, 1, 0, 'x')`,
    ).run();
    const award = db.prepare(`INSERT INTO awards (id, entry_id, campaign_id, livemode, prize_id, source, status, created_at, updated_at)
      VALUES (?, 'e5', 'cmp', 0, 'p', 'declared', ?, 'x', 'x')`);
    award.run('a-awarded', 'awarded');
    award.run('a-revoked', 'revoked');
    const history = db.prepare(`INSERT INTO award_history (award_id, from_status, to_status, at, actor) VALUES (?, ?, ?, ?, 'system')`);
    history.run('a-awarded', 'pending', 'awarded', '2026-11-25T15:00:00.000Z');
    history.run('a-revoked', 'pending', 'awarded', '2026-11-25T15:00:00.000Z');

    migrate(db);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    const rows = db
      .prepare(
        `SELECT source, draw_id, position, award_id, entry_id, enrollment_id, prize_description, prize_value_cents, status,
          notify_by, deliver_by, prescribes_at FROM winners ORDER BY rowid`,
      )
      .all();
    assert.deepEqual(rows, [
      { source: 'draw', draw_id: 'published', position: 1, award_id: null, entry_id: 'e1', enrollment_id: 'n1', prize_description: 'Moto', prize_value_cents: 1599000, status: 'awarded', notify_by: '2026-12-02', deliver_by: '2026-12-22', prescribes_at: '2027-05-21' },
      { source: 'draw', draw_id: 'published', position: 2, award_id: null, entry_id: 'e2', enrollment_id: 'n2', prize_description: 'TV', prize_value_cents: 350050, status: 'disqualified', notify_by: '2026-12-02', deliver_by: '2026-12-22', prescribes_at: '2027-05-21' },
      { source: 'draw', draw_id: 'published', position: 2, award_id: null, entry_id: 'e3', enrollment_id: 'n3', prize_description: 'TV', prize_value_cents: 350050, status: 'awarded', notify_by: '2026-12-02', deliver_by: '2026-12-22', prescribes_at: '2027-05-21' },
      { source: 'instant', draw_id: null, position: null, award_id: 'a-awarded', entry_id: 'e5', enrollment_id: 'n5', prize_description: 'Vale', prize_value_cents: 5025, status: 'awarded', notify_by: '2026-12-05', deliver_by: '2026-12-25', prescribes_at: '2027-05-24' },
    ]); // prettier-ignore
    assert.match(
      db.prepare(`SELECT id FROM winners WHERE source = 'draw' LIMIT 1`).pluck().get() as string,
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.deepEqual(db.prepare(`SELECT event, note, to_status FROM winner_events ORDER BY id`).all(), [
      { event: 'awarded', note: null, to_status: 'awarded' },
      { event: 'awarded', note: null, to_status: 'awarded' },
      { event: 'awarded', note: null, to_status: 'awarded' },
      { event: 'awarded', note: null, to_status: 'awarded' },
      { event: 'disqualified', note: 'funcionário', to_status: 'disqualified' },
    ]);
    db.close();
  });
});
