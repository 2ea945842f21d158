// The dashboard's security (docs/operations.md#dashboard; issue 25), through the real server and
// the real CLI on a real SQLite file: no page without a session; a sign-in link works once and
// expires; a cookie from another database, a revoked session or one idle for 12 hours is refused; a
// POST without the session's CSRF token is 403; values render as text; the CSP and frame-ancestors
// headers are on every answer; CES_DASHBOARD=off serves nothing under /dashboard/; tokens are
// stored only as digests.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ManualClock } from '../../src/kernel/clock.ts';
import { listAuditRecords } from '../../src/audit/audit.ts';
import { createSignInLink, listSessions } from '../../src/dashboard/sessions.ts';
import { redactPath } from '../../src/http/request-log.ts';
import { entryBody, makeCampaign, OPERATOR, runCli, startTestServer, submitEntry, type TestServer } from '../support/harness.ts';
import { csrfOf, dashboardRequest, openLink, sessionCookieOf, signIn } from '../support/dashboard.ts';
import { spawnServe } from '../support/serve-process.ts';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A server; `realTime`: its ManualClock starts at the real time, for tests that read sessions through the CLI (system clock). */
async function server(env: Record<string, string> = {}, o: { realTime?: boolean } = {}): Promise<TestServer> {
  const t = await startTestServer({ env, clock: o.realTime ? new ManualClock(new Date().toISOString()) : undefined });
  cleanups.push(() => t.close());
  return t;
}

async function cli(t: TestServer, args: string[], env: Record<string, string> = {}): Promise<any> {
  const res = await runCli([...args, '--json'], { dbPath: t.dbPath, env });
  assert.equal(res.code, 0, `${args.join(' ')}: ${res.stderr}`);
  return res.json;
}

