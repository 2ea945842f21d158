// JSON log lines keep every field a caller passes, however consola carries it.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger } from '../../src/log.ts';

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { chunks.push(String(chunk)); done(); } });
  return { stream, lines: () => chunks.join('').trim().split('\n').map((l) => JSON.parse(l)) };
}

test('a lone {message, ...} object keeps its fields', () => {
  const out = capture();
  createLogger('json', out.stream).info({ message: 'ces listening on http://127.0.0.1:3000', url: 'http://127.0.0.1:3000', db: 'x.db' });
  const [line] = out.lines();
  assert.equal(line.message, 'ces listening on http://127.0.0.1:3000');
  assert.equal(line.url, 'http://127.0.0.1:3000');
  assert.equal(line.db, 'x.db');
  assert.equal(line.level, 'info');
});

test('a string and an object merge; an Error gives its message and stack', () => {
  const out = capture();
  const log = createLogger('json', out.stream);
  log.info('request', { status: 202, route: '/v1/entries' });
  log.error(new Error('boom'));
  const [req, err] = out.lines();
  assert.deepEqual({ message: req.message, status: req.status, route: req.route }, { message: 'request', status: 202, route: '/v1/entries' });
  assert.equal(err.error, 'boom');
  assert.match(String(err.stack), /Error: boom/);
});
