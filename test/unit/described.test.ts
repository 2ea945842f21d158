// src/validation/described.ts: one definition validates (with the field's error code) and
// documents. fastCheck is a compiled shortcut in front of superstruct, so it must give
// superstruct's verdict on every body, valid or not, or a 422 would be skipped (or invented).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { is, type, type Struct } from 'superstruct';
import { EntrySubmissionStruct } from '../../src/entries/submission.ts';
import { ReassignBodyStruct, RevokeBodyStruct } from '../../src/mechanics/instant-prize.ts';
import { LuckyNumbersBodyStruct } from '../../src/mechanics/manual-lucky-numbers.ts';
import { makePrintable } from '../../src/tools/printable.ts';
import { fastCheck } from '../../src/validation/compiled-check.ts';
import { describedString } from '../../src/validation/described.ts';
import { structErrors } from '../../src/validation/field-errors.ts';
import { describedOf } from '../../src/validation/struct-description.ts';
import { WebhookPatchStruct } from '../../src/webhooks/webhook-config.ts';

const base = {
  enrollment: {
    document_number: '529.982.247-25',
    full_name: 'Ana Souza',
    email: 'ana@example.com',
    phone: '+55 11 98765-4321',
    birthdate: '1990-05-01',
    address: { city: 'Recife', state: 'pe', country: 'br' },
  },
  consent: {
    granted_at: '2026-11-20T09:00:00-03:00',
    ip_address: '203.0.113.7',
    user_agent: 'x',
    term_version: 'v1',
    consents: [
      { consent_type: 'marketing', granted: true },
      { consent_type: 'image_use', granted: false },
    ],
  },
  evidence: { type: 'fiscal_key', access_key: '3'.repeat(44) },
  instant_win: { won: true, prize_definition_id: '00000000-0000-4000-8000-000000000000' },
};

const PATHS: Array<Array<string | number>> = [
  [],
  ['enrollment'],
  ['enrollment', 'document_number'],
  ['enrollment', 'full_name'],
  ['enrollment', 'email'],
  ['enrollment', 'phone'],
  ['enrollment', 'birthdate'],
  ['enrollment', 'address'],
  ['enrollment', 'address', 'city'],
  ['enrollment', 'address', 'state'],
  ['enrollment', 'address', 'country'],
  ['enrollment', 'address', 'zipcode'],
  ['consent'],
  ['consent', 'granted_at'],
  ['consent', 'ip_address'],
  ['consent', 'user_agent'],
  ['consent', 'term_version'],
  ['consent', 'consents'],
  ['consent', 'consents', 0],
  ['consent', 'consents', 1],
  ['consent', 'consents', 1, 'consent_type'],
  ['consent', 'consents', 0, 'granted'],
  ['evidence'],
  ['evidence', 'type'],
  ['evidence', 'access_key'],
  ['instant_win'],
  ['instant_win', 'won'],
  ['instant_win', 'prize_definition_id'],
];

function setAt(value: any, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(value);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1]] = replacement;
  return copy;
}

// Values near every rule's edge, and anything.
const oddValue = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    '   ',
    'ab',
    ' abc ',
    'marketing',
    'fiscal_key',
    'FISCAL_KEY',
    'SP',
    'xx',
    'br',
    '529.982.247-25',
    '5299822472',
    '12.ABC.345/01DE-35',
    '00000000-0000-4000-8000-000000000000',
    'not-a-uuid',
    '1990-02-29',
    '1899-12-31',
    '2026-11-20T24:00Z',
    '2026-11-20T23:59:60Z',
    '::1',
    '1.2.3.04',
    '+55 (11) 98765-4321',
    '3'.repeat(43),
    `${'3'.repeat(22)} ${'3'.repeat(22)}`,
    'x'.repeat(201),
    '😀'.repeat(200),
    0,
    1,
    true,
    false,
    [],
    {},
    [{}],
    [{ consent_type: 'marketing', granted: false }],
    { won: true },
    { won: false, prize_definition_id: '' },
  ),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.anything({ maxDepth: 2 }),
);

const verdicts = (struct: Struct<any, any>, body: unknown): void => {
  makePrintable(body); // as the HTTP reader does: superstruct words its messages from any value
  assert.equal(fastCheck(struct)(body), is(body, struct), JSON.stringify(body));
};

