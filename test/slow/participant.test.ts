// LGPD data-subject requests (issue 7): `ces participant export` hands over everything held about
// a participant; `ces participant anonymize` leaves none of their personal data in any column of
// any table, keeps the campaign's ledger (entries, awards, lucky numbers, consent records) intact,
// and both are recorded in audit_log. The data is made through the real server and pipeline.
// While a participant holds lucky numbers or a prize in a campaign that is not closed, the
// anonymisation is refused (409 legal_hold) and kept for the campaign's closing: Maria's campaign
// here gives no lucky numbers, and her instant prize is revoked once the hold has been shown.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Db } from '../../src/db/open.ts';
import {
  configureWebhook,
  cpf,
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  runCli,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
} from '../support/harness.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

const MARIA = {
  document_number: '529.982.247-25',
  full_name: 'Maria Aparecida Quintanilha',
  email: 'Maria.Quintanilha@example.com',
  phone: '+55 11 98765-4321',
  birthdate: '1987-03-14',
  address: {
    address_line_1: 'Rua Tabapuã 1234',
    address_line_2: 'apto 56',
    neighborhood: 'Itaim Bibi',
    city: 'São Paulo',
    state: 'SP',
    zipcode: '04533-002',
    country: 'BR',
  },
};
/** Every way Maria's personal data could be stored: as sent, normalised, or lower-cased. */
const MARIA_NEEDLES = [
  '52998224725',
  '529.982.247-25',
  'Quintanilha',
  'maria.quintanilha',
  '5511987654321',
  '98765-4321',
  '987654321',
  '1987-03-14',
  'Tabapuã',
  'apto 56',
  'Itaim',
  '04533',
  '198.51.100.23',
  'MariaPhone/1.0',
];

/** Every TEXT value of every table, with where it is: the search space of "no personal field left". */
function allTextValues(db: Db): Array<{ table: string; column: string; value: string }> {
  const out: Array<{ table: string; column: string; value: string }> = [];
  const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[];
  for (const table of tables) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
    for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Array<Record<string, unknown>>) {
      for (const column of columns) {
        const v = row[column];
        if (typeof v === 'string') out.push({ table, column, value: v });
        else if (Buffer.isBuffer(v)) out.push({ table, column, value: v.toString('latin1') });
      }
    }
  }
  return out;
}

function ledgerCounts(db: Db): Record<string, number> {
  const count = (sql: string): number => db.prepare(sql).pluck().get() as number;
  return {
    entries: count('SELECT count(*) FROM entries'),
    enrollments: count('SELECT count(*) FROM enrollments'),
    consents: count('SELECT count(*) FROM consents'),
    consent_choices: count('SELECT coalesce(sum(json_array_length(choices)), 0) FROM consents'),
    awards: count('SELECT count(*) FROM awards'),
    award_history: count('SELECT count(*) FROM award_history'),
    lucky_numbers: count('SELECT count(*) FROM lucky_numbers'),
    webhook_deliveries: count('SELECT count(*) FROM webhook_deliveries'),
    prize_stock: count('SELECT sum(current_stock) FROM prizes'),
  };
}

