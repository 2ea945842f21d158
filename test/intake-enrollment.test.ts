// Enrollment behaviour, required fields, email/phone uniqueness and the consent record
// (docs/api.md#entry-submission; docs/api.md#api-overview: scope per
// campaign and mode).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { updateCampaign } from '../src/campaigns/campaigns.ts';
import { cpf, entryBody, makeCampaign, runCli, startTestServer, type TestResponse, type TestServer, OPERATOR } from './support/harness.ts';
import { assertProblem } from './support/assert.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

let seq = 0;
async function submit(key: string, body: unknown): Promise<TestResponse> {
  return s.request('POST', '/v1/entries', { key, body, idempotencyKey: `enr-${++seq}` });
}
async function accepted(key: string, body: unknown): Promise<string> {
  const res = await submit(key, body);
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.status, 'PENDING');
  return res.body.entry_id;
}
function enrollmentOfEntry(entryId: string): Record<string, unknown> {
  return s.ctx.db.prepare('SELECT n.* FROM entries e JOIN enrollments n ON n.id = e.enrollment_id WHERE e.id = ?').get(entryId) as Record<
    string,
    unknown
  >;
}
const count = (table: string): number => (s.ctx.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const counts = (): number[] => ['entries', 'enrollments', 'consents', 'jobs', 'webhook_deliveries'].map(count);

describe('enrollment merge', () => {
  test('the first entry for a document creates the enrollment; later entries reuse it', async () => {
    const w = makeCampaign(s.ctx);
    const before = count('enrollments');
    const a = await accepted(w.liveKey, entryBody({ enrollment: { full_name: 'Maria da Silva' } }, 0));
    const b = await accepted(w.liveKey, entryBody({}, 0));
    const c = await accepted(w.liveKey, entryBody({ enrollment: { document_number: '529.982.247-25' } }, 0));
    assert.equal(count('enrollments'), before + 1);
    assert.equal(enrollmentOfEntry(a).id, enrollmentOfEntry(b).id);
    assert.equal(enrollmentOfEntry(a).id, enrollmentOfEntry(c).id, 'punctuation does not make a new participant');
    const other = await accepted(w.liveKey, entryBody({}, 1));
    assert.notEqual(enrollmentOfEntry(other).id, enrollmentOfEntry(a).id);
    const got = await s.request('GET', `/v1/entries/${b}`, { key: w.liveKey });
    assert.equal(got.body.enrollment_id, enrollmentOfEntry(a).id);
  });

  test('the same document in test and live mode, or in another campaign, is another enrollment', async () => {
    const a = makeCampaign(s.ctx);
    const b = makeCampaign(s.ctx);
    const ids = [
      await accepted(a.liveKey, entryBody({}, 2)),
      await accepted(a.testKey, entryBody({}, 2)),
      await accepted(b.liveKey, entryBody({}, 2)),
    ].map((id) => enrollmentOfEntry(id).id);
    assert.equal(new Set(ids).size, 3);
  });

  test('empty fields are filled, stored ones kept, and a differing value is silently ignored (read with `ces entries show`)', async () => {
    const w = makeCampaign(s.ctx);
    const first = await accepted(
      w.liveKey,
      entryBody({ enrollment: { full_name: 'Maria da Silva', email: 'maria@example.com', address: { city: 'Santos' } } }, 3),
    );
    const second = await accepted(
      w.liveKey,
      entryBody(
        {
          enrollment: {
            full_name: 'Someone Else',
            email: 'other@example.com',
            phone: '5511987654321',
            birthdate: '1990-05-17',
            address: { city: 'Campinas', state: 'SP', zipcode: '13010-000', country: 'AR' },
          },
        },
        3,
      ),
    );
    const shown = await runCli(['entries', 'show', second, '--json'], { dbPath: s.dbPath });
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.json.entry_id, second);
    const n = shown.json.enrollment;
    assert.deepEqual(
      {
        full_name: n.full_name,
        email: n.email,
        phone: n.phone,
        birthdate: n.birthdate,
        city: n.city,
        state: n.state,
        zipcode: n.zipcode,
        country: n.country,
      },
      // country BR was stored with the first address (the default); AR is a differing value, ignored.
      {
        full_name: 'Maria da Silva',
        email: 'maria@example.com',
        phone: '5511987654321',
        birthdate: '1990-05-17',
        city: 'Santos',
        state: 'SP',
        zipcode: '13010-000',
        country: 'BR',
      },
    );
    assert.equal(n.id, enrollmentOfEntry(first).id);
    assert.equal(n.livemode, true, 'livemode as a boolean, as in the API');
    assert.equal(n.created_at, '2026-11-22T12:00:00.000Z');
  });

  test('a repeat submission with only document_number changes nothing', async () => {
    const w = makeCampaign(s.ctx);
    const first = await accepted(w.liveKey, entryBody({ enrollment: { full_name: 'João Pereira', email: 'joao@example.com' } }, 4));
    const stored = enrollmentOfEntry(first);
    s.clock.advance(60_000);
    try {
      const again = await accepted(w.liveKey, entryBody({ enrollment: { full_name: null, email: '' } }, 4));
      assert.deepEqual(enrollmentOfEntry(again), stored, 'nothing filled: not even updated_at moves');
    } finally {
      s.clock.advance(-60_000);
    }
  });
});

