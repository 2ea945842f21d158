// CES_WRITER_THREAD (src/config.ts): off unless set to 1; anything but 1 or 0 stops `ces serve`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('CES_WRITER_THREAD is off by default, on with 1, off with 0 or empty, refused otherwise', () => {
  const writerThread = (value?: string) => loadConfig({}, value === undefined ? {} : { CES_WRITER_THREAD: value }, false).writerThread;
  assert.equal(writerThread(), false);
  assert.equal(writerThread('1'), true);
  assert.equal(writerThread(' 1 '), true);
  assert.equal(writerThread('0'), false);
  assert.equal(writerThread(''), false);
  assert.throws(() => writerThread('yes'), (e: unknown) => e instanceof ConfigError && /CES_WRITER_THREAD must be 1 or 0, got "yes"/.test(e.message));
});