describe('ces participant export and anonymize', () => {
  let t: TestServer;
  let receiver: Receiver;
  let w: World;
  let prizeId: string;
  const mariaEntries: string[] = [];
  let joaoEntry: string;

  before(async () => {
    t = await startTestServer();
    receiver = await startReceiver();
    w = makeCampaign(t.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    prizeId = makePrize(t.ctx, w.campaign.id, 'live', 5).id;
    await configureWebhook(t, w.liveKey, receiver.url);
    const mariaConsent = {
      ip_address: '198.51.100.23',
      user_agent: 'MariaPhone/1.0',
      consents: [
        { consent_type: 'marketing', granted: true },
        { consent_type: 'image_use', granted: false },
      ],
    };
    mariaEntries.push(
      (
        await submitEntry(
          t,
          w.liveKey,
          entryBody({ enrollment: MARIA, consent: mariaConsent, instant_win: { won: true, prize_definition_id: prizeId } }, 0),
          'maria-1',
        )
      ).entry_id,
    );
    mariaEntries.push(
      (
        await submitEntry(
          t,
          w.liveKey,
          entryBody({ enrollment: { document_number: MARIA.document_number }, consent: mariaConsent }, 1),
          'maria-2',
        )
      ).entry_id,
    );
    joaoEntry = (
      await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: 'João Ninguém', email: 'joao@example.com' } }, 2), 'joao-1')
    ).entry_id;
    // The same document in test mode is another participant record: untouched by live requests.
    await submitEntry(t, w.testKey, entryBody({ enrollment: { ...MARIA } }, 3), 'maria-test');
    await drainAll(t);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('export: enrollment, entries, consents with choices, awards with history, lucky numbers and deliveries, logged', async () => {
    const res = await runCli(['participant', 'export', '--campaign', w.campaign.id, '--document', '529.982.247-25', '--json'], {
      dbPath: t.dbPath,
    });
    assert.equal(res.code, 0, res.stderr);
    const doc = res.json;
    assert.equal(doc.request.type, 'access');
    assert.equal(doc.enrollment.document_number, '52998224725');
    assert.equal(doc.enrollment.full_name, MARIA.full_name);
    assert.equal(doc.enrollment.email, MARIA.email);
    assert.equal(doc.enrollment.zipcode, MARIA.address.zipcode);
    assert.equal(doc.enrollment.livemode, true);
    assert.deepEqual(
      doc.entries.map((e: { entry_id: string }) => e.entry_id),
      mariaEntries,
    );
    assert.ok(doc.entries.every((e: { status: string }) => e.status === 'APPROVED'));
    assert.equal(doc.consents.length, 2);
    assert.equal(doc.consents[0].ip_address, '198.51.100.23');
    // granted_at in UTC like every timestamp of the document, and the record as the integrator sent it.
    assert.equal(doc.consents[0].granted_at, '2026-11-22T12:00:00.000Z');
    assert.equal(doc.consents[0].granted_at_as_sent, '2026-11-22T09:00:00-03:00');
    const notUtc = JSON.stringify(doc, (key, value) => (key === 'granted_at_as_sent' ? undefined : value))
      .match(/"\d{4}-\d{2}-\d{2}T[^"]*"/g)!
      .filter((t) => !t.endsWith('Z"'));
    assert.deepEqual(notUtc, [], 'every other timestamp is in UTC');
    assert.deepEqual(
      doc.consents[0].choices
        .map((c: { consent_type: string; granted: boolean; explicit: boolean }) => `${c.consent_type}:${c.granted}:${c.explicit}`)
        .sort(),
      ['image_use:false:true', 'marketing:true:true', 'privacy_policy:true:false', 'regulation:true:false', 'transactional:true:false'],
    );
    assert.equal(doc.awards.length, 1);
    assert.equal(doc.awards[0].entry_id, mariaEntries[0]);
    assert.equal(doc.awards[0].status, 'awarded');
    assert.ok(doc.awards[0].history.length >= 2, 'pending -> awarded history');
    assert.deepEqual(doc.lucky_numbers, []);
    assert.deepEqual(doc.webhook_deliveries.map((d: { event_type: string }) => d.event_type).sort(), [
      'entry.completed',
      'entry.completed',
      'entry.evaluated',
      'entry.evaluated',
      'entry.received',
      'entry.received',
    ]);
    assert.ok(
      doc.webhook_deliveries.every(
        (d: { status: string; payload: { data: { entry_id: string } } }) =>
          d.status === 'delivered' && mariaEntries.includes(d.payload.data.entry_id),
      ),
    );
    assert.ok(!JSON.stringify(doc).includes(joaoEntry), 'nothing of another participant');
    const audit = t.ctx.db
      .prepare(
        `SELECT actor, action, campaign_id, details ->> '$.enrollment_id' AS enrollment_id FROM audit_log WHERE action LIKE 'participant.%'`,
      )
      .all();
    assert.deepEqual(audit, [
      { actor: `cli:${userInfo().username}`, action: 'participant.exported', campaign_id: w.campaign.id, enrollment_id: doc.enrollment.id },
    ]);
  });

  test('anonymize: no personal field left anywhere, the ledger unchanged, other participants untouched, logged', async () => {
    const db = t.ctx.db;
    // Her prize holds her data (LGPD art. 16, I): refused, nothing changed, the request kept.
    const countsHeld = ledgerCounts(db);
    const held = await runCli(
      ['participant', 'anonymize', '--campaign', w.campaign.id, '--document', '52998224725', '--reason', 'ticket LGPD-41', '--json'],
      { dbPath: t.dbPath },
    );
    assert.equal(held.code, 1);
    assert.equal(held.json.error.code, 'legal_hold');
    assert.deepEqual(ledgerCounts(db), countsHeld);
    assert.equal(db.prepare(`SELECT count(*) FROM enrollments WHERE livemode = 1 AND full_name = ?`).pluck().get(MARIA.full_name), 1);
    assert.deepEqual(db.prepare(`SELECT reason, carried_out_at FROM held_anonymizations`).all(), [
      { reason: 'ticket LGPD-41', carried_out_at: null },
    ]);
    const revoke = await t.request('POST', `/v1/entries/${mariaEntries[0]}/instant-prize/revoke`, {
      key: w.liveKey,
      body: { reason: 'prize declined' },
    });
    assert.equal(revoke.status, 200, revoke.text);
    const before = ledgerCounts(db);
    const hitsBefore = allTextValues(db).filter((v) => MARIA_NEEDLES.some((n) => v.value.toLowerCase().includes(n.toLowerCase())));
    assert.ok(
      hitsBefore.some((h) => h.table === 'enrollments') && hitsBefore.some((h) => h.table === 'consents'),
      'the search finds the data before',
    );
    const joaoBefore = db.prepare(`SELECT * FROM enrollments WHERE full_name = 'João Ninguém'`).get();
    const testModeBefore = db.prepare(`SELECT * FROM enrollments WHERE livemode = 0`).get();

    const res = await runCli(
      ['participant', 'anonymize', '--campaign', w.campaign.id, '--document', '52998224725', '--reason', 'ticket LGPD-42', '--json'],
      { dbPath: t.dbPath },
    );
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.json.document_token, /^anon_[0-9a-f]{32}$/);
    assert.deepEqual(res.json.kept, { entries: 2, awards: 1, lucky_numbers: 0, consents: 2 });
    assert.equal(res.json.consents_redacted, 2);

    // Only the live record of Maria: test mode keeps its own copy (another participant record).
    const leftovers = allTextValues(db)
      .filter((v) => MARIA_NEEDLES.some((n) => v.value.toLowerCase().includes(n.toLowerCase())))
      .filter(
        (v) =>
          !(
            v.table === 'enrollments' &&
            v.value &&
            db
              .prepare(
                'SELECT 1 FROM enrollments WHERE livemode = 0 AND (full_name = ? OR email = ? OR email_key = ? OR phone = ? OR document_number = ? OR birthdate = ? OR address_line_1 = ? OR address_line_2 = ? OR neighborhood = ? OR zipcode = ?)',
              )
              .get(v.value, v.value, v.value, v.value, v.value, v.value, v.value, v.value, v.value, v.value)
          ) &&
          !(
            v.table === 'consents' &&
            db
              .prepare(
                `SELECT 1 FROM consents c JOIN enrollments n ON n.id = c.enrollment_id WHERE n.livemode = 0 AND (c.ip_address = ? OR c.user_agent = ?)`,
              )
              .get(v.value, v.value)
          ),
      );
    assert.deepEqual(leftovers, [], "no column of any table still holds Maria's live personal data");

    assert.deepEqual(ledgerCounts(db), before, 'entries, consents, awards, history, lucky numbers, deliveries and stock unchanged');
    const anon = db
      .prepare(`SELECT * FROM enrollments WHERE id = (SELECT enrollment_id FROM entries WHERE id = ?)`)
      .get(mariaEntries[0]) as Record<string, unknown>;
    assert.equal(anon.document_number, res.json.document_token);
    assert.equal(anon.anonymized_at, res.json.anonymized_at);
    assert.deepEqual(
      [
        anon.full_name,
        anon.email,
        anon.email_key,
        anon.phone,
        anon.birthdate,
        anon.address_line_1,
        anon.address_line_2,
        anon.neighborhood,
        anon.city,
        anon.zipcode,
      ],
      Array(10).fill(null),
    );
    assert.deepEqual(
      [anon.state, anon.country, anon.document_type],
      ['SP', 'BR', 'cpf'],
      "coarse region kept for the campaign's regional figures",
    );
    const consents = db
      .prepare(`SELECT ip_address, user_agent, term_version, granted_at FROM consents WHERE enrollment_id = ?`)
      .all(anon.id) as Array<Record<string, string>>;
    assert.ok(
      consents.every(
        (c) => c.ip_address === '[redacted]' && c.user_agent === '[redacted]' && c.term_version === 'v1' && c.granted_at !== '',
      ),
    );
    assert.deepEqual(db.prepare(`SELECT * FROM enrollments WHERE full_name = 'João Ninguém'`).get(), joaoBefore);
    assert.deepEqual(db.prepare(`SELECT * FROM enrollments WHERE livemode = 0`).get(), testModeBefore);
    const entry = await t.request('GET', `/v1/entries/${mariaEntries[0]}`, { key: w.liveKey });
    assert.equal(entry.status, 200);
    assert.equal(entry.body.award.status, 'revoked', 'the award stays for the audit');

    const audit = db.prepare(`SELECT actor, action, details FROM audit_log WHERE action LIKE 'participant.%' ORDER BY id`).all() as Array<
      Record<string, string>
    >;
    const operator = `cli:${userInfo().username}`;
    assert.deepEqual(
      audit.map((a) => [a.actor, a.action, JSON.parse(a.details).enrollment_id]),
      [
        [operator, 'participant.exported', anon.id],
        [operator, 'participant.anonymization_held', anon.id],
        [operator, 'participant.anonymized', anon.id],
        [operator, 'participant.erasure_completed', anon.id],
      ],
    );
    assert.equal(JSON.parse(audit[2].details).reason, 'ticket LGPD-42');
  });

  test('after anonymization the document finds nothing, and the person may enroll again as a new, unlinked participant', async () => {
    for (const action of ['export', 'anonymize']) {
      const res = await runCli(['participant', action, '--campaign', w.campaign.id, '--document', '52998224725', '--json'], {
        dbPath: t.dbPath,
      });
      assert.equal(res.code, 1);
      assert.equal(res.json.error.code, 'not_found');
    }
    const again = await submitEntry(
      t,
      w.liveKey,
      entryBody({ enrollment: { document_number: MARIA.document_number, email: MARIA.email } }, 4),
      'maria-again',
    );
    const read = await t.request('GET', `/v1/entries/${again.entry_id}`, { key: w.liveKey });
    const old = await t.request('GET', `/v1/entries/${mariaEntries[0]}`, { key: w.liveKey });
    assert.notEqual(read.body.enrollment_id, old.body.enrollment_id);
  });

  test('bad requests: an invalid document, an unknown campaign, a bad mode', async () => {
    const cases: Array<[string[], string]> = [
      [['--campaign', w.campaign.id, '--document', '123'], 'invalid_document'],
      [['--campaign', '00000000-0000-4000-8000-000000000000', '--document', cpf(5)], 'not_found'],
      [['--campaign', w.campaign.id, '--document', cpf(5), '--mode', 'prod'], 'invalid_mode'],
      [['--campaign', w.campaign.id, '--document', cpf(7)], 'not_found'],
    ];
    for (const [args, code] of cases) {
      const res = await runCli(['participant', 'export', ...args, '--json'], { dbPath: t.dbPath });
      assert.equal(res.code, 1, args.join(' '));
      assert.equal(res.json.error.code, code, args.join(' '));
    }
  });
});

