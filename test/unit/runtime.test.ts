// cesCommand and serveCommand (src/tools/runtime.ts): what ces tells an operator to type, for each way of
// running it. The tests run from the sources, so the binary and the bundle are passed explicitly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cesCommand, runningAs, serveCommand } from '../../src/tools/runtime.ts';

test('the tests themselves run from the sources', () => {
  assert.equal(runningAs(), 'source');
  assert.equal(cesCommand(), 'npx ces');
  assert.equal(serveCommand(), 'npm start');
});

test('from the sources: npx ces and npm start, whatever argv0 is', () => {
  assert.equal(cesCommand('/usr/bin/node', 'source'), 'npx ces');
  assert.equal(serveCommand('/usr/bin/node', 'source'), 'npm start');
});

test('the bundle: ces, as npm installed it, never the node that runs it', () => {
  assert.equal(cesCommand('/usr/local/bin/node', 'bundle'), 'ces');
  assert.equal(cesCommand('node', 'bundle'), 'ces');
  assert.equal(serveCommand('/usr/local/bin/node', 'bundle'), 'ces serve');
});

test('the binary: the executable as the operator called it', () => {
  assert.equal(cesCommand('./ces', 'binary'), './ces');
  assert.equal(cesCommand('/usr/local/bin/ces', 'binary'), '/usr/local/bin/ces');
  assert.equal(cesCommand('ces', 'binary'), 'ces');
  assert.equal(cesCommand('./ces-0.1.0', 'binary'), './ces-0.1.0');
  assert.equal(serveCommand('./ces', 'binary'), './ces serve');
  assert.equal(serveCommand('/usr/local/bin/ces', 'binary'), '/usr/local/bin/ces serve');
});

test('the binary called by a path a shell would split or expand: its file name alone', () => {
  assert.equal(cesCommand('/opt/my apps/ces', 'binary'), 'ces');
  assert.equal(cesCommand('/opt/$(x)/ces', 'binary'), 'ces');
  assert.equal(serveCommand("/home/o'neil/ces", 'binary'), 'ces serve');
  // Nothing usable left: the name ces ships as.
  assert.equal(cesCommand('', 'binary'), 'ces');
  assert.equal(cesCommand('/tmp/€€', 'binary'), 'ces');
});
