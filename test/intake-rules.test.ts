// Rules of POST /v1/entries at their edges (docs/api.md#entry-submission): character counting on unicode text (full_name,
// user_agent), the Brazilian calendar day of "a date in the past", ASCII-only digits, replays of
// entries moved on by the real pipeline, explicit consents against the implicit ones, and a
// differing value for a stored enrollment field. Through the real HTTP server on a real SQLite file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../src/kernel/clock.ts';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import { drainAll, entryBody, makeCampaign, startTestServer, type TestResponse, type TestServer } from './support/harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

let seq = 0;
const post = (key: string, body: unknown, idempotencyKey = `gap-${++seq}`): Promise<TestResponse> =>
  s.request('POST', '/v1/entries', { key, body, idempotencyKey });

function assertFieldError(res: TestResponse, status: number, code: string, field: string, fieldCode: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.deepEqual(
    res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
    [[field, fieldCode]],
    res.text,
  );
}

const storedEnrollment = (entryId: string): Record<string, unknown> =>
  s.ctx.db.prepare('SELECT n.* FROM enrollments n JOIN entries e ON e.enrollment_id = n.id WHERE e.id = ?').get(entryId) as Record<
    string,
    unknown
  >;
const storedUserAgent = (entryId: string): string =>
  s.ctx.db.prepare('SELECT user_agent FROM consents WHERE entry_id = ?').pluck().get(entryId) as string;
const count = (table: string): number => s.ctx.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

describe('enrollment and consent: limits count characters, not UTF-16 code units', () => {
  // Enrollment: full_name at least 3 characters.
  test('full_name of 2 characters outside the BMP (4 UTF-16 units) is 422 too_short; 3 such characters are accepted as sent', async () => {
    const w = makeCampaign(s.ctx);
    const before = count('entries');
    assertFieldError(
      await post(w.liveKey, entryBody({ enrollment: { full_name: '𝒜𝒷' } }, 40)),
      422,
      'validation_failed',
      'enrollment.full_name',
      'too_short',
    );
    assert.equal(count('entries'), before, 'a refused entry writes nothing');
    const ok = await post(w.liveKey, entryBody({ enrollment: { full_name: '𝒜𝒷𝒸' } }, 40));
    assert.equal(ok.status, 202, ok.text);
    assert.equal(storedEnrollment(ok.body.entry_id).full_name, '𝒜𝒷𝒸');
  });

  // Consent: user_agent is truncated to 1024 characters.
  test('user_agent of exactly 1024 characters is stored untouched; over 1024 it keeps 1024 characters and never splits a surrogate pair', async () => {
    const w = makeCampaign(s.ctx);
    const exact = 'u'.repeat(1024);
    const a = await post(w.liveKey, entryBody({ consent: { user_agent: exact } }, 41));
    assert.equal(a.status, 202, a.text);
    assert.equal(storedUserAgent(a.body.entry_id), exact);

    const astralAtTheEdge = `${'a'.repeat(1023)}😀b`;
    const b = await post(w.liveKey, entryBody({ consent: { user_agent: astralAtTheEdge } }, 42));
    assert.equal(b.status, 202, b.text);
    const stored = storedUserAgent(b.body.entry_id);
    assert.equal([...stored].length, 1024, '1024 characters');
    assert.equal(stored, `${'a'.repeat(1023)}😀`, 'the emoji is the 1024th character and is kept whole');
    assert.doesNotMatch(stored, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/, 'no lone surrogate is stored');

    const allAstral = '😀'.repeat(1025);
    const c = await post(w.liveKey, entryBody({ consent: { user_agent: allAstral } }, 43));
    assert.equal(c.status, 202, c.text);
    assert.equal(storedUserAgent(c.body.entry_id), '😀'.repeat(1024));
  });
});