describe('required fields (--require) are checked on the merged enrollment', () => {
  test('a first submission without a required field is 422 missing_required_field and writes nothing', async () => {
    const w = makeCampaign(s.ctx, { require: 'full_name,email,phone,birthdate,city,state' });
    const before = counts();
    const res = await submit(w.liveKey, entryBody({ enrollment: { full_name: 'Ana Souza', phone: '5511912345678' } }, 5));
    assertProblem(res, 422, 'missing_required_field', [
      ['enrollment.email', 'required'],
      ['enrollment.birthdate', 'required'],
      ['enrollment.address.city', 'required'],
      ['enrollment.address.state', 'required'],
    ]);
    assert.deepEqual(counts(), before);
  });

  test('a repeat submission may omit required fields that are stored', async () => {
    const w = makeCampaign(s.ctx, { require: 'full_name,email,city' });
    await accepted(
      w.liveKey,
      entryBody({ enrollment: { full_name: 'Ana Souza', email: 'ana@example.com', address: { city: 'Recife' } } }, 6),
    );
    await accepted(w.liveKey, entryBody({}, 6));
    // A field never stored still has to come with the submission that needs it.
    const other = await submit(w.liveKey, entryBody({ enrollment: { full_name: 'Bia Lima', email: 'bia@example.com' } }, 7));
    assertProblem(other, 422, 'missing_required_field', [['enrollment.address.city', 'required']]);
  });

  test('a required field missing from the first entry can be supplied by a later one', async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({ enrollment: { full_name: 'Caio Prado' } }, 8));
    updateCampaign(s.ctx, w.campaign.id, { require: 'full_name,phone' }, OPERATOR);
    assertProblem(await submit(w.liveKey, entryBody({}, 8)), 422, 'missing_required_field', [['enrollment.phone', 'required']]);
    await accepted(w.liveKey, entryBody({ enrollment: { phone: '5521987654321' } }, 8));
    await accepted(w.liveKey, entryBody({}, 8));
  });

  const emptyCities: Array<[string, unknown]> = [
    ['an address without city', { state: 'SP' }],
    ['an empty city', { city: '', state: 'SP' }],
    ['a blank city', { city: '   ' }],
    ['a null city', { city: null }],
    ['an empty address object', {}],
  ];
  for (const [what, address] of emptyCities) {
    test(`${what} does not satisfy a city requirement`, async () => {
      const w = makeCampaign(s.ctx, { require: 'city' });
      assertProblem(await submit(w.liveKey, entryBody({ enrollment: { address } }, 9)), 422, 'missing_required_field', [
        ['enrollment.address.city', 'required'],
      ]);
    });
  }

  test('blank strings do not satisfy full_name, email or phone requirements', async () => {
    const w = makeCampaign(s.ctx, { require: 'full_name,email,phone' });
    assertProblem(
      await submit(w.liveKey, entryBody({ enrollment: { full_name: ' ', email: '', phone: '\t' } }, 10)),
      422,
      'missing_required_field',
      [
        ['enrollment.full_name', 'required'],
        ['enrollment.email', 'required'],
        ['enrollment.phone', 'required'],
      ],
    );
  });

  test('requirements apply per mode: a test enrollment does not satisfy a live submission', async () => {
    const w = makeCampaign(s.ctx, { require: 'email' });
    await accepted(w.testKey, entryBody({ enrollment: { email: 'test-mode@example.com' } }, 11));
    assertProblem(await submit(w.liveKey, entryBody({}, 11)), 422, 'missing_required_field', [['enrollment.email', 'required']]);
  });
});

