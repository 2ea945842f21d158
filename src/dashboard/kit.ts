// The dashboard's kit: what every page is built from, and nothing that knows a page. Every page
// goes through page() (GET) or action() (POST; uploadAction() for a form with files), which
// resolve the session from its cookie (none: 303 to /dashboard/signin), check the CSRF token of
// every POST (403 without it), render an AppError as an HTML page with its status, and set the
// security headers on every answer (a standalone document, documentResponse, keeps its own
// stricter Content-Security-Policy); operations.md#dashboard says what an operator sees of it. A handler gets { event, service,
// session, actor } and returns Html (a 200 page) or an HTTPResponse (a redirect, a download).
// The page files (pages/) import this file and routes.ts imports them: were the kit in routes.ts,
// every page would import the file that imports it, one circle through all of them, which
// test/unit/layers.test.ts forbids.
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { HTTPResponse, type H3Event } from 'h3';
import type { Actor } from '../audit/actor.ts';
import { AppError, renameFields } from '../kernel/errors.ts';
import { toMode, type Mode } from '../keys/keys.ts';
import type { Ctx } from '../kernel/context.ts';
import type { DeliveryScheduler } from '../webhooks/scheduler.ts';
import { LIVE_REFRESH_HEADER } from './assets.ts';
import { html, type Html } from '../tools/html.ts';
import { BASE, csrfInput, layout } from './layout.ts';
import { csrfMatches, resolveSession, type DashboardSession } from './sessions.ts';
import { readUploadForm, type UploadForm } from './uploads.ts';

/**
 * What the dashboard reads of the running service (src/http/service.ts's Service has it): the
 * context, and the delivery scheduler for the webhook health it shows. Named here so that the
 * dashboard imports nothing from http/, which registers it.
 */
export interface Service {
  ctx: Ctx;
  deliveries: DeliveryScheduler;
  /** The request body as text, its size bounded while it streams (http/body.ts, handed in by the app). */
  readText(event: H3Event, limitBytes: number): Promise<string>;
  /** The request body's bytes, bounded the same way (a form with files). */
  readBytes(event: H3Event, limitBytes: number): Promise<Uint8Array>;
}

const SESSION_COOKIE = 'ces_session';
/**
 * The cookie's name when the public URL is https: a browser keeps a `__Host-` cookie only if it is
 * Secure, has Path=/ and no Domain, so no other host (a sibling subdomain) can set or overwrite it.
 */
const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

export interface DashboardRequest {
  event: H3Event;
  service: Service;
  session: DashboardSession;
  /** `dashboard:<name>` in the audit log. */
  actor: Actor;
}

export interface ActionRequest extends DashboardRequest {
  /** The POSTed form (application/x-www-form-urlencoded), its csrf field already checked. */
  form: URLSearchParams;
}

/** A POSTed multipart/form-data form: its text fields (the csrf field already checked) and its files. */
interface UploadRequest extends ActionRequest, UploadForm {}

export type Answer = Html | HTTPResponse;
type PageHandler = (request: DashboardRequest) => Answer | Promise<Answer>;
type ActionHandler = (request: ActionRequest) => Answer | Promise<Answer>;
type UploadHandler = (request: UploadRequest) => Answer | Promise<Answer>;
/** What page() and action() build: given the service, the h3 handler of the route. */
type DashboardRoute = (service: Service) => (event: H3Event) => Promise<HTTPResponse>;

export interface DashboardRouter {
  service: Service;
  /** A GET route at /dashboard + path. */
  get(path: string, route: DashboardRoute): void;
  /** A POST route at /dashboard + path. */
  post(path: string, route: DashboardRoute): void;
}

/** A GET page that needs a session. */
export function page(handler: PageHandler): DashboardRoute {
  return (service) => (event) =>
    answer(service, event, async () => {
      const session = sessionOf(service, event);
      if (!session) return seeOther(`${BASE}/signin`);
      return { session, answer: await handler({ event, service, session, actor: dashboardActor(session) }) };
    });
}

/** A POST that changes something: needs a session and its CSRF token (403 page otherwise). */
export function action(handler: ActionHandler): DashboardRoute {
  return (service) => (event) =>
    answer(service, event, async () => {
      const session = sessionOf(service, event);
      if (!session) return seeOther(`${BASE}/signin`);
      const form = new URLSearchParams(await service.readText(event, service.ctx.config.bodyLimitBytes));
      checkCsrf(session, form);
      return { session, answer: await handler({ event, service, session, actor: dashboardActor(session), form }) };
    });
}

/**
 * A POST of a form with files (multipart/form-data): action()'s session and CSRF checks, over a
 * body of at most `filesBytes` more than any other form may send (CES_BODY_LIMIT_BYTES, for its
 * fields); past that a 413 page saying `tooLarge`, before any of it is parsed (uploads.ts).
 */
