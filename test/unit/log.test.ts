// JSON log lines keep every field a caller passes, however consola carries it.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger } from '../../src/kernel/log.ts';

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
  };
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
  assert.deepEqual(
    { message: req.message, status: req.status, route: req.route },
    { message: 'request', status: 202, route: '/v1/entries' },
  );
  assert.equal(err.error, 'boom');
  assert.match(String(err.stack), /Error: boom/);
});

test('writeInfoRecord writes the line log.info would, and declines for a logger that is not JSON', async () => {
  const { writeInfoRecord, createSilentLogger } = await import('../../src/kernel/log.ts');
  const viaConsola = capture();
  createLogger('json', viaConsola.stream).info('request', { status: 202, route: '/v1/entries' });
  const direct = capture();
  assert.equal(writeInfoRecord(createLogger('json', direct.stream), { status: 202, route: '/v1/entries', message: 'request' }), true);
  const strip = ({ time, ...rest }: Record<string, unknown>) => (assert.match(String(time), /^\d{4}-\d{2}-\d{2}T/), rest);
  assert.deepEqual(strip(direct.lines()[0]), strip(viaConsola.lines()[0]));
  assert.equal(writeInfoRecord(createSilentLogger(), { message: 'x' }), false);
  assert.equal(writeInfoRecord(createLogger('json', capture().stream, { level: 1 }), { message: 'x' }), false);
});

test('a guarded log output whose stream fails counts every line from that write on as dropped, writes no more and reports the loss once', async () => {
  const { guardLogStream, droppedLogLines } = await import('../../src/kernel/log.ts');
  let writes = 0;
  const stream = new Writable({
    write(_chunk, _enc, done) {
      writes++;
      done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  });
  const losses: Array<string | undefined> = [];
  const log = createLogger(
    'json',
    guardLogStream(stream as unknown as NodeJS.WriteStream, (error) => losses.push(error.code)),
  );
  log.info('one');
  log.info('two');
  await new Promise((resolve) => setImmediate(resolve));
  log.info('three');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes, 1, 'the stream is not written again once it failed');
  assert.deepEqual(losses, ['EPIPE']);
  assert.equal(droppedLogLines(log), 3);
  assert.equal(droppedLogLines(createLogger('json', capture().stream)), 0, 'a logger on a plain stream drops nothing');
});
