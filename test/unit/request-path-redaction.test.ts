// The request log's path (src/http/request-log.ts redactPath): a sign-in link's token never reaches
// the log, even when the path that carries it has lost the word `signin` (issue 43, security
// review), nor a key or a webhook secret pasted into a URL; ids stay, so a line still says what was
// asked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactPath } from '../../src/http/request-log.ts';

/** The shape of a link's token: 32 random bytes in base64url (src/dashboard/sessions.ts). */
const TOKEN = 'Xq3abc_-9ZkLmNoPqRsTuVwXyZ0123456789AbCdEfG';

test('a token-shaped segment is redacted wherever it stands, whatever the word before it', () => {
  assert.equal(TOKEN.length, 43);
  for (const [path, logged] of [
    [`/dashboard/${TOKEN}`, '/dashboard/[redacted]'],
    [`/dashboard/sign-in/${TOKEN}`, '/dashboard/sign-in/[redacted]'],
    [`/dashboard/sign_in/${TOKEN}/`, '/dashboard/sign_in/[redacted]/'],
    [`/${TOKEN}`, '/[redacted]'],
    [`/dashboard/login/${TOKEN}x`, '/dashboard/login/[redacted]'],
    [`/v1/entries/${TOKEN}`, '/v1/entries/[redacted]'],
    // Percent-encoded, the token is not a run of the path as sent: it is redacted all the same.
    [`/dashboard/${encodeURIComponent(TOKEN).replace(/X/g, '%58')}`, '/dashboard/[redacted]'],
    [`/dashboard/${TOKEN.slice(0, 20)}%2D${TOKEN.slice(21)}`, '/dashboard/[redacted]'],
  ] as const) {
    assert.equal(redactPath(path), logged, path);
    assert.ok(!redactPath(path).includes(TOKEN.slice(0, 20)), path);
  }
});

test('the link with its word, keys and secrets are redacted as before; ids and plain paths stay', () => {
  assert.equal(redactPath(`/dashboard/signin/${TOKEN}`), '/dashboard/signin/[redacted]');
  assert.equal(redactPath(`/v1/x/service_live_${TOKEN}`), '/v1/x/service_live_[redacted]');
  assert.equal(redactPath('/v1/x/whsec_abc+='), '/v1/x/whsec_[redacted]');
  for (const path of [
    '/v1/entries/01a20320-a200-7805-8eff-a288f573038c',
    '/dashboard/campaigns/01a20320-a200-7805-8eff-a288f573038c/draws',
    '/dashboard/signin',
    '/dashboard/signout',
    '/healthz',
  ])
    assert.equal(redactPath(path), path);
});
