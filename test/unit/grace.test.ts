// parseGraceSeconds (src/input/grace.ts): the grace period of a rotation, read once from what the
// operator typed (the CLI's --grace, the dashboard's grace field), refused alike from both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliMessage } from '../../cli/fields.ts';
import { MAX_GRACE_SECONDS, parseGraceSeconds } from '../../src/input/grace.ts';
import type { AppError } from '../../src/kernel/errors.ts';

test('whole seconds from 0 to 30 days, written in digits, are read', () => {
  for (const [text, value] of [
    ['0', 0],
    ['000', 0],
    [' 3600 ', 3600],
    [String(MAX_GRACE_SECONDS), MAX_GRACE_SECONDS],
  ] as const)
    assert.equal(parseGraceSeconds(text), value, text);
});

test('anything else is 422 invalid_option on `grace`, which the CLI names --grace', () => {
  for (const text of ['', 'abc', '-1', '1.5', '1e3', String(MAX_GRACE_SECONDS + 1), '99999999999999']) {
    assert.throws(
      () => parseGraceSeconds(text),
      (error: AppError) => {
        assert.equal(error.status, 422);
        assert.equal(error.code, 'invalid_option');
        assert.equal(error.message, `\`grace\` must be a whole number of seconds from 0 to 2592000 (30 days), got "${text}"`);
        assert.match(cliMessage(error), /^--grace must be a whole number of seconds/);
        return true;
      },
      text,
    );
  }
});