describe('email and phone are unique per campaign and mode', () => {
  test("another participant's email gives 422 email_taken, compared case-insensitively, and writes nothing", async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'Maria@Example.com' } }, 12));
    for (const email of ['maria@example.com', 'MARIA@EXAMPLE.COM', ' Maria@Example.com ']) {
      const before = counts();
      assertProblem(await submit(w.liveKey, entryBody({ enrollment: { email } }, 13)), 422, 'email_taken', [
        ['enrollment.email', 'email_taken'],
      ]);
      assert.deepEqual(counts(), before);
    }
  });

  test("another participant's phone gives 422 phone_taken, however it is punctuated", async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({ enrollment: { phone: '5511987654321' } }, 14));
    for (const phone of ['5511987654321', '+55 (11) 98765-4321', '55 11 98765 4321']) {
      const before = counts();
      assertProblem(await submit(w.liveKey, entryBody({ enrollment: { phone } }, 15)), 422, 'phone_taken', [
        ['enrollment.phone', 'phone_taken'],
      ]);
      assert.deepEqual(counts(), before);
    }
  });

  test('the same email and phone are free in the other mode and in another campaign', async () => {
    const a = makeCampaign(s.ctx);
    const b = makeCampaign(s.ctx);
    const contact = { email: 'shared@example.com', phone: '5511976543210' };
    await accepted(a.liveKey, entryBody({ enrollment: contact }, 16));
    await accepted(a.testKey, entryBody({ enrollment: contact }, 17));
    await accepted(b.liveKey, entryBody({ enrollment: contact }, 18));
  });

  test('a participant re-sending their own email or phone is not a collision', async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'own@example.com', phone: '5511955554444' } }, 19));
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'OWN@example.com', phone: '+55 11 95555-4444' } }, 19));
  });

  test('a differing email that is ignored (a value is stored) never collides, even if another participant holds it', async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'first@example.com' } }, 20));
    const id = await accepted(w.liveKey, entryBody({ enrollment: { email: 'second@example.com' } }, 21));
    const again = await accepted(w.liveKey, entryBody({ enrollment: { email: 'first@example.com' } }, 21));
    assert.equal(enrollmentOfEntry(again).email, 'second@example.com');
    assert.equal(enrollmentOfEntry(id).id, enrollmentOfEntry(again).id);
  });

  test('filling an empty email with one another participant holds is email_taken', async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'taken@example.com' } }, 22));
    await accepted(w.liveKey, entryBody({}, 23));
    assertProblem(await submit(w.liveKey, entryBody({ enrollment: { email: 'taken@example.com' } }, 23)), 422, 'email_taken', [
      ['enrollment.email', 'email_taken'],
    ]);
    const stored = s.ctx.db
      .prepare('SELECT email FROM enrollments WHERE campaign_id = ? AND document_number = ?')
      .get(w.campaign.id, cpf(23));
    assert.deepEqual(stored, { email: null }, 'the refused entry filled nothing');
  });
});

// SQLite's lower() folds only A-Z; the key is folded in JavaScript (src/entries/email-key.ts).
describe('email case is folded beyond ASCII', () => {
  test("an email that differs from another participant's only in the case of a non-ASCII letter, or in how it is spelled, is email_taken", async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'joão.silva@example.com' } }, 24));
    // Upper case, mixed case, and `ã` written as `a` followed by a combining tilde (U+0303).
    for (const email of ['JOÃO.SILVA@example.com', 'JOãO.SILVA@example.com', 'Joa\u0303o.Silva@Example.COM']) {
      const before = counts();
      assertProblem(await submit(w.liveKey, entryBody({ enrollment: { email } }, 25)), 422, 'email_taken', [
        ['enrollment.email', 'email_taken'],
      ]);
      assert.deepEqual(counts(), before, email);
    }
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'JOÃO.SILVA@example.com' } }, 24));
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'joao.silva@example.com' } }, 25));
  });

  test("an email filled in by a later entry is folded too: another participant's spelling of it is email_taken", async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({}, 26));
    const filled = await accepted(w.liveKey, entryBody({ enrollment: { email: 'ÉLODIE@example.com' } }, 26));
    assert.equal(enrollmentOfEntry(filled).email, 'ÉLODIE@example.com', 'stored as sent');
    assertProblem(await submit(w.liveKey, entryBody({ enrollment: { email: 'élodie@example.com' } }, 27)), 422, 'email_taken', [
      ['enrollment.email', 'email_taken'],
    ]);
    await accepted(w.liveKey, entryBody({}, 27));
    assertProblem(await submit(w.liveKey, entryBody({ enrollment: { email: 'Élodie@EXAMPLE.com' } }, 27)), 422, 'email_taken', [
      ['enrollment.email', 'email_taken'],
    ]);
  });

  test("an anonymized participant's email is free again, in any case", async () => {
    const w = makeCampaign(s.ctx);
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'Zoë.Araújo@example.com' } }, 28));
    await accepted(w.liveKey, entryBody({ enrollment: { email: 'Maria@Example.com' } }, 29));
    for (const email of ['ZOË.ARAÚJO@example.com', 'maria@example.com']) {
      assertProblem(await submit(w.liveKey, entryBody({ enrollment: { email } }, 30)), 422, 'email_taken', [
        ['enrollment.email', 'email_taken'],
      ]);
    }
    for (const n of [28, 29]) {
      const res = await runCli(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', cpf(n), '--json'], {
        dbPath: s.dbPath,
      });
      assert.equal(res.code, 0, res.stderr);
    }
    const zoe = await accepted(w.liveKey, entryBody({ enrollment: { email: 'ZOË.ARAÚJO@example.com' } }, 30));
    const maria = await accepted(w.liveKey, entryBody({ enrollment: { email: 'maria@example.com' } }, 31));
    assert.equal(enrollmentOfEntry(zoe).email, 'ZOË.ARAÚJO@example.com');
    assert.equal(enrollmentOfEntry(maria).email, 'maria@example.com');
  });
});