// "No personal field left" is also a property of the file: SQL no longer shows the values, and the
// bytes that held them (rows rewritten by a merge, index entries, the consent's IP address, copies
// of pages in the WAL) are zeroed, so neither the database file nor a backup taken afterwards holds
// them in their free space.
describe('ces participant anonymize leaves nothing in the file', () => {
  let t: TestServer;
  let w: World;
  const ROSA = {
    document_number: cpf(917),
    full_name: 'Rosa Zimbrão Tavares',
    email: 'rosa.zimbrao.tavares@example.org',
    birthdate: '1979-08-21',
  };
  const NEEDLES = [ROSA.document_number, 'Zimbr', 'rosa.zimbrao', '5521998761234', '1979-08-21', '203.0.113.77', 'RosaPhone/2.0'];
  const holds = (bytes: Buffer): string[] =>
    NEEDLES.filter((n) => bytes.includes(Buffer.from(n, 'utf8')) || bytes.includes(Buffer.from(n.toLowerCase(), 'utf8')));
  const fileBytes = (path: string): Buffer => (existsSync(path) ? readFileSync(path) : Buffer.alloc(0));

  before(async () => {
    t = await startTestServer();
    w = makeCampaign(t.ctx);
  });
  after(() => t.close());

  test("after anonymization neither the database file, its WAL nor a backup holds the participant's data", async () => {
    const consent = { ip_address: '203.0.113.77', user_agent: 'RosaPhone/2.0' };
    // The second entry fills the phone in: the enrollment row is rewritten, leaving its old copy behind in the page.
    await submitEntry(t, w.liveKey, entryBody({ enrollment: ROSA, consent }, 0), 'rosa-1');
    await submitEntry(
      t,
      w.liveKey,
      entryBody({ enrollment: { document_number: ROSA.document_number, phone: '+55 21 99876-1234' }, consent }, 1),
      'rosa-2',
    );
    await drainAll(t);
    t.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    assert.deepEqual(
      holds(Buffer.concat([fileBytes(t.dbPath), fileBytes(`${t.dbPath}-wal`)])).sort(),
      [...NEEDLES].sort(),
      'the search finds every value before',
    );

    const res = await runCli(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', ROSA.document_number, '--json'], {
      dbPath: t.dbPath,
    });
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(holds(fileBytes(t.dbPath)), [], 'the database file');
    assert.deepEqual(holds(fileBytes(`${t.dbPath}-wal`)), [], 'the WAL');

    const backupPath = `${t.dbPath}.backup`;
    const backup = await runCli(['backup', backupPath, '--json'], { dbPath: t.dbPath });
    assert.equal(backup.code, 0, backup.stderr);
    assert.deepEqual(holds(fileBytes(backupPath)), [], 'a backup taken afterwards');
  });
});