describe('enrollment birthdate "must be a date in the past" on the Brazilian calendar (docs/api.md: UTC-3)', () => {
  // At 2026-11-23T01:30Z the UTC date is the 23rd but it is still 22:30 on the 22nd in Brazil: the
  // 22nd is today, not the past. A check on the UTC date would accept it.
  test('late evening in Brazil, already the next day in UTC: the Brazilian today is refused, the Brazilian yesterday accepted', async () => {
    const t = await startTestServer({ clock: new ManualClock('2026-11-23T01:30:00.000Z') });
    try {
      const w = makeCampaign(t.ctx);
      const today = await t.request('POST', '/v1/entries', {
        key: w.liveKey,
        idempotencyKey: 'bd-1',
        body: entryBody({ enrollment: { birthdate: '2026-11-22' } }, 44),
      });
      assertFieldError(today, 422, 'validation_failed', 'enrollment.birthdate', 'not_in_past');
      const yesterday = await t.request('POST', '/v1/entries', {
        key: w.liveKey,
        idempotencyKey: 'bd-2',
        body: entryBody({ enrollment: { birthdate: '2026-11-21' } }, 44),
      });
      assert.equal(yesterday.status, 202, yesterday.text);
    } finally {
      await t.close();
    }
  });

  // At 2026-11-22T02:30Z it is 23:30 on the 21st in Brazil: the 21st is today there.
  test('just after midnight UTC: the UTC yesterday is still the Brazilian today and is refused', async () => {
    const t = await startTestServer({ clock: new ManualClock('2026-11-22T02:30:00.000Z') });
    try {
      const w = makeCampaign(t.ctx);
      const res = await t.request('POST', '/v1/entries', {
        key: w.liveKey,
        idempotencyKey: 'bd-3',
        body: entryBody({ enrollment: { birthdate: '2026-11-21' }, consent: { granted_at: '2026-11-21T23:00:00-03:00' } }, 45),
      });
      assertFieldError(res, 422, 'validation_failed', 'enrollment.birthdate', 'not_in_past');
    } finally {
      await t.close();
    }
  });
});

describe('digits are ASCII digits', () => {
  const fullWidth = (digits: string): string => [...digits].map((d) => String.fromCharCode(0xff10 + Number(d))).join('');
  const arabicIndic = (digits: string): string => [...digits].map((d) => String.fromCharCode(0x0660 + Number(d))).join('');

  // Evidence: access_key 44 to 50 digits; a value that is not 44 to 50 digits is a 422.
  test('an access key written in full-width or Arabic-Indic digits is 422 invalid_access_key and writes nothing', async () => {
    const w = makeCampaign(s.ctx);
    const key = makeAccessKey({ yymm: '2611' });
    const before = count('entries');
    for (const other of [fullWidth(key), arabicIndic(key)]) {
      assertFieldError(
        await post(w.liveKey, entryBody({ evidence: { access_key: other } }, 46)),
        422,
        'validation_failed',
        'evidence.access_key',
        'invalid_access_key',
      );
    }
    assert.equal(count('entries'), before);
  });

  // Enrollment: document_number a valid CPF (11 digits); phone E.164.
  test('a CPF or a phone in full-width digits is refused, not read as the ASCII number', async () => {
    const w = makeCampaign(s.ctx);
    assertFieldError(
      await post(w.liveKey, entryBody({ enrollment: { document_number: fullWidth('52998224725') } }, 0)),
      422,
      'invalid_document',
      'enrollment.document_number',
      'invalid_document',
    );
    assertFieldError(
      await post(w.liveKey, entryBody({ enrollment: { phone: fullWidth('5511987654321') } }, 47)),
      422,
      'validation_failed',
      'enrollment.phone',
      'invalid_phone',
    );
  });
});

