// How a process that holds the database is named in a refusal (src/db/file-users.ts), from its
// /proc/PID/comm and /proc/PID/cmdline as Linux shows them: ces run as the executable, as the
// installed bundle and from the sources is "ces serve", Litestream is "litestream", anything else
// is its comm.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canSeeOpenFiles, describeProcess, nameProcess } from '../../src/db/file-users.ts';

/** /proc/PID/cmdline: each argument ends in a NUL. */
const cmdline = (...argv: string[]): string => argv.map((arg) => `${arg}\0`).join('');
/** /proc/PID/comm: the name and a newline. */
const comm = (name: string): string => `${name}\n`;

test('the executable: its argv[0] names it, as called and whatever its comm', () => {
  assert.deepEqual(nameProcess(comm('ces'), cmdline('./ces', 'serve', '--db', '/var/lib/ces/ces.db')), {
    name: 'ces serve',
    litestream: false,
  });
  assert.equal(nameProcess(comm('ces'), cmdline('/usr/local/bin/ces', 'serve')).name, 'ces serve');
  assert.equal(nameProcess(comm('ces'), cmdline('ces', 'backup', '/tmp/copy.db')).name, 'ces backup');
  // Renamed, with its comm cut at 15 characters.
  assert.equal(nameProcess(comm('ces-0.1.0-linux'), cmdline('./ces-0.1.0-linux-x64', 'serve')).name, 'ces serve');
  // Node 24, which the executable is built on, names its main thread: comm is MainThread.
  assert.equal(nameProcess(comm('MainThread'), cmdline('./ces', 'serve', '--db', 'ces.db')).name, 'ces serve');
  // No command word: the executable alone.
  assert.equal(nameProcess(comm('ces'), cmdline('./ces', '--version')).name, 'ces');
});

test('the installed bundle: node running the ces on PATH, or dist/ces.mjs', () => {
  assert.equal(nameProcess(comm('node'), cmdline('node', '/usr/local/bin/ces', 'serve', '--db', 'ces.db')).name, 'ces serve');
  assert.equal(nameProcess(comm('node'), cmdline('node', '/usr/lib/node_modules/ces/dist/ces.mjs', 'restore', 'b.db')).name, 'ces restore');
  assert.equal(nameProcess(comm('node'), cmdline('/usr/bin/node', '--max-old-space-size=512', 'dist/ces.mjs', 'serve')).name, 'ces serve');
});

test('the bundle and the sources under newer Node releases, whose comm is MainThread', () => {
  assert.equal(nameProcess(comm('MainThread'), cmdline('node', '/usr/local/bin/ces', 'serve')).name, 'ces serve');
  assert.equal(nameProcess(comm('MainThread'), cmdline('/usr/bin/node', '--import', 'tsx', 'cli/ces.ts', 'serve')).name, 'ces serve');
  // Another node is a node, not MainThread; another program that names its thread so keeps the name.
  assert.equal(nameProcess(comm('MainThread'), cmdline('node', '--test', 'test/slow/backup.test.ts')).name, 'node');
  assert.equal(nameProcess(comm('MainThread'), cmdline('/usr/lib/app/app', '--flag')).name, 'MainThread');
});

test('the sources: npm start, npx ces and bin/ces.mjs', () => {
  assert.equal(nameProcess(comm('node'), cmdline('node', '--import', 'tsx', 'cli/ces.ts', 'serve')).name, 'ces serve');
  assert.equal(nameProcess(comm('node'), cmdline('node', '/home/dev/ces/node_modules/.bin/ces', 'serve')).name, 'ces serve');
  assert.equal(nameProcess(comm('node'), cmdline('node', 'bin/ces.mjs', 'check', '--db', 'x.db')).name, 'ces check');
});

test('Litestream is litestream, whatever it runs beside; its npm wrapper is a node', () => {
  assert.deepEqual(nameProcess(comm('litestream'), cmdline('litestream', 'replicate', '-exec', 'ces serve')), {
    name: 'litestream',
    litestream: true,
  });
  assert.deepEqual(nameProcess(comm('node'), cmdline('node', '/srv/node_modules/.bin/litestream', 'replicate')), {
    name: 'node',
    litestream: false,
  });
});

test('anything else is its comm: another node, a title set, a shell running ces, nothing at all', () => {
  assert.equal(nameProcess(comm('node'), cmdline('node', '--import', 'tsx', '--test', 'test/slow/backup.test.ts')).name, 'node');
  assert.equal(nameProcess(comm('legacy-report'), cmdline('legacy-report')).name, 'legacy-report');
  assert.equal(nameProcess(comm('bash'), cmdline('bash', '-c', './ces serve')).name, 'bash');
  // A process whose cmdline could not be read (gone meanwhile) keeps its comm.
  assert.equal(nameProcess(comm('node'), '').name, 'node');
  assert.equal(nameProcess('', '').name, 'process');
});

test('describeProcess reads /proc: this test is a node, a pid no process has is "process"', { skip: !canSeeOpenFiles() }, () => {
  assert.deepEqual(describeProcess(process.pid), { pid: process.pid, name: 'node', litestream: false });
  assert.deepEqual(describeProcess(2 ** 22 + 1), { pid: 2 ** 22 + 1, name: 'process', litestream: false });
});
