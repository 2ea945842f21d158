// Operator-flag wording stays in the CLI (cli/options.ts): its parsers name the flag the operator
// typed, while the domain's own checks of the same values (src/keys/keys.ts, src/input/status-filter.ts)
// speak of the value, so a caller other than the CLI never reads about a flag it did not pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliMessage } from '../../cli/fields.ts';
import { parseAuditAction, parseMode, parseModeFilter, parseStatusOption } from '../../cli/options.ts';
import { inFormWords } from '../../src/dashboard/forms.ts';
import { AppError, invalidOption } from '../../src/kernel/errors.ts';
import { cesCommand } from '../../src/tools/runtime.ts';
import { toLivemode, toMode } from '../../src/keys/keys.ts';
import { toStatusFilter } from '../../src/input/status-filter.ts';

const STATUSES = ['pending', 'delivered'] as const;

test('the CLI reads --mode and --status in any case and names the flag when refusing', () => {
  assert.equal(parseMode('LIVE'), 'live');
  assert.equal(parseModeFilter('Test'), 0);
  assert.equal(parseModeFilter(undefined), undefined);
  assert.equal(parseStatusOption('DELIVERED', STATUSES), 'delivered');
  assert.throws(() => parseMode('prod'), { code: 'invalid_mode', message: '--mode must be live or test, got "prod"' });
  assert.throws(() => parseStatusOption('sent', STATUSES), {
    code: 'invalid_option',
    message: '--status must be one of pending, delivered, got "sent"',
  });
  assert.throws(() => parseAuditAction('key.lost'), { code: 'invalid_option', message: /^--action must be one of / });
});

test('the domain checks the same values with the same codes, in words that name no flag', () => {
  assert.equal(toMode('Live'), 'live');
  assert.equal(toLivemode('TEST'), 0);
  assert.equal(toStatusFilter('Pending', STATUSES), 'pending');
  assert.throws(() => toMode('prod'), {
    status: 422,
    code: 'invalid_mode',
    message: 'mode must be live or test, got "prod"',
    errors: [{ field: 'mode', code: 'invalid_option', message: 'mode must be live or test, got "prod"' }],
  });
  assert.throws(() => toStatusFilter('sent', STATUSES), {
    code: 'invalid_option',
    message: 'status must be one of pending, delivered, got "sent"',
  });
});

test('a domain error names fields; the CLI prints them as flags with the next command, a form by its labels', () => {
  const refusal = invalidOption('extraction_date', '`extraction_date` 2026-11-21 is before the cut-off; see `series_digits`');
  assert.equal(refusal.code, 'invalid_option');
  assert.deepEqual(
    refusal.errors?.map((e) => e.field),
    ['extraction_date'],
  );
  assert.equal(cliMessage(refusal), '--extraction-date 2026-11-21 is before the cut-off; see --series');
  assert.equal(
    inFormWords(refusal.message, { extraction_date: 'Extraction date' }),
    'Extraction date 2026-11-21 is before the cut-off; see series_digits',
  );
  const notFrozen = new AppError(409, 'draw_not_frozen', 'The draw is not frozen yet: freeze it first');
  assert.equal(cliMessage(notFrozen), `The draw is not frozen yet: freeze it first (${cesCommand()} draw freeze DRAW_ID)`);
  assert.equal(inFormWords(notFrozen.message), notFrozen.message);
});

test('a next step the domain names in words, the CLI gives as the command that takes it', () => {
  const corrupt = new AppError(422, 'database_corrupt', 'The file failed; check it again until it passes.', undefined, undefined, {
    action: 'check',
    dbPath: '/srv/ces.db',
  });
  assert.equal(cliMessage(corrupt), `The file failed; check it again until it passes (${cesCommand()} check --db /srv/ces.db).`);
  assert.doesNotMatch(corrupt.message, /--db|ces check/);
});