describe("idempotency, replay: a replay reports the entry's current status as the real pipeline left it", () => {
  for (const mode of ['live', 'test'] as const) {
    test(`${mode} mode: a replay after approval says APPROVED${mode === 'test' ? ', after a rejection in processing REJECTED' : ''}, with the entry_id of the webhook events`, async () => {
      const w = makeCampaign(s.ctx);
      const key = mode === 'live' ? w.liveKey : w.testKey;
      const approvedBody = entryBody({}, 48);
      const approved = await post(key, approvedBody, `replay-approved-${mode}`);
      assert.deepEqual([approved.status, approved.body.status], [202, 'PENDING']);
      let rejected: TestResponse | undefined;
      if (mode === 'test') {
        // Test-mode trigger cNF 99999901: processing rejects the entry (simulated fiscal failure).
        const rejectedBody = entryBody(
          { evidence: { access_key: makeAccessKey({ yymm: '2611', number: '000000049', cnf: '99999901' }) } },
          49,
        );
        rejected = await post(key, rejectedBody, 'replay-rejected-test');
        assert.deepEqual([rejected.status, rejected.body.status], [202, 'PENDING']);
      }
      await drainAll(s);
      const entriesBefore = count('entries');
      const a = await post(key, approvedBody, `replay-approved-${mode}`);
      assert.deepEqual([a.status, a.body.entry_id, a.body.status], [202, approved.body.entry_id, 'APPROVED'], a.text);
      assert.match(a.body.message, /already exists/);
      const events = s.ctx.db
        .prepare('SELECT payload FROM webhook_deliveries WHERE entry_id = ? ORDER BY seq')
        .all(approved.body.entry_id) as Array<{ payload: string }>;
      assert.deepEqual(
        events.map((e) => JSON.parse(e.payload).data.entry_id),
        [a.body.entry_id, a.body.entry_id, a.body.entry_id],
      );
      assert.ok(events.every((e) => JSON.parse(e.payload).livemode === (mode === 'live')));
      if (rejected) {
        const r = await post(key, { anything: 'else' }, 'replay-rejected-test');
        assert.deepEqual([r.status, r.body.entry_id, r.body.status], [202, rejected.body.entry_id, 'REJECTED'], r.text);
      }
      assert.equal(count('entries'), entriesBefore, 'a replay creates no entry');
    });
  }
});

describe('consent: submitted consents are explicit choices, the implicit three only fill what was omitted', () => {
  test('an explicit regulation: false is recorded as sent (explicit, not granted), not replaced by the implicit grant', async () => {
    const w = makeCampaign(s.ctx);
    const res = await post(
      w.liveKey,
      entryBody(
        {
          consent: {
            consents: [
              { consent_type: 'regulation', granted: false },
              { consent_type: 'transactional', granted: false },
            ],
          },
        },
        51,
      ),
    );
    assert.equal(res.status, 202, res.text);
    const choices = (
      JSON.parse(s.ctx.db.prepare('SELECT choices FROM consents WHERE entry_id = ?').pluck().get(res.body.entry_id) as string) as Array<{
        consent_type: string;
        granted: boolean;
        explicit: boolean;
      }>
    )
      .map((c) => [c.consent_type, c.granted, c.explicit])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    assert.deepEqual(choices, [
      ['privacy_policy', true, false],
      ['regulation', false, true],
      ['transactional', false, true],
    ]);
  });
});

describe('enrollment: a differing value for a stored field is silently ignored, never rejected', () => {
  // docs/api.md#entry-submission: a field that has a value keeps it and a differing value is silently ignored, never an
  // error. The email twin of this is in intake-enrollment.
  test('a differing phone that another participant holds is ignored: 202, no phone_taken, both phones unchanged', async () => {
    const w = makeCampaign(s.ctx);
    const a = await post(w.liveKey, entryBody({ enrollment: { phone: '5511987654321' } }, 52));
    const b = await post(w.liveKey, entryBody({ enrollment: { phone: '5521987654321' } }, 53));
    assert.deepEqual([a.status, b.status], [202, 202]);
    const again = await post(w.liveKey, entryBody({ enrollment: { phone: '+55 (11) 98765-4321' } }, 53));
    assert.equal(again.status, 202, again.text);
    assert.equal(storedEnrollment(again.body.entry_id).id, storedEnrollment(b.body.entry_id).id);
    assert.equal(storedEnrollment(again.body.entry_id).phone, '5521987654321');
    assert.equal(storedEnrollment(a.body.entry_id).phone, '5511987654321');
  });
});