export function uploadAction(limits: { filesBytes: number; tooLarge: string }, handler: UploadHandler): DashboardRoute {
  return (service) => (event) =>
    answer(service, event, async () => {
      const session = sessionOf(service, event);
      if (!session) return seeOther(`${BASE}/signin`);
      const upload = await readUploadForm(
        () => service.readBytes(event, limits.filesBytes + service.ctx.config.bodyLimitBytes),
        event.req.headers.get('content-type'),
        limits.tooLarge,
      );
      checkCsrf(session, upload.form);
      return { session, answer: await handler({ event, service, session, actor: dashboardActor(session), ...upload }) };
    });
}

function checkCsrf(session: DashboardSession, form: URLSearchParams): void {
  if (!csrfMatches(session, form.get('csrf')))
    throw new AppError(
      403,
      'invalid_csrf_token',
      'This form has expired or did not come from this dashboard. Reload the page and try again.',
    );
}

/** A page shown with or without a session (sign-in). */
export function publicPage(
  handler: (request: { event: H3Event; service: Service; session: DashboardSession | null }) => Answer | Promise<Answer>,
): DashboardRoute {
  return (service) => (event) =>
    answer(service, event, async () => {
      const session = sessionOf(service, event);
      return { session, answer: await handler({ event, service, session }) };
    });
}

/** True for /dashboard and every path under /dashboard/: its 404 and 405 are dashboard pages, not problem+json. */
export function isDashboardPath(pathname: string): boolean {
  return pathname === BASE || pathname.startsWith(`${BASE}/`);
}

/**
 * The answer to a request under /dashboard/ that no route takes (the app's 404, or 405 with its
 * Allow header): an HTML page with the dashboard's security headers, like every dashboard answer.
 */
export function unroutedAnswer(service: Service, event: H3Event, error: AppError): Promise<HTTPResponse> {
  return answer(service, event, () => Promise.reject(error));
}

/** The hidden input (name="csrf") every form of the dashboard includes. */
export function csrfField(session: DashboardSession): Html {
  return csrfInput(session);
}

const dashboardActor = (session: DashboardSession): Actor => ({ kind: 'dashboard', name: session.name });

/** 303 See Other: where a form's POST sends the browser to see the result. */
export function seeOther(location: string, headers: Record<string, string> = {}): HTTPResponse {
  return new HTTPResponse(null, { status: 303, statusText: STATUS_CODES[303], headers: { location, ...headers } });
}

export function htmlResponse(body: Html, status = 200, headers: Record<string, string> = {}): HTTPResponse {
  return new HTTPResponse(body.value, {
    status,
    statusText: STATUS_CODES[status],
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  });
}

/**
 * A complete HTML document that is not a dashboard page (the printable apuração record): no
 * dashboard chrome, and a policy of its own that allows its inline <style> elements by their
 * SHA-256 and nothing else (no script, no form, no request to anywhere). Shown, or with
 * `filename` a file to save under that name.
 */