describe('consent record', () => {
  function consentOf(entryId: string): { consent: Record<string, unknown>; choices: Array<Record<string, unknown>> } {
    const consent = s.ctx.db.prepare('SELECT * FROM consents WHERE entry_id = ?').get(entryId) as Record<string, unknown>;
    // Stored as JSON booleans; compared in the 0/1 form of the columns they replaced (migration 3).
    const choices = (JSON.parse(consent.choices as string) as Array<{ consent_type: string; granted: boolean; explicit: boolean }>)
      .map((c) => ({ consent_type: c.consent_type, granted: c.granted ? 1 : 0, explicit: c.explicit ? 1 : 0 }))
      .sort((a, b) => (a.consent_type < b.consent_type ? -1 : 1));
    return { consent, choices };
  }

  test('consents[] are recorded as explicit choices; regulation, privacy_policy and transactional implicitly', async () => {
    const w = makeCampaign(s.ctx);
    const id = await accepted(
      w.liveKey,
      entryBody(
        {
          consent: {
            consents: [
              { consent_type: 'marketing', granted: false },
              { consent_type: 'data_sharing', granted: true },
              { consent_type: 'regulation', granted: true },
            ],
          },
        },
        24,
      ),
    );
    assert.deepEqual(consentOf(id).choices, [
      { consent_type: 'data_sharing', granted: 1, explicit: 1 },
      { consent_type: 'marketing', granted: 0, explicit: 1 },
      { consent_type: 'privacy_policy', granted: 1, explicit: 0 },
      { consent_type: 'regulation', granted: 1, explicit: 1 },
      { consent_type: 'transactional', granted: 1, explicit: 0 },
    ]);
  });

  test('without consents[] the three implicit consents are still recorded', async () => {
    const w = makeCampaign(s.ctx);
    const id = await accepted(w.liveKey, entryBody({}, 25));
    assert.deepEqual(consentOf(id).choices, [
      { consent_type: 'privacy_policy', granted: 1, explicit: 0 },
      { consent_type: 'regulation', granted: 1, explicit: 0 },
      { consent_type: 'transactional', granted: 1, explicit: 0 },
    ]);
  });

  test('the consent record keeps what was sent; user_agent over 1024 characters is truncated', async () => {
    const w = makeCampaign(s.ctx);
    const ua = `Mozilla/5.0 ${'x'.repeat(2000)}`;
    const id = await accepted(
      w.liveKey,
      entryBody(
        { consent: { user_agent: ua, granted_at: '2026-11-21T18:30:00-03:00', ip_address: '2001:db8::7', term_version: 'regulamento-v3' } },
        26,
      ),
    );
    const { consent } = consentOf(id);
    assert.equal(consent.user_agent, ua.slice(0, 1024));
    assert.equal((consent.user_agent as string).length, 1024);
    assert.equal(consent.granted_at, '2026-11-21T18:30:00-03:00');
    assert.equal(consent.ip_address, '2001:db8::7');
    assert.equal(consent.term_version, 'regulamento-v3');
    assert.equal(consent.enrollment_id, enrollmentOfEntry(id).id);
  });

  test('every entry keeps its own consent record; a later one never overwrites an earlier one', async () => {
    const w = makeCampaign(s.ctx);
    const first = await accepted(
      w.liveKey,
      entryBody({ consent: { term_version: 'v1', consents: [{ consent_type: 'marketing', granted: true }] } }, 27),
    );
    const firstRecord = consentOf(first);
    const second = await accepted(
      w.liveKey,
      entryBody(
        { consent: { term_version: 'v2', user_agent: 'Other/1.0', consents: [{ consent_type: 'marketing', granted: false }] } },
        27,
      ),
    );
    assert.deepEqual(consentOf(first), firstRecord);
    assert.equal(consentOf(second).consent.term_version, 'v2');
    assert.notEqual(consentOf(second).consent.id, firstRecord.consent.id);
    const all = s.ctx.db.prepare('SELECT term_version FROM consents WHERE enrollment_id = ? ORDER BY id').all(enrollmentOfEntry(first).id);
    assert.deepEqual(all, [{ term_version: 'v1' }, { term_version: 'v2' }]);
  });
});
