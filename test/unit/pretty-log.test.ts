// `ces serve`'s pretty log (issue 32, item 10): text from outside (a path, a receiver's error, a
// campaign's name) is shown with its control characters escaped, as the CLI shows them, so a raw
// ESC sequence cannot drive the operator's terminal, a bidi control cannot reorder the line and a
// line break cannot forge a line of its own.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger } from '../../src/kernel/log.ts';

function prettyLogger(): { log: ReturnType<typeof createLogger>; text: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { log: createLogger('pretty', sink), text: () => chunks.join('') };
}

const HOSTILE = 'campanha \u001b[2J\u202eevil\u2066 ok\nFAKE LINE\r\u009b';

test('a message, its fields and an error are written with every control character escaped', () => {
  const { log, text } = prettyLogger();
  log.warn(`webhook of ${HOSTILE} failed`);
  log.warn({ message: `endpoint ${HOSTILE}`, campaign_name: HOSTILE });
  log.error(new Error(`receiver said ${HOSTILE}`));
  const out = text();
  assert.doesNotMatch(out, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, 'no raw control character');
  assert.ok(out.includes('campanha \\u001b[2J\\u202eevil\\u2066 ok\\u000aFAKE LINE\\u000d\\u009b'), out);
  assert.ok(!out.split('\n').some((line) => line.startsWith('FAKE LINE')), 'no forged line');
  // An error's stack keeps its own line breaks (one frame a line).
  assert.match(out, /\n\s+at /);
});

test('plain text is written as it was', () => {
  const { log, text } = prettyLogger();
  log.info('listening on http://127.0.0.1:3000 (São Paulo)');
  assert.match(text(), /listening on http:\/\/127\.0\.0\.1:3000 \(São Paulo\)/);
});