export function documentResponse(document: string, filename?: string): HTTPResponse {
  const styles = [...document.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  const policy = `default-src 'none'; style-src ${styles.length > 0 ? styles.join(' ') : "'none'"}; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;
  return new HTTPResponse(document, {
    status: 200,
    statusText: STATUS_CODES[200],
    headers: {
      'content-type': 'text/html; charset=utf-8',
      ...(filename === undefined ? {} : { 'content-disposition': savedAs(filename) }),
      'content-security-policy': policy,
    },
  });
}

/**
 * A file to save rather than a page to show (a record, an export, a list), under `filename`: a
 * name the dashboard makes of ids and plain words, so it goes in the header as it is. A winner's
 * file keeps the name it was uploaded with, in any script, and words its header itself
 * (pages/winner-files.ts).
 */
export function download(body: BodyInit, contentType: string, filename: string, headers: Record<string, string> = {}): HTTPResponse {
  return new HTTPResponse(body, {
    status: 200,
    headers: { 'content-type': contentType, 'content-disposition': savedAs(filename), ...headers },
  });
}

const savedAs = (filename: string): string => `attachment; filename="${filename}"`;

/** ?mode=live|test of a campaign's pages, in any case; live when absent; anything else 422 invalid_mode. */
export function queryMode(event: H3Event): Mode {
  return toMode(event.url.searchParams.get('mode') ?? 'live');
}

/** A route parameter: a campaign or entry id, in lower case as uuids are stored, unless caseSensitive (a token). */
export function routeParam(event: H3Event, name: string, options: { caseSensitive?: boolean } = {}): string {
  const value = (event.context.params as Record<string, string> | undefined)?.[name] ?? '';
  try {
    const decoded = decodeURIComponent(value);
    return options.caseSensitive ? decoded : decoded.toLowerCase();
  } catch {
    throw new AppError(400, 'bad_request', 'Malformed URL.');
  }
}

/**
 * The Set-Cookie of a session (or its removal), HttpOnly and SameSite=Strict. With an https public
 * URL: `__Host-ces_session`, Secure, Path=/ (what the prefix demands); else (plain http, a local or
 * loopback server): `ces_session`, Path=/dashboard.
 */
export function sessionCookie(service: Service, token: string | null): string {
  const https = isHttps(service);
  const value = token === null ? '; Max-Age=0' : '';
  return `${sessionCookieName(service)}=${token ?? ''}; HttpOnly; SameSite=Strict; Path=${https ? '/' : BASE}${https ? '; Secure' : ''}${value}`;
}

function sessionCookieName(service: Service): string {
  return isHttps(service) ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

const isHttps = (service: Service): boolean => service.ctx.config.publicUrl?.startsWith('https:') ?? false;

/** The session of the request's cookie; the live page's automatic refresh does not count as use. */
function sessionOf(service: Service, event: H3Event): DashboardSession | null {
  return resolveSession(service.ctx, cookieValue(event.req.headers.get('cookie'), sessionCookieName(service)), {
    automatic: event.req.headers.get(LIVE_REFRESH_HEADER) === '1',
  });
}

function cookieValue(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

type Resolved = HTTPResponse | { session: DashboardSession | null; answer: Answer };

/** Runs a handler and turns what it gives (or throws) into the answer, with the security headers. */
async function answer(service: Service, event: H3Event, run: () => Promise<Resolved>): Promise<HTTPResponse> {
  let response: HTTPResponse;
  let session: DashboardSession | null = null;
  try {
    const resolved = await run();
    if (resolved instanceof HTTPResponse) response = resolved;
    else {
      session = resolved.session;
      response = resolved.answer instanceof HTTPResponse ? resolved.answer : htmlResponse(resolved.answer);
    }
  } catch (error) {
    response = errorPage(service, error, session ?? safeSession(service, event));
  }
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    // Only documentResponse sets a policy of its own, stricter than the pages': it stays.
    if (name === 'content-security-policy' && response.headers.has(name)) continue;
    response.headers.set(name, value);
  }
  if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
  setStrictTransportSecurity(service, response);
  return response;
}

/**
 * With an https public URL, every dashboard answer tells the browser to use https only for a year
 * (operations.md#dashboard), so a session cookie is never offered over a downgraded connection.
 */
function setStrictTransportSecurity(service: Service, response: HTTPResponse): void {
  if (isHttps(service)) response.headers.set('strict-transport-security', HSTS);
}

/** A year; the API's answers carry the same (src/http/app.ts). */
export const HSTS = 'max-age=31536000';

function safeSession(service: Service, event: H3Event): DashboardSession | null {
  try {
    return sessionOf(service, event);
  } catch {
    return null;
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Too large',
  422: 'Cannot do that',
  429: 'Too many requests',
  503: 'Unavailable',
};

/** An AppError as a page with its status (4xx stays 4xx); anything else is logged and shown as 500. */
function errorPage(service: Service, error: unknown, session: DashboardSession | null): HTTPResponse {
  let status = 500;
  let message = 'An unexpected error occurred. It has been logged.';
  if (error instanceof AppError) {
    status = error.status;
    // A page has no form here to take labels from: a field is named as the domain names it.
    message = renameFields(error.message, (field) => field);
  } else if (['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR'].includes((error as { code?: string })?.code ?? '')) {
    status = 503;
    message = 'The database is busy or unavailable; try again in a moment.';
  } else {
    service.ctx.log.error(error);
  }
  const title = TITLES[status] ?? 'Error';
  const body = html`<h1>${title}</h1>
    <p class="notice error">${message}</p>
    <p><a href="${session ? `${BASE}/` : `${BASE}/signin`}">${session ? 'Back to the campaigns' : 'How to sign in'}</a></p>`;
  // An error's own headers (a 405's Allow) go with it.
  return htmlResponse(layout({ title, session, body }), status, error instanceof AppError ? error.headers : {});
}

/** A public asset (the stylesheet, the script): the security headers, and cached for an hour. */
export function assetResponse(service: Service, body: string, contentType: string): HTTPResponse {
  const response = new HTTPResponse(body, {
    status: 200,
    headers: { ...SECURITY_HEADERS, 'content-type': contentType, 'cache-control': 'public, max-age=3600' },
  });
  setStrictTransportSecurity(service, response);
  return response;
}
