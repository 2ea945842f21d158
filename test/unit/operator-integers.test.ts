// Integers an operator types (src/input/integers.ts): read once at the edge, in digits only, within
// the domain's range, and refused naming the field (the CLI shows its flag, a form its label).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkInteger, parseInteger } from '../../src/input/integers.ts';

const RANGE = { min: 1, max: 10_000 };

test('an integer in range, written in digits, is read as its value', () => {
  assert.equal(parseInteger('winners', '7', RANGE), 7);
  assert.equal(parseInteger('winners', ' 10000 ', RANGE), 10_000);
  assert.equal(checkInteger('winners', 1, RANGE), 1);
});

for (const typed of ['0', '10001', '2.5', '-1', 'one', '', '  ', '0x10', '1e3']) {
  test(`"${typed}" is refused: 422 invalid_option naming the field`, () => {
    assert.throws(
      () => parseInteger('position', typed, RANGE),
      (error: unknown) => {
        assert.ok(error instanceof Error && 'code' in error && 'errors' in error);
        assert.equal(error.code, 'invalid_option');
        assert.equal(error.message, `\`position\` must be an integer from 1 to 10000, got "${typed}"`);
        assert.deepEqual(error.errors, [{ field: 'position', code: 'invalid_option', message: error.message }]);
        return true;
      },
    );
  });
}
