// On/off settings (src/config.ts): CES_WRITER_THREAD is off and CES_CHECKPOINT_THREAD on unless set; anything but 1 or 0 stops `ces serve`.
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

test('CES_CHECKPOINT_THREAD is on by default, off with 0, refused unless 1 or 0', () => {
  const checkpointThread = (value?: string) => loadConfig({}, value === undefined ? {} : { CES_CHECKPOINT_THREAD: value }, false).checkpointThread;
  assert.equal(checkpointThread(), true);
  assert.equal(checkpointThread(''), true);
  assert.equal(checkpointThread('1'), true);
  assert.equal(checkpointThread('0'), false);
  assert.equal(checkpointThread(' 0 '), false);
  assert.throws(() => checkpointThread('off'), (e: unknown) => e instanceof ConfigError && /CES_CHECKPOINT_THREAD must be 1 or 0, got "off"/.test(e.message));
});
