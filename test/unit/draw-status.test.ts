// A draw's state machine (src/draws/status.ts): created -> frozen -> drawn -> published, or voided
// before publication, what each
// action asks of the status, and the stable codes of its refusals (the CLI and the dashboard show
// them; docs/operations.md lists them). Also the extraction number's rule (src/draws/draw-input.ts),
// which the CLI and the dashboard read through the same function.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkExtractionNumber, parseExtractionNumber } from '../../src/draws/draw-input.ts';
import {
  assertDisqualifiable,
  assertFrozen,
  assertNotVoided,
  assertResultsOpen,
  assertRun,
  assertTransition,
  assertVoidable,
  canDisqualify,
  canPublish,
  canRecordResults,
  canRun,
  canTransition,
  canVoid,
  DRAW_STATUSES,
  hasRun,
  isFrozen,
  isPublished,
  isVoided,
  type DrawStatus,
} from '../../src/draws/status.ts';
import { AppError } from '../../src/kernel/errors.ts';

/** The AppError `run` throws, as {status, code, message}; null when it throws nothing. */
function refusalOf(run: () => void): { status: number; code: string; message: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return { status: error.status, code: error.code, message: error.message };
  }
}

test('each status has one step forward, and none back: created -> frozen -> drawn -> published; voided before publication', () => {
  const allowed = DRAW_STATUSES.flatMap((from) => DRAW_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`));
  assert.deepEqual(allowed, ['created->frozen', 'created->voided', 'frozen->drawn', 'frozen->voided', 'drawn->published', 'drawn->voided']);
});

test('published and voided are final: nothing leaves them', () => {
  for (const final of ['published', 'voided'] as const)
    assert.deepEqual(
      DRAW_STATUSES.filter((to) => canTransition(final, to)),
      [],
    );
  assert.deepEqual(DRAW_STATUSES.filter(isVoided), ['voided']);
  assert.deepEqual(DRAW_STATUSES.filter(canVoid), ['created', 'frozen', 'drawn']);
});

// [status, isFrozen, hasRun, isPublished, canRecordResults, canRun, canDisqualify, canPublish]
const PREDICATES: Array<[DrawStatus, boolean, boolean, boolean, boolean, boolean, boolean, boolean]> = [
  ['created', false, false, false, true, true, false, false],
  ['frozen', true, false, false, true, true, false, false],
  ['drawn', true, true, false, false, false, true, true],
  ['published', true, true, true, false, false, false, false],
  ['voided', false, false, false, false, false, false, false],
];
for (const [status, ...expected] of PREDICATES) {
  test(`what a ${status} draw allows`, () => {
    assert.deepEqual(
      [isFrozen, hasRun, isPublished, canRecordResults, canRun, canDisqualify, canPublish].map((p) => p(status)),
      expected,
    );
  });
}

// [from, to, the refusal's code, its message]; null: the step is allowed.
const TRANSITIONS: Array<[DrawStatus, 'drawn' | 'published', string | null, RegExp | null]> = [
  ['created', 'drawn', 'draw_not_frozen', /^The draw is not frozen yet: freeze it first$/],
  ['frozen', 'drawn', null, null],
  ['drawn', 'drawn', 'draw_already_run', /has run/],
  ['published', 'drawn', 'draw_published', /final/],
  ['created', 'published', 'draw_not_run', /^Run the draw before publishing it$/],
  ['frozen', 'published', 'draw_not_run', /^Run the draw before publishing it$/],
  ['drawn', 'published', null, null],
  ['published', 'published', 'draw_published', /^The draw is already published\.$/],
  ['voided', 'drawn', 'draw_voided', /^The draw is voided/],
  ['voided', 'published', 'draw_voided', /^The draw is voided/],
];
for (const [from, to, code, message] of TRANSITIONS) {
  test(`${from} -> ${to}: ${code ?? 'allowed'}`, () => {
    const refusal = refusalOf(() => assertTransition(from, to));
    if (code === null) return assert.equal(refusal, null);
    assert.equal(refusal?.status, 409);
    assert.equal(refusal.code, code);
    assert.match(refusal.message, message!);
  });
}

// [the check, status, code or null when it passes]
const CHECKS: Array<[string, (s: DrawStatus) => void, DrawStatus, string | null]> = [
  ['results', assertResultsOpen, 'created', null],
  ['results', assertResultsOpen, 'frozen', null],
  ['results', assertResultsOpen, 'drawn', 'draw_already_run'],
  ['results', assertResultsOpen, 'published', 'draw_already_run'],
  ['the frozen list', assertFrozen, 'created', 'draw_not_frozen'],
  ['the frozen list', assertFrozen, 'frozen', null],
  ['the outcome', assertRun, 'frozen', 'draw_not_run'],
  ['the outcome', assertRun, 'published', null],
  ['a disqualification', assertDisqualifiable, 'frozen', 'draw_not_run'],
  ['a disqualification', assertDisqualifiable, 'drawn', null],
  ['a disqualification', assertDisqualifiable, 'published', 'draw_published'],
  ['results', assertResultsOpen, 'voided', 'draw_voided'],
  ['the frozen list', assertFrozen, 'voided', 'draw_voided'],
  ['the outcome', assertRun, 'voided', 'draw_voided'],
  ['a disqualification', assertDisqualifiable, 'voided', 'draw_voided'],
  ['a freeze', assertNotVoided, 'voided', 'draw_voided'],
  ['a freeze', assertNotVoided, 'created', null],
  ['voiding', assertVoidable, 'created', null],
  ['voiding', assertVoidable, 'frozen', null],
  ['voiding', assertVoidable, 'drawn', null],
  ['voiding', assertVoidable, 'published', 'draw_published'],
  ['voiding', assertVoidable, 'voided', 'draw_voided'],
];
for (const [what, check, status, code] of CHECKS) {
  test(`${what} on a ${status} draw: ${code ?? 'allowed'}`, () => {
    const refusal = refusalOf(() => check(status));
    assert.equal(refusal?.code ?? null, code);
    if (refusal) assert.equal(refusal.status, 409);
  });
}

test('the messages name no flag and no command: the dashboard shows them as they are', () => {
  const checks: Array<() => void> = [
    ...DRAW_STATUSES.flatMap((s) => [() => assertTransition(s, 'drawn'), () => assertTransition(s, 'published')]),
    ...DRAW_STATUSES.flatMap((s) =>
      [assertResultsOpen, assertFrozen, assertRun, assertDisqualifiable, assertNotVoided, assertVoidable].map((c) => () => c(s)),
    ),
  ];
  for (const run of checks) {
    const message = refusalOf(run)?.message ?? '';
    assert.doesNotMatch(message, /--[a-z]|\bces [a-z]/, message);
  }
});

test('the extraction number is a whole number from 1 to 999999, refused under the code of what it is part of, naming the field', () => {
  assert.equal(parseExtractionNumber('5732'), 5732);
  assert.equal(parseExtractionNumber(' 999999 '), 999_999);
  assert.equal(checkExtractionNumber(1), 1);
  for (const typed of ['0', '1000000', '12.5', '-3', 'abc', '', '0x10', '1e3']) {
    for (const code of ['invalid_results', 'invalid_option'] as const) {
      const error = (() => {
        try {
          parseExtractionNumber(typed, code);
        } catch (e) {
          return e;
        }
        return null;
      })();
      assert.ok(error instanceof AppError, `"${typed}" is refused`);
      assert.equal(error.status, 422);
      assert.equal(error.code, code);
      assert.equal(error.message, `\`extraction\` must be a whole number from 1 to 999999, got "${typed}"`);
      assert.deepEqual(
        error.errors?.map((e) => [e.field, e.code]),
        [['extraction', 'invalid_option']],
      );
    }
  }
  assert.throws(() => checkExtractionNumber(0), { code: 'invalid_results', message: /got "0"$/ });
});