// Free text that others wrote about a participant is personal data too: an integrator's revoke
// reason in the award history, and the fiscal verifier's rejection text, which ces copies into the
// entry's rejection reasons and into the entry.completed webhook payload. Reproduced with a name
// and a CPF in each; anonymization replaces the text by [redacted] and keeps the codes.
describe('ces participant anonymize redacts free text written about the participant', () => {
  let t: TestServer;
  let w: World;
  let verifier: Receiver;
  let receiver: Receiver;
  const CLARA = { document_number: cpf(921), full_name: 'Clara Venâncio Ribas' };
  const CPF_PRINTED = CLARA.document_number.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  const NEEDLES = ['Venâncio', CPF_PRINTED, 'Odete Quaresma'];
  const holds = (bytes: Buffer): string[] => NEEDLES.filter((n) => bytes.includes(Buffer.from(n, 'utf8')));
  const fileBytes = (path: string): Buffer => (existsSync(path) ? readFileSync(path) : Buffer.alloc(0));
  let rejectedKey: string;

  before(async () => {
    t = await startTestServer();
    rejectedKey = (entryBody({}, 1).evidence as { access_key: string }).access_key;
    verifier = await startReceiver({
      respond: (req) => ({
        status: 200,
        body: JSON.stringify(
          req.json?.access_key === rejectedKey
            ? { valid: false, reason: `nota cancelada a pedido de ${CLARA.full_name}, CPF ${CPF_PRINTED}, mãe Odete Quaresma` }
            : { valid: true },
        ),
      }),
    });
    // The partner's receiver answers with what it knows of the person (its answer is kept as the
    // attempt's response_excerpt): that too is text about the participant.
    receiver = await startReceiver({
      respond: () => ({ status: 200, body: JSON.stringify({ ok: true, cliente: CLARA.full_name, cpf: CPF_PRINTED }) }),
    });
    w = makeCampaign(t.ctx, { instantPrize: 'INTEGRATOR_DECLARED', fiscalVerifierUrl: verifier.url });
    await configureWebhook(t, w.liveKey, receiver.url);
  });
  after(async () => {
    await t.close();
    await verifier.close();
    await receiver.close();
  });

  test("the revoke reason and the verifier's text are [redacted] in the entry, the history and the payloads, and gone from the file", async () => {
    const prizeId = makePrize(t.ctx, w.campaign.id, 'live', 3).id;
    const won = (
      await submitEntry(
        t,
        w.liveKey,
        entryBody({ enrollment: CLARA, instant_win: { won: true, prize_definition_id: prizeId } }, 0),
        'clara-1',
      )
    ).entry_id;
    const rejected = (await submitEntry(t, w.liveKey, entryBody({ enrollment: { document_number: CLARA.document_number } }, 1), 'clara-2'))
      .entry_id;
    await drainAll(t);
    const revoke = await t.request('POST', `/v1/entries/${won}/instant-prize/revoke`, {
      key: w.liveKey,
      body: { reason: `fraude: ${CLARA.full_name} (CPF ${CPF_PRINTED}) usou nota de Odete Quaresma` },
    });
    assert.equal(revoke.status, 200, revoke.text);
    const before = await t.request('GET', `/v1/entries/${rejected}`, { key: w.liveKey });
    assert.equal(before.body.status, 'REJECTED');
    assert.match(before.body.rejection_reasons[0].message, /Odete Quaresma/);
    t.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    assert.deepEqual(holds(fileBytes(t.dbPath)).sort(), [...NEEDLES].sort(), 'the search finds every value before');

    const res = await runCli(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', CLARA.document_number, '--json'], {
      dbPath: t.dbPath,
    });
    assert.equal(res.code, 0, res.stderr);
    // winner_notes: the revoke's reason is also the note of the disqualification of the prize's winner.
    assert.deepEqual(res.json.free_text_redacted, {
      award_reasons: 1,
      rejection_messages: 1,
      webhook_payloads: 1,
      response_excerpts: 5,
      winner_notes: 1,
      winner_attachments: 0,
    });
    const excerpts = t.ctx.db
      .prepare(
        `SELECT DISTINCT a.response_excerpt FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.entry_id IN (?, ?)`,
      )
      .pluck()
      .all(rejected, won);
    // Five events: received, completed and evaluated of the winning entry; received and completed of the rejected one.
    assert.deepEqual(excerpts, ['[redacted]'], "the receiver's answers about the participant");

    const after = await t.request('GET', `/v1/entries/${rejected}`, { key: w.liveKey });
    assert.deepEqual(after.body.rejection_reasons, [
      { code: 'fiscal_verifier_rejected', message: 'The fiscal verifier rejected the access key: [redacted]' },
    ]);
    const history = t.ctx.db
      .prepare(
        `SELECT h.to_status, h.actor, h.reason FROM award_history h JOIN awards a ON a.id = h.award_id WHERE a.entry_id = ? ORDER BY h.id`,
      )
      .all(won) as Array<{ to_status: string; actor: string; reason: string | null }>;
    assert.deepEqual(
      history.map((h) => h.to_status),
      ['pending', 'awarded', 'revoked'],
      'the ledger keeps every transition',
    );
    assert.equal(history.at(-1)!.reason, '[redacted]');
    assert.equal(history[1].reason, 'entry approved', 'the reasons ces writes itself stay');
    const payloads = t.ctx.db
      .prepare(`SELECT payload FROM webhook_deliveries WHERE entry_id = ? AND event_type = 'entry.completed'`)
      .pluck()
      .all(rejected) as string[];
    assert.deepEqual(
      payloads.map((p) => JSON.parse(p).data.rejection_reasons),
      [[{ code: 'fiscal_verifier_rejected', message: 'The fiscal verifier rejected the access key: [redacted]' }]],
    );

    assert.deepEqual(holds(fileBytes(t.dbPath)), [], 'the database file');
    assert.deepEqual(holds(fileBytes(`${t.dbPath}-wal`)), [], 'the WAL');
  });
});

