// parseSubmission: the pure part of POST /v1/entries (shape + field rules + normalisation).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, it } from 'node:test';
import { AppError } from '../../src/kernel/errors.ts';
import { parseSubmission, USER_AGENT_MAX } from '../../src/entries/submission.ts';
import { entryBody } from '../support/harness.ts';
import { propertySeed } from '../support/property.ts';

const NOON_UTC = Date.parse('2026-11-22T12:00:00Z');

function failure(body: unknown, now = NOON_UTC): AppError {
  try {
    parseSubmission(body, now);
  } catch (e) {
    assert.ok(e instanceof AppError, `expected an AppError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected parseSubmission to throw');
}

describe('parseSubmission: birthdate is judged on the calendar date in Brazil (UTC-3)', () => {
  // 2026-11-22T01:00Z is still 2026-11-21 (22:00) in Brasília.
  const earlyUtc = Date.parse('2026-11-22T01:00:00Z');
  // The consent is given before each instant tried (a consent from the future is refused).
  const consent = { granted_at: '2026-11-21T21:00:00-03:00' };
  it('at 01:00 UTC, 2026-11-21 is "today" in Brazil and refused', () => {
    const e = failure(entryBody({ enrollment: { birthdate: '2026-11-21' }, consent }), earlyUtc);
    assert.deepEqual(
      e.errors?.map((x) => x.code),
      ['not_in_past'],
    );
  });
  it('at 01:00 UTC, 2026-11-20 is in the past', () => {
    assert.equal(
      parseSubmission(entryBody({ enrollment: { birthdate: '2026-11-20' }, consent }), earlyUtc).profile.birthdate,
      '2026-11-20',
    );
  });
  it('at 03:00 UTC (midnight in Brazil), 2026-11-21 becomes past and 2026-11-22 is today', () => {
    const midnight = Date.parse('2026-11-22T03:00:00Z');
    assert.equal(
      parseSubmission(entryBody({ enrollment: { birthdate: '2026-11-21' }, consent }), midnight).profile.birthdate,
      '2026-11-21',
    );
    assert.deepEqual(
      failure(entryBody({ enrollment: { birthdate: '2026-11-22' }, consent }), midnight).errors?.map((x) => x.code),
      ['not_in_past'],
    );
  });
  for (const bad of ['2025-02-29', '2026-04-31', '2026-00-10', '2026-13-01', '1899-12-31', '99-01-01', '2000-1-01']) {
    it(`${bad} is not a real date (or before 1900)`, () => {
      assert.deepEqual(
        failure(entryBody({ enrollment: { birthdate: bad } })).errors?.map((x) => x.code),
        ['invalid_date'],
      );
    });
  }
  it('2024-02-29 (a leap day) is accepted', () => {
    assert.equal(parseSubmission(entryBody({ enrollment: { birthdate: '2024-02-29' } }), NOON_UTC).profile.birthdate, '2024-02-29');
  });
});

describe('parseSubmission: consent', () => {
  it('implicit regulation, privacy_policy and transactional are added after the explicit choices', () => {
    const s = parseSubmission(
      entryBody({
        consent: {
          consents: [
            { consent_type: 'marketing', granted: false },
            { consent_type: 'privacy_policy', granted: false },
          ],
        },
      }),
      NOON_UTC,
    );
    assert.deepEqual(s.consent.choices, [
      { consent_type: 'marketing', granted: false, explicit: true },
      { consent_type: 'privacy_policy', granted: false, explicit: true },
      { consent_type: 'regulation', granted: true, explicit: false },
      { consent_type: 'transactional', granted: true, explicit: false },
    ]);
  });
  it(`user_agent is truncated to ${USER_AGENT_MAX} characters, counted in code points`, () => {
    const ua = '🙂'.repeat(USER_AGENT_MAX + 10);
    const s = parseSubmission(entryBody({ consent: { user_agent: ua } }), NOON_UTC);
    assert.equal([...s.consent.user_agent].length, USER_AGENT_MAX);
    assert.equal(s.consent.user_agent, '🙂'.repeat(USER_AGENT_MAX));
  });
  it('a user_agent of exactly 1024 characters is kept whole', () => {
    const ua = 'a'.repeat(USER_AGENT_MAX);
    assert.equal(parseSubmission(entryBody({ consent: { user_agent: ua } }), NOON_UTC).consent.user_agent, ua);
  });
  for (const g of ['2026-02-29T10:00:00Z', '2026-04-31T10:00:00-03:00', '2026-11-22T09:00:00', '2026-11-22T09:00:00 -03:00']) {
    it(`granted_at ${g} is refused`, () => {
      assert.deepEqual(
        failure(entryBody({ consent: { granted_at: g } })).errors?.map((x) => x.code),
        ['invalid_date_time'],
      );
    });
  }
});

describe('parseSubmission: wrong shapes are reported, never thrown as TypeError', () => {
  const paths: Array<[string, unknown]> = [
    ['enrollment.address', { city: 1, state: ['SP'], country: false }],
    ['consent', { granted_at: 1, ip_address: null, user_agent: {}, term_version: [] }],
    ['instant_win', { won: 'yes', prize_definition_id: 3 }],
    ['evidence', { type: 1, access_key: 2 }],
  ];
  for (const [path, value] of paths) {
    it(`${path} = ${JSON.stringify(value)} gives a 422 listing each sub-field`, () => {
      const [top, sub] = path.split('.');
      const body = entryBody() as Record<string, Record<string, unknown>>;
      if (sub) body[top][sub] = value;
      else body[top] = value as Record<string, unknown>;
      const e = failure(body);
      assert.equal(e.status, 422);
      assert.equal(e.code, 'validation_failed');
      for (const x of e.errors ?? []) assert.ok(x.field.startsWith(`${path}.`), JSON.stringify(e.errors));
      assert.equal(e.errors?.length, Object.keys(value as object).length, JSON.stringify(e.errors));
    });
  }

  it('an object with its own "toString" key where a string belongs is a 422, not a TypeError (found by the property below)', () => {
    const body = entryBody() as Record<string, Record<string, unknown>>;
    body.evidence.access_key = { toString: '' };
    const e = failure(body);
    assert.equal(e.status, 422);
    assert.ok(
      e.errors?.some((x) => x.field === 'evidence.access_key'),
      JSON.stringify(e.errors),
    );
  });

  it('any JSON anywhere gives a Submission or an AppError 422', () => {
    const json = fc.jsonValue();
    fc.assert(
      fc.property(
        fc.constantFrom('enrollment', 'consent', 'evidence', 'instant_win', 'extra'),
        fc.constantFrom(null, 'document_number', 'address', 'consents', 'access_key', 'won'),
        json,
        (top, sub, value) => {
          const body = entryBody() as Record<string, unknown>;
          if (sub === null || typeof body[top] !== 'object' || body[top] === null) body[top] = value;
          else (body[top] as Record<string, unknown>)[sub] = value;
          try {
            parseSubmission(body, NOON_UTC);
          } catch (e) {
            assert.ok(e instanceof AppError && e.status === 422, String(e));
          }
        },
      ),
      { numRuns: 500, seed: propertySeed(106) },
    );
  });
});

describe('parseSubmission: normalisation', () => {
  it('trims text, upper-cases UF and country, strips document and phone punctuation and access-key whitespace', () => {
    const s = parseSubmission(
      entryBody({
        enrollment: {
          document_number: '529.982.247-25',
          full_name: '  Maria  da Silva ',
          email: ' maria@example.com ',
          phone: '+55 (11) 98765-4321',
          address: { city: ' Santos ', state: 'sp', country: 'br', zipcode: '' },
        },
        evidence: { access_key: ' 3526 1111 2223 3300 0181 6500 1000 0000 0111 2345 6784 ' },
      }),
      NOON_UTC,
    );
    assert.deepEqual(s.document, { type: 'cpf', number: '52998224725' });
    assert.deepEqual(s.profile, {
      full_name: 'Maria  da Silva',
      email: 'maria@example.com',
      phone: '5511987654321',
      city: 'Santos',
      state: 'SP',
      country: 'BR',
    });
    assert.equal(s.evidence.access_key, '35261111222333000181650010000000011123456784');
  });
  it('a declared prize id is lower-cased (UUIDs are case-insensitive on input)', () => {
    const s = parseSubmission(
      entryBody({ instant_win: { won: true, prize_definition_id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE' } }),
      NOON_UTC,
    );
    assert.deepEqual(s.instantWin, { won: true, prize_definition_id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee' });
  });
});