test('fastCheck gives superstruct’s verdict on entry bodies with up to three edits', () => {
  assert.equal(fastCheck(EntrySubmissionStruct)(base), true, 'the shortcut covers an ordinary valid body');
  let valid = 0;
  let invalid = 0;
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...PATHS), oddValue), { minLength: 1, maxLength: 3 }), (edits) => {
      let body: unknown = base;
      for (const [path, value] of edits) {
        try {
          body = setAt(body, path, value);
        } catch {
          return; // the path no longer exists after an earlier edit
        }
      }
      verdicts(EntrySubmissionStruct, body);
      if (is(body, EntrySubmissionStruct)) valid++;
      else invalid++;
    }),
    { numRuns: 4000, seed: 31 },
  );
  assert.ok(valid > 200 && invalid > 2000, `both verdicts were exercised: ${valid} valid, ${invalid} invalid`);
});

test('fastCheck gives superstruct’s verdict on the other request bodies', () => {
  const bodies = fc.oneof(
    fc.record({ numbers: fc.array(fc.record({ series: oddValue, order_number: oddValue }, { requiredKeys: [] }), { maxLength: 3 }) }),
    fc.record({ reason: oddValue }, { requiredKeys: [] }),
    fc.record({ prize_definition_id: oddValue, target_entry_id: oddValue }, { requiredKeys: [] }),
    fc.record({ endpoint_url: fc.oneof(oddValue, fc.webUrl()), is_active: oddValue }, { requiredKeys: [] }),
    oddValue,
  );
  fc.assert(
    fc.property(bodies, (body) => {
      for (const struct of [LuckyNumbersBodyStruct, RevokeBodyStruct, ReassignBodyStruct, WebhookPatchStruct]) verdicts(struct, body);
    }),
    { numRuns: 3000, seed: 7 },
  );
});

test('a rule reports its field code and message, one violation per field, in order', () => {
  const name = describedString({ trim: true, blank: 'omitted', minLength: 3, maxLength: 5 });
  const code = (value: unknown) => structErrors({ name: value }, type({ name })).map((e) => e.code);
  assert.deepEqual(code('  '), [], 'blank counts as omitted');
  assert.deepEqual(code(' ab '), ['too_short'], 'counted after trimming');
  assert.deepEqual(code('😀😀😀'), [], 'counted in code points');
  assert.deepEqual(code('abcdef'), ['too_long']);
  assert.deepEqual(code(7), ['invalid_type']);
  const uf = describedString({ enum: ['SP', 'RJ'], ignoreCase: true, code: 'invalid_state', message: 'a UF' });
  assert.deepEqual(structErrors({ name: 'sp' }, type({ name: uf })), []);
  assert.deepEqual(structErrors({ name: 'MG' }, type({ name: uf })), [{ field: 'name', code: 'invalid_state', message: 'a UF' }]);
});

test('a rule is documented as enforced: trimmed minimums as a pattern that allows the whitespace', () => {
  const schema = (s: Struct<any, any>) => describedOf(s)!.json;
  const name = schema(describedString({ trim: true, minLength: 3, maxLength: 200 }));
  assert.equal(name.minLength, 3);
  assert.equal(name.maxLength, 200);
  const pattern = new RegExp(name.pattern as string, 'u');
  for (const [value, accepted] of [
    ['abc', true],
    ['  a b  ', true],
    [' ab ', false],
    ['a\n\nb', true],
  ] as const)
    assert.equal(pattern.test(value), accepted, value);
  assert.equal(schema(describedString({ trim: true, blank: 'required' })).pattern, '\\S');
  assert.deepEqual(schema(describedString({ enum: ['fiscal_key'] })).const, 'fiscal_key');
  // anyOf: with formats off both branches match, which a oneOf would refuse (issue 43).
  assert.deepEqual(schema(describedString({ format: ['ipv4', 'ipv6'], code: 'invalid_ip' })).anyOf, [
    { type: 'string', format: 'ipv4' },
    { type: 'string', format: 'ipv6' },
  ]);
  assert.throws(() => describedString({ pattern: /x/i }), /flags/);
});