describe('ces participant export --out', () => {
  test('writes the document to a new 0600 file and prints where; an existing file is refused and untouched, nothing recorded', async () => {
    const t = await startTestServer();
    try {
      const w = makeCampaign(t.ctx);
      await submitEntry(t, w.liveKey, entryBody({ enrollment: { document_number: cpf(77), full_name: 'Rita Out' } }, 0), 'rita');
      const out = join(t.dir, 'rita.json');
      const args = ['participant', 'export', '--campaign', w.campaign.id, '--document', cpf(77), '--out', out];
      const written = await runCli([...args, '--json'], { dbPath: t.dbPath });
      assert.equal(written.code, 0, written.stderr);
      const text = readFileSync(out, 'utf8');
      const doc = JSON.parse(text);
      assert.equal(doc.enrollment.full_name, 'Rita Out');
      assert.deepEqual(written.json, { enrollment_id: doc.enrollment.id, file: out, bytes: Buffer.byteLength(text) });
      assert.equal(statSync(out).mode & 0o777, 0o600);
      assert.ok(!written.stdout.includes('Rita Out'), 'the document goes to the file, not stdout');

      const exported = (): number =>
        t.ctx.db.prepare(`SELECT count(*) FROM audit_log WHERE action = 'participant.exported'`).pluck().get() as number;
      const recorded = exported();
      writeFileSync(out, 'kept');
      const refused = await runCli(args, { dbPath: t.dbPath });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /^ces: cannot create .*rita\.json: a file is already there$/m);
      assert.equal(readFileSync(out, 'utf8'), 'kept');
      assert.equal(exported(), recorded, 'a refused export is not recorded');
      assert.deepEqual(
        readdirSync(t.dir).filter((f) => f.endsWith('.tmp')),
        [],
      );
    } finally {
      await t.close();
    }
  });
});
