// hasEntryShape is a fast path in front of superstruct: it may only say "valid" for a body
// EntrySubmissionStruct accepts, or parseSubmission would skip a shape error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { validate } from 'superstruct';
import { EntrySubmissionStruct, hasEntryShape } from '../../src/entries/submission.ts';

const base = {
  enrollment: { document_number: '52998224725', full_name: 'Ana Souza', email: null, address: { city: 'Recife', state: 'PE' } },
  consent: {
    granted_at: '2026-11-20T09:00:00-03:00',
    ip_address: '203.0.113.7',
    user_agent: 'x',
    term_version: 'v1',
    consents: [{ consent_type: 'marketing', granted: true }],
  },
  evidence: { type: 'fiscal_key', access_key: '3'.repeat(44) },
  instant_win: { won: false },
};

const PATHS = [
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
  ['consent', 'consents', 0, 'consent_type'],
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

const oddValue = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    'marketing',
    'nonsense',
    0,
    1,
    true,
    false,
    [],
    {},
    [{}],
    [{ consent_type: 'other', granted: false }],
    { won: true },
  ),
  fc.anything({ maxDepth: 2 }),
);

test('hasEntryShape says true only for bodies superstruct accepts', () => {
  assert.equal(hasEntryShape(base), true, 'the fast path must cover an ordinary valid body');
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
      if (typeof body !== 'object' || body === null) return;
      if (hasEntryShape(body as Record<string, unknown>))
        assert.equal(validate(body, EntrySubmissionStruct)[0], undefined, JSON.stringify(body));
    }),
    { numRuns: 3000, seed: 5 },
  );
});
