// Driving the dashboard without a browser (through the test server's fetch, in process unless it has a socket): GETs and form POSTs that do not follow
// redirects (the tests look at each 303), a signed-in operator made through the real sign-in link,
// and the CSRF token read from a page's form.
import assert from 'node:assert/strict';
import { createSignInLink } from '../../src/dashboard/sessions.ts';
import { OPERATOR, type TestServer } from './harness.ts';

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One request to the test server (in process or over its socket), redirects not followed; `cookie`
 * is sent as the session cookie, named `cookieName` (default ces_session; __Host-ces_session when
 * the server's public URL is https).
 */
export async function dashboardRequest(
  t: Pick<TestServer, 'fetch'>,
  method: string,
  path: string,
  o: { cookie?: string | null; cookieName?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<PageResponse> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.cookie) headers.cookie = `${o.cookieName ?? 'ces_session'}=${o.cookie}`;
  let body: string | undefined;
  if (o.form) {
    body = new URLSearchParams(o.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await t.fetch(path, { method, headers, body, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export interface Operator {
  name: string;
  /** The session cookie's value. */
  cookie: string;
  /** The session cookie's name: ces_session, or __Host-ces_session with an https public URL. */
  cookieName: string;
  csrf: string;
  get(path: string): Promise<PageResponse>;
  post(path: string, form?: Record<string, string>): Promise<PageResponse>;
}

/** The session cookie's value in a Set-Cookie header (ces_session or __Host-ces_session), or null. */
export function sessionCookieOf(res: PageResponse): string | null {
  const match = /(?:^|,\s*)(?:__Host-)?ces_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '');
  return match ? match[1] : null;
}

/** The value of the first form's hidden csrf input. */
export function csrfOf(pageHtml: string): string {
  const match = /<input type="hidden" name="csrf" value="([^"]+)"\s*\/?>/.exec(pageHtml);
  assert.ok(match, 'the page has a form with its csrf field');
  return match[1];
}

/**
 * Opens a sign-in link (its path) as a person does: GET shows the "Sign in" button and changes
 * nothing; its POST signs in. Returns the signed-in operator.
 */
export async function openLink(t: Pick<TestServer, 'fetch'>, linkPath: string, name: string): Promise<Operator> {
  const shown = await dashboardRequest(t, 'GET', linkPath);
  assert.equal(shown.status, 200, shown.text);
  assert.equal(sessionCookieOf(shown), null, 'opening the link starts no session');
  assert.match(shown.text, /<button type="submit">Sign in<\/button>/);
  const res = await dashboardRequest(t, 'POST', linkPath);
  assert.equal(res.status, 200, res.text);
  const cookie = sessionCookieOf(res);
  assert.ok(cookie, 'the link sets the session cookie');
  const cookieName = /^((?:__Host-)?ces_session)=/.exec(res.headers.get('set-cookie')!)![1];
  const csrf = csrfOf(res.text);
  return {
    name,
    cookie,
    cookieName,
    csrf,
    get: (path) => dashboardRequest(t, 'GET', path, { cookie, cookieName }),
    post: (path, form = {}) => dashboardRequest(t, 'POST', path, { cookie, cookieName, form: { csrf, ...form } }),
  };
}

/** A signed-in operator: a link made through the domain function (the test server's clock), then opened. */
export async function signIn(t: TestServer, name = 'maria'): Promise<Operator> {
  const link = createSignInLink(t.ctx, { name, ttlMinutes: 15 }, OPERATOR);
  return openLink(t, `/dashboard/signin/${link.token}`, name);
}

/** The text of an HTML fragment: tags dropped, entities decoded, white space collapsed. */
export function textOf(fragment: string): string {
  return fragment
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every table row of a page as its cells' text (th and td alike), in page order. */
export function tableRows(page: string): string[][] {
  return [...page.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => textOf(c[1])),
  );
}

/** The first table row whose first cell is `first`. */
export function rowStartingWith(page: string, first: string): string[] {
  const row = tableRows(page).find((r) => r[0] === first);
  assert.ok(row, `a row starting with ${JSON.stringify(first)} in ${JSON.stringify(tableRows(page))}`);
  return row;
}

/** The value of a <dt>label</dt><dd>value</dd> figure of a page. */
export function figureOf(page: string, label: string): string {
  const match = new RegExp(`<dt>${label}</dt>\\s*<dd>([\\s\\S]*?)</dd>`).exec(page);
  assert.ok(match, `a figure "${label}"`);
  return textOf(match[1]);
}