function assertSecurityHeaders(res: { status: number; headers: Headers }, what: string): void {
  assert.equal(res.headers.get('content-security-policy'), CSP, `${what}: CSP`);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${what}: nosniff`);
  assert.equal(res.headers.get('referrer-policy'), 'same-origin', `${what}: referrer policy`);
}

describe('no page without a session', () => {
  test('every page redirects to /dashboard/signin; the sign-in page and the assets answer without one', async () => {
    const t = await server();
    const { campaign } = makeCampaign(t.ctx);
    for (const path of [
      '/dashboard/',
      '/dashboard',
      `/dashboard/campaigns/${campaign.id}`,
      `/dashboard/campaigns/${campaign.id}/entries`,
      '/dashboard/entries/0196a1b2-0000-7000-8000-000000000000',
    ]) {
      const res = await dashboardRequest(t, 'GET', path);
      assert.equal(res.status, 303, path);
      assert.equal(res.headers.get('location'), '/dashboard/signin', path);
      assert.doesNotMatch(res.text, /Test campaign/, `${path}: nothing of the page`);
      assertSecurityHeaders(res, path);
    }
    const signin = await dashboardRequest(t, 'GET', '/dashboard/signin');
    assert.equal(signin.status, 200);
    // The command as the server runs (from the sources here): what its operator types on the server.
    assert.match(signin.text, /<code>npx ces dashboard link --as YOUR_NAME<\/code>/);
    const css = await dashboardRequest(t, 'GET', '/dashboard/assets/dashboard.css');
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(css.headers.get('cache-control') ?? '', /max-age=\d+/);
    const js = await dashboardRequest(t, 'GET', '/dashboard/assets/dashboard.js');
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
  });

  test('a POST without a session changes nothing and goes to the sign-in page', async () => {
    const t = await server();
    const maria = await signIn(t);
    const res = await dashboardRequest(t, 'POST', '/dashboard/signout', { form: { csrf: maria.csrf } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/signin');
    assert.equal((await maria.get('/dashboard/')).status, 200, 'the session was not ended');
  });
});

describe('sign-in links', () => {
  test('ces dashboard link prints a link that works once, starts a session named --as, and is audited', async () => {
    const t = await server();
    const link = await cli(t, ['dashboard', 'link', '--as', 'maria']);
    assert.deepEqual(Object.keys(link).sort(), ['expires_at', 'url']);
    const url = new URL(link.url);
    assert.equal(url.origin, 'http://127.0.0.1:3000', 'no CES_PUBLIC_URL: http://HOST:PORT of the serve settings');
    const maria = await openLink(t, url.pathname, 'maria');
    const first = await maria.get('/dashboard/');
    assert.equal(first.status, 200);
    assert.match(first.text, /Signed in as <strong>maria<\/strong>/);

    const again = await dashboardRequest(t, 'GET', url.pathname);
    assert.equal(again.status, 410);
    assert.match(again.text, /was used at/);
    assert.equal(sessionCookieOf(again), null, 'a used link starts nothing');
    assertSecurityHeaders(again, 'a used link');

    const audit = await cli(t, ['audit', 'list', '--action', 'dashboard.signed_in']);
    assert.equal(audit.length, 1);
    assert.equal(audit[0].actor, 'dashboard:maria');
    const made = await cli(t, ['audit', 'list', '--action', 'dashboard.link_created']);
    assert.equal(made.length, 1);
    assert.equal(made[0].details.name, 'maria');
    assert.ok(!JSON.stringify([...audit, ...made]).includes(url.pathname.split('/').pop()!), 'the token is in no audit record');
  });

  test('the link is built on CES_PUBLIC_URL, else CES_HOST and CES_PORT; --ttl and --as are checked', async () => {
    const t = await server();
    const pub = await cli(t, ['dashboard', 'link', '--as', 'ana'], { CES_PUBLIC_URL: 'https://promo.example.com.br' });
    assert.match(pub.url, /^https:\/\/promo\.example\.com\.br\/dashboard\/signin\/[A-Za-z0-9_-]{43}$/);
    const hostPort = await cli(t, ['dashboard', 'link', '--as', 'ana'], { CES_HOST: '10.0.0.5', CES_PORT: '8080' });
    assert.match(hostPort.url, /^http:\/\/10\.0\.0\.5:8080\/dashboard\/signin\//);
    const ttl = await cli(t, ['dashboard', 'link', '--as', 'ana', '--ttl', '60']);
    const minutes = (Date.parse(ttl.expires_at) - Date.now()) / 60_000;
    assert.ok(minutes > 58 && minutes <= 60, `--ttl 60 gives a link of an hour, got ${minutes} min`);
    for (const args of [
      ['--ttl', '0'],
      ['--ttl', '1441'],
      ['--ttl', '1e3'],
      ['--as', '<script>'],
      ['--as', ''],
    ]) {
      const res = await runCli(['dashboard', 'link', ...args, '--json'], { dbPath: t.dbPath });
      assert.equal(res.code, 1, args.join(' '));
      assert.equal(res.json.error.code, 'invalid_option', args.join(' '));
    }
  });

  test('a link expires after its TTL and then starts nothing; an unknown link is 404', async () => {
    const t = await server();
    const link = createSignInLink(t.ctx, { name: 'joao', ttlMinutes: 15 }, OPERATOR);
    t.clock.advance(15 * 60_000);
    const res = await dashboardRequest(t, 'GET', `/dashboard/signin/${link.token}`);
    assert.equal(res.status, 410);
    assert.match(res.text, /expired at/);
    assert.equal(sessionCookieOf(res), null);
    const unknown = await dashboardRequest(t, 'GET', `/dashboard/signin/${'A'.repeat(43)}`);
    assert.equal(unknown.status, 404);
    assert.equal(sessionCookieOf(unknown), null);
    assert.match(unknown.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('with an https public URL every dashboard answer carries Strict-Transport-Security; with http none does', async () => {
    const https = await server({ CES_PUBLIC_URL: 'https://promo.example.com.br' });
    const maria = await signIn(https);
    for (const res of [
      await maria.get('/dashboard/'),
      await dashboardRequest(https, 'GET', '/dashboard/signin'),
      await dashboardRequest(https, 'GET', '/dashboard/assets/dashboard.css'),
      await dashboardRequest(https, 'GET', `/dashboard/signin/${'A'.repeat(43)}`),
    ])
      assert.equal(res.headers.get('strict-transport-security'), 'max-age=31536000');
    const plain = await server();
    assert.equal((await dashboardRequest(plain, 'GET', '/dashboard/signin')).headers.get('strict-transport-security'), null);
  });

  test("a HEAD or a preview GET of the link changes nothing; only the button's POST signs in, once", async () => {
    const t = await server();
    const link = createSignInLink(t.ctx, { name: 'joao', ttlMinutes: 15 }, OPERATOR);
    const path = `/dashboard/signin/${link.token}`;
    const head = await dashboardRequest(t, 'HEAD', path);
    assert.equal(head.status, 200);
    assert.equal(sessionCookieOf(head), null);
    for (let i = 0; i < 3; i++) {
      const preview = await dashboardRequest(t, 'GET', path, { headers: { 'user-agent': 'WhatsApp/2.23 link preview' } });
      assert.equal(preview.status, 200);
      assert.equal(sessionCookieOf(preview), null);
      assert.match(preview.text, /signs you in as <strong>joao<\/strong>/);
    }
    const sessions = () => t.ctx.db.prepare('SELECT count(*) FROM dashboard_sessions').pluck().get();
    assert.equal(sessions(), 0, 'no session was started by looking');
    const crossSite = await dashboardRequest(t, 'POST', path, { headers: { origin: 'https://evil.example' } });
    assert.equal(crossSite.status, 403, 'another site cannot press the button');
    assert.equal(sessions(), 0);
    await openLink(t, path, 'joao');
    assert.equal(sessions(), 1);
    const again = await dashboardRequest(t, 'POST', path);
    assert.equal(again.status, 410);
    assert.match(again.text, /was used at/);
    assert.equal((await dashboardRequest(t, 'GET', path)).status, 410, 'the page says the link is used');
  });

  test('one second before it expires the link still works', async () => {
    const t = await server();
    const link = createSignInLink(t.ctx, { name: 'joao', ttlMinutes: 15 }, OPERATOR);
    t.clock.advance(15 * 60_000 - 1000);
    await openLink(t, `/dashboard/signin/${link.token}`, 'joao');
  });

  test('the cookie is HttpOnly, SameSite=Strict; over http ces_session, Path=/dashboard; with an https CES_PUBLIC_URL __Host-ces_session, Secure, Path=/', async () => {
    const plain = await server();
    const a = await dashboardRequest(
      plain,
      'POST',
      `/dashboard/signin/${createSignInLink(plain.ctx, { name: 'a', ttlMinutes: 5 }, OPERATOR).token}`,
    );
    assert.match(a.headers.get('set-cookie')!, /^ces_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/dashboard$/);
    const https = await server({ CES_PUBLIC_URL: 'https://promo.example.com.br' });
    const b = await dashboardRequest(
      https,
      'POST',
      `/dashboard/signin/${createSignInLink(https.ctx, { name: 'b', ttlMinutes: 5 }, OPERATOR).token}`,
    );
    // What a browser requires of a __Host- cookie: Secure, Path=/, no Domain.
    assert.match(b.headers.get('set-cookie')!, /^__Host-ces_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Secure$/);
    assert.doesNotMatch(b.headers.get('set-cookie')!, /Domain=/i);
    const token = sessionCookieOf(b)!;
    const home = (cookieName: string) => dashboardRequest(https, 'GET', '/dashboard/', { cookie: token, cookieName });
    assert.equal((await home('__Host-ces_session')).status, 200);
    assert.equal((await home('ces_session')).status, 303, 'the same token without the prefix is no session');
    // Signing out clears the same cookie (same name and path, or the browser would keep it).
    const out = await dashboardRequest(https, 'POST', '/dashboard/signout', {
      cookie: token,
      cookieName: '__Host-ces_session',
      form: { csrf: csrfOf(b.text) },
    });
    assert.equal(out.headers.get('set-cookie'), '__Host-ces_session=; HttpOnly; SameSite=Strict; Path=/; Secure; Max-Age=0');
    // The page moves on to the dashboard by itself (a same-site navigation that carries the cookie).
    assert.match(a.text, /<meta http-equiv="refresh" content="0; url=\/dashboard\/"\s*\/?>/);
  });

  test('ces serve records its public URL: ces dashboard link from a shell without CES_PUBLIC_URL prints links to it; the CLI’s own CES_PUBLIC_URL wins', async () => {
    // A listening server without CES_PUBLIC_URL records http://HOST:PORT, the port it was given.
    const t = await startTestServer({ socket: true });
    cleanups.push(() => t.close());
    const printed = await cli(t, ['dashboard', 'link', '--as', 'maria']);
    assert.ok(printed.url.startsWith(`${t.url}/dashboard/signin/`), `${printed.url} is on ${t.url}`);
    await openLink(t, new URL(printed.url).pathname, 'maria');
    const own = await cli(t, ['dashboard', 'link', '--as', 'maria'], { CES_PUBLIC_URL: 'https://ops.example.com.br/' });
    assert.match(own.url, /^https:\/\/ops\.example\.com\.br\/dashboard\/signin\//, 'the CLI’s CES_PUBLIC_URL wins');
    const hostPort = await cli(t, ['dashboard', 'link', '--as', 'maria'], { CES_HOST: '10.0.0.5', CES_PORT: '8080' });
    assert.ok(hostPort.url.startsWith(`${t.url}/`), 'what the server recorded beats a guess from the shell’s CES_HOST and CES_PORT');

    // The real `ces serve`, CES_PUBLIC_URL only in its own environment (a systemd unit's).
    const dir = mkdtempSync(join(tmpdir(), 'ces-public-url-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'ces.db');
    const serve = await spawnServe({ dbPath, env: { CES_PUBLIC_URL: 'https://promo.example.com.br' } });
    try {
      const fromShell = await runCli(['dashboard', 'link', '--as', 'ana', '--json'], { dbPath });
      assert.equal(fromShell.code, 0, fromShell.stderr);
      assert.match(fromShell.json.url, /^https:\/\/promo\.example\.com\.br\/dashboard\/signin\/[A-Za-z0-9_-]{43}$/);
    } finally {
      serve.child.kill('SIGTERM');
      assert.equal((await serve.exited).code, 0, serve.output());
    }
    // Kept once the server has stopped: a link made during a restart points where it comes back.
    const afterStop = await runCli(['dashboard', 'link', '--as', 'ana', '--json'], { dbPath });
    assert.match(afterStop.json.url, /^https:\/\/promo\.example\.com\.br\/dashboard\/signin\//);
  });

  test('only SHA-256 digests of link and session tokens are stored', async () => {
    const t = await server();
    const link = createSignInLink(t.ctx, { name: 'maria', ttlMinutes: 15 }, OPERATOR);
    const maria = await openLink(t, `/dashboard/signin/${link.token}`, 'maria');
    const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
    const links = t.ctx.db.prepare(`SELECT token_hash FROM dashboard_links`).pluck().all() as Buffer[];
    const sessions = t.ctx.db.prepare(`SELECT token_hash FROM dashboard_sessions`).pluck().all() as Buffer[];
    assert.deepEqual(links, [digest(link.token)]);
    assert.deepEqual(sessions, [digest(maria.cookie)]);
    t.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(t.dbPath).toString('latin1');
    assert.ok(!file.includes(link.token) && !file.includes(maria.cookie), 'neither token is anywhere in the database file');
    assert.equal(Buffer.from(link.token, 'base64url').length, 32, '256 bits');
  });

  test("the request log never shows a link's token", () => {
    assert.equal(redactPath('/dashboard/signin/Xq3abc_-'), '/dashboard/signin/[redacted]');
    assert.equal(redactPath('/dashboard/signin'), '/dashboard/signin');
    // Malformed shapes of the link's path never let the token through (issue 32: each reached the log).
    for (const path of [
      '//dashboard/signin/Xq3abc_-',
      '/dashboard//signin/Xq3abc_-',
      '/dashboard/signin%2FXq3abc_-',
      '/dashboard/signin%252FXq3abc_-',
      '/dashboard/sign%69n/Xq3abc_-',
      '/DASHBOARD/SIGNIN/Xq3abc_-',
      '/dashboard/signinXq3abc_-',
    ])
      assert.equal(redactPath(path), '/dashboard/signin/[redacted]', path);
    assert.equal(redactPath('/dashboard/signout'), '/dashboard/signout');
  });
});

describe('sessions end', () => {
  test('a session cookie from another database is refused', async () => {
    const a = await server();
    const b = await server();
    const maria = await signIn(a);
    assert.equal((await maria.get('/dashboard/')).status, 200);
    const res = await dashboardRequest(b, 'GET', '/dashboard/', { cookie: maria.cookie });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/signin');
  });

  test('ces dashboard revoke ID ends that session; --all ends every open one', async () => {
    const t = await server({}, { realTime: true });
    const maria = await signIn(t, 'maria');
    const joao = await signIn(t, 'joao');
    const ana = await signIn(t, 'ana');
    const listed = await cli(t, ['dashboard', 'sessions']);
    assert.deepEqual(listed.map((s: any) => [s.name, s.state]).sort(), [
      ['ana', 'active'],
      ['joao', 'active'],
      ['maria', 'active'],
    ]);
    const mariaId = listed.find((s: any) => s.name === 'maria').id;
    const revoked = await cli(t, ['dashboard', 'revoke', mariaId]);
    assert.equal(revoked[0].state, 'revoked');
    assert.equal((await maria.get('/dashboard/')).status, 303);
    assert.equal((await joao.get('/dashboard/')).status, 200, 'the other sessions go on');
    await cli(t, ['dashboard', 'revoke', '--all']);
    assert.equal((await joao.get('/dashboard/')).status, 303);
    assert.equal((await ana.get('/dashboard/')).status, 303);
    const audit = await cli(t, ['audit', 'list', '--action', 'dashboard.session_revoked']);
    assert.equal(audit.length, 3, 'one record per session ended');
    const none = await runCli(['dashboard', 'revoke', '--json'], { dbPath: t.dbPath });
    assert.equal(none.code, 1);
    assert.equal(none.json.error.code, 'invalid_usage');
    const unknown = await runCli(['dashboard', 'revoke', '0196a1b2-0000-7000-8000-000000000000', '--json'], { dbPath: t.dbPath });
    assert.equal(unknown.json.error.code, 'not_found');
  });

  test('a session ends after 12 hours without use, and lives on while used', async () => {
    const t = await server();
    const maria = await signIn(t);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(11 * 3600_000);
      assert.equal((await maria.get('/dashboard/')).status, 200, `used again after 11 h (${i + 1})`);
    }
    t.clock.advance(12 * 3600_000);
    assert.equal((await maria.get('/dashboard/')).status, 303);
    const [session] = await cli(t, ['dashboard', 'sessions']);
    assert.equal(session.state, 'idle');
  });

  test("the live page's automatic refresh is not use: a page left open all night does not keep the session", async () => {
    const t = await server();
    const { campaign } = makeCampaign(t.ctx);
    const maria = await signIn(t);
    const live = `/dashboard/campaigns/${campaign.id}`;
    const refresh = () => dashboardRequest(t, 'GET', live, { cookie: maria.cookie, headers: { 'x-ces-live': '1' } });
    t.clock.advance(30 * 60_000);
    assert.equal((await maria.get(live)).status, 200, 'the operator opens the live page');
    const used = listSessions(t.ctx)[0].last_seen_at;
    // The page refreshes itself (every 5 s in a browser; here every 15 minutes of the clock).
    for (let minutes = 15; minutes < 12 * 60; minutes += 15) {
      t.clock.advance(15 * 60_000);
      const res = await refresh();
      assert.equal(res.status, 200, `the refresh still reads the page after ${minutes} min`);
    }
    assert.equal(listSessions(t.ctx)[0].last_seen_at, used, 'no refresh counted as use');
    t.clock.advance(15 * 60_000);
    const ended = await refresh();
    assert.equal(ended.status, 303, '12 hours after the last page the operator opened');
    assert.equal(ended.headers.get('location'), '/dashboard/signin');
    assert.equal((await maria.get(live)).status, 303, 'and it stays ended');
    const [session] = listSessions(t.ctx);
    assert.equal(session.state, 'idle');
    assert.equal(Date.parse(session.ended_at!) - Date.parse(used), 12 * 3600_000);
  });

  test('a session ends 7 days after sign-in however often it is used', async () => {
    const t = await server();
    const maria = await signIn(t);
    const signedInAt = t.clock.now();
    while (t.clock.now() + 11 * 3600_000 < signedInAt + 7 * 24 * 3600_000) {
      t.clock.advance(11 * 3600_000);
      assert.equal((await maria.get('/dashboard/')).status, 200);
    }
    t.clock.set(new Date(signedInAt + 7 * 24 * 3600_000 - 1000).toISOString());
    assert.equal((await maria.get('/dashboard/')).status, 200, 'a second before the 7 days');
    // `ces dashboard sessions` already shows it expired at the 7 days, before any request ends it.
    t.clock.advance(1000);
    assert.equal(listSessions(t.ctx)[0].state, 'expired');
    const res = await maria.get('/dashboard/');
    assert.equal(res.status, 303);
    const [session] = listSessions(t.ctx);
    assert.deepEqual([session.state, session.ended_at], ['expired', new Date(signedInAt + 7 * 24 * 3600_000).toISOString()]);
  });

  test('a new sign-in in the same browser ends the session the browser held; a refused one leaves it', async () => {
    const t = await server();
    const maria = await signIn(t, 'maria');
    const joaoLink = createSignInLink(t.ctx, { name: 'joao', ttlMinutes: 15 }, OPERATOR);
    // The browser still holds maria's cookie when it presses joao's Sign in button.
    const res = await dashboardRequest(t, 'POST', `/dashboard/signin/${joaoLink.token}`, { cookie: maria.cookie });
    assert.equal(res.status, 200, res.text);
    const joao = sessionCookieOf(res)!;
    assert.equal((await maria.get('/dashboard/')).status, 303, "maria's session ended");
    assert.equal((await dashboardRequest(t, 'GET', '/dashboard/', { cookie: joao })).status, 200);
    const byName = new Map(listSessions(t.ctx).map((s) => [s.name, s]));
    assert.equal(byName.get('maria')!.state, 'replaced');
    assert.equal(byName.get('joao')!.state, 'active');
    const [signedIn] = listAuditRecords(t.ctx, { action: 'dashboard.signed_in', limit: 1 });
    assert.equal(signedIn.actor, 'dashboard:joao');
    assert.equal(signedIn.details.replaced_session_id, byName.get('maria')!.id);
    // A used link signs nobody in, and the browser's session goes on.
    const again = await dashboardRequest(t, 'POST', `/dashboard/signin/${joaoLink.token}`, { cookie: joao });
    assert.equal(again.status, 410);
    assert.equal((await dashboardRequest(t, 'GET', '/dashboard/', { cookie: joao })).status, 200);
  });

  test('signing out ends the session, clears the cookie and is audited', async () => {
    const t = await server();
    const maria = await signIn(t);
    const res = await maria.post('/dashboard/signout');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/signin');
    assert.match(res.headers.get('set-cookie')!, /^ces_session=; HttpOnly; SameSite=Strict; Path=\/dashboard; Max-Age=0$/);
    assert.equal((await maria.get('/dashboard/')).status, 303);
    const [session] = listSessions(t.ctx);
    assert.equal(session.state, 'signed_out');
    const audit = await cli(t, ['audit', 'list', '--action', 'dashboard.signed_out']);
    assert.deepEqual(
      audit.map((r: any) => [r.actor, r.details]),
      [['dashboard:maria', { session_id: session.id }]],
    );
    assert.equal((await maria.post('/dashboard/signout')).status, 303, 'a second sign-out of the ended session');
    assert.equal((await cli(t, ['audit', 'list', '--action', 'dashboard.signed_out'])).length, 1, 'records nothing');
  });
});

describe('CSRF', () => {
  test("a POST without the CSRF token, or with another session's, is 403 and changes nothing", async () => {
    const t = await server();
    const maria = await signIn(t, 'maria');
    const joao = await signIn(t, 'joao');
    for (const form of [{}, { csrf: '' }, { csrf: joao.csrf }, { csrf: `${maria.csrf}x` }] as Array<Record<string, string>>) {
      const res = await dashboardRequest(t, 'POST', '/dashboard/signout', { cookie: maria.cookie, form });
      assert.equal(res.status, 403, JSON.stringify(form));
      assert.match(res.text, /<h1>Forbidden<\/h1>/);
      assertSecurityHeaders(res, 'the 403 page');
    }
    assert.equal((await maria.get('/dashboard/')).status, 200, 'still signed in');
    assert.notEqual(maria.csrf, joao.csrf);
    for (const path of ['/dashboard/entries/0196a1b2-0000-7000-8000-000000000000', '/dashboard/campaigns/x?mode=nope']) {
      const res = await maria.get(path);
      assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
      assertSecurityHeaders(res, `the ${res.status} page`);
    }
  });

  test('a form larger than CES_BODY_LIMIT_BYTES is 413, read no further, and changes nothing', async () => {
    const t = await server();
    const maria = await signIn(t, 'maria');
    const res = await dashboardRequest(t, 'POST', '/dashboard/signout', {
      cookie: maria.cookie,
      form: { csrf: maria.csrf, padding: 'x'.repeat(t.ctx.config.bodyLimitBytes) },
    });
    assert.equal(res.status, 413);
    assertSecurityHeaders(res, 'the 413 page');
    assert.equal((await maria.get('/dashboard/')).status, 200, 'still signed in');
  });
});

describe('pages', () => {
  test('values render as text: a campaign named <script>alert(1)</script>', async () => {
    const t = await server();
    makeCampaign(t.ctx, { name: '<script>alert(1)</script>' });
    const maria = await signIn(t);
    const res = await maria.get('/dashboard/');
    assert.equal(res.status, 200);
    assert.ok(!res.text.includes('<script>alert(1)</script>'));
    assert.ok(res.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.equal([...res.text.matchAll(/<script\b/g)].length, 1, 'one script element: the dashboard.js one');
    assert.doesNotMatch(res.text, /\sstyle=|\son[a-z]+=/i, 'no inline style or event handler');
  });

  test('values render as text: a participant named <script>alert(1)</script>, masked and shown', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const { entry_id } = await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: '<script>alert(1)</script>' } }, 0), 'xss-1');
    const maria = await signIn(t);
    for (const res of [
      await maria.get(`/dashboard/entries/${entry_id}`),
      await maria.post(`/dashboard/entries/${entry_id}/personal-data`),
    ]) {
      assert.equal(res.status, 200);
      assert.equal([...res.text.matchAll(/<script\b/g)].length, 1, 'one script element: the dashboard.js one');
      assert.ok(!res.text.includes('<script>alert'));
    }
    const shown = await maria.post(`/dashboard/entries/${entry_id}/personal-data`);
    assert.ok(shown.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the name is there, as text');
  });

  test('the CSP, frame-ancestors and no-store headers are on every page', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const { entry_id } = await submitEntry(t, w.liveKey, entryBody({}, 0), 'csp-1');
    const maria = await signIn(t);
    const c = `/dashboard/campaigns/${w.campaign.id}`;
    for (const path of ['/dashboard/', '/dashboard/signin', c, `${c}?mode=test`, `${c}/entries`, `/dashboard/entries/${entry_id}`]) {
      const res = await maria.get(path);
      assert.equal(res.status, 200, path);
      assertSecurityHeaders(res, path);
      assert.match(res.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
      assert.equal(res.headers.get('cache-control'), 'no-store', path);
      assert.match(res.headers.get('content-type')!, /^text\/html; charset=utf-8$/);
      assert.equal([...res.text.matchAll(/<h1>/g)].length, 1, `${path}: one h1`);
    }
  });
});

describe('unrouted requests under /dashboard/', () => {
  test('an unknown path is a 404 page and a wrong method a 405 page naming the allowed ones, with the security headers', async () => {
    const t = await server({ CES_PUBLIC_URL: 'https://promo.example.com.br' });
    const maria = await signIn(t);
    for (const [method, path, status, allow] of [
      ['GET', '/dashboard/nope', 404, null],
      ['GET', '/dashboard/campaigns/x/y/z', 404, null],
      ['POST', '/dashboard/nope', 404, null],
      ['HEAD', '/dashboard/nope', 404, null],
      ['PUT', '/dashboard/signin', 405, 'GET, HEAD'],
      ['GET', '/dashboard/signout', 405, 'POST'],
      ['DELETE', '/dashboard/', 405, 'GET, HEAD'],
    ] as const) {
      const what = `${method} ${path}`;
      const res = await dashboardRequest(t, method, path);
      assert.equal(res.status, status, what);
      assert.equal(res.headers.get('allow'), allow, what);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8$/, what);
      assertSecurityHeaders(res, what);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', what);
      assert.equal(res.headers.get('cache-control'), 'no-store', what);
      assert.equal(res.headers.get('strict-transport-security'), 'max-age=31536000', what);
      if (method !== 'HEAD') {
        assert.match(res.text, status === 404 ? /<h1>Not found<\/h1>/ : /<h1>Method not allowed<\/h1>/, what);
        assert.match(res.text, /How to sign in/, `${what}: without a session, the way to sign in`);
      }
    }
    const signedIn = await maria.get('/dashboard/nope');
    assert.equal(signedIn.status, 404);
    assert.match(signedIn.text, /Back to the campaigns/);
    // The API's own unknown paths stay problem+json.
    const api = await dashboardRequest(t, 'GET', '/v1/nope');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /^application\/problem\+json/);
  });
});

describe('CES_DASHBOARD=off', () => {
  test('nothing answers under /dashboard/: a 404 problem, as any unknown path', async () => {
    const t = await server({ CES_DASHBOARD: 'off' });
    const link = createSignInLink(t.ctx, { name: 'maria', ttlMinutes: 15 }, OPERATOR);
    for (const [method, path] of [
      ['GET', '/dashboard/'],
      ['GET', '/dashboard'],
      ['GET', '/dashboard/signin'],
      ['GET', `/dashboard/signin/${link.token}`],
      ['GET', '/dashboard/assets/dashboard.css'],
      ['POST', '/dashboard/signout'],
    ]) {
      const res = await dashboardRequest(t, method, path);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(JSON.parse(res.text).code, 'not_found');
    }
    const used = t.ctx.db.prepare(`SELECT used_at FROM dashboard_links`).pluck().get();
    assert.equal(used, null, 'the link was not consumed');
  });
});
