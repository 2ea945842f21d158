// Sign-in and sign-out (docs/operations.md#dashboard). GET /dashboard/signin explains how to get a
// link; GET /dashboard/signin/:token shows who the link signs in and a "Sign in" button, and
// changes nothing: a mail scanner's HEAD or a chat app's link preview must not use the link up (and
// get a working session). Only the button's POST uses the link, and ends the session the browser
// held before, if any; POST /dashboard/signout ends the session (audited).
//
// The POST answers 200 with the session cookie and a page that moves on to /dashboard/ at once
// (<meta http-equiv="refresh">): a navigation of this site, which carries the SameSite=Strict
// cookie. A POST whose Origin is another site is refused: nobody can sign a browser into a
// session of someone else's link from their own page. This site is CES_PUBLIC_URL's origin, where
// browsers reach the server (a proxy in front of it may rewrite Host to the upstream's address),
// or, as without a public URL, the Host the request names.
import type { H3Event } from 'h3';
import { AppError } from '../../kernel/errors.ts';
import { html } from '../../tools/html.ts';
import { cesCommand } from '../../tools/runtime.ts';
import { BASE, layout } from '../layout.ts';
import { action, htmlResponse, publicPage, routeParam, seeOther, sessionCookie, type DashboardRouter } from '../kit.ts';
import { inspectSignInLink, signInWithLink, signOut } from '../sessions.ts';

export function registerSignInRoutes(router: DashboardRouter): void {
  router.get(
    '/signin',
    publicPage(({ session }) =>
      layout({
        title: 'Sign in',
        session,
        path: `${BASE}/signin`,
        body: html`<h1>Sign in</h1>
          ${session ? html`<p class="notice success">You are signed in as <strong>${session.name}</strong>. <a href="${BASE}/">Go to the campaigns</a>.</p>` : null}
          <p>The dashboard has no passwords. Someone with a shell on the server makes a one-time link for you:</p>
          <pre class="card"><code>${cesCommand()} dashboard link --as YOUR_NAME</code></pre>
          <p>
            Open the link in this browser within 15 minutes (or the <code>--ttl</code> given) and press its Sign in button. It works once
            and starts a session that ends when you sign out, when you sign in again, when an operator runs
            <code>${cesCommand()} dashboard revoke</code>, after 12 hours without use (a page refreshing itself is not use) and 7 days after
            sign-in in any case. Every change you make is recorded in the audit log under <code>dashboard:YOUR_NAME</code>.
          </p>`,
      }),
    ),
  );

  router.get(
    '/signin/:token',
    publicPage(({ event, service, session }) => {
      const token = routeParam(event, 'token', { caseSensitive: true });
      const link = inspectSignInLink(service.ctx, token);
      const page = layout({
        title: 'Sign in',
        session,
        path: `${BASE}/signin`,
        body: html`<h1>Sign in</h1>
          <p>This link signs you in as <strong>${link.name}</strong>. It works once, until ${link.expires_at}.</p>
          <form method="post" action="${BASE}/signin/${token}">
            <button type="submit">Sign in</button>
          </form>`,
      });
      return htmlResponse(page, 200, { 'cache-control': 'no-store' });
    }),
  );

  router.post(
    '/signin/:token',
    publicPage(({ event, service, session: current }) => {
      refuseCrossSiteOrigin(event, service.ctx.config.publicUrl);
      // The session this browser holds, if any, ends with the new sign-in: one browser, one session.
      const { session, token } = signInWithLink(service.ctx, routeParam(event, 'token', { caseSensitive: true }), current);
      const page = layout({
        title: 'Signed in',
        session,
        refreshTo: `${BASE}/`,
        body: html`<h1>Signed in</h1>
          <p>Welcome, <strong>${session.name}</strong>. <a href="${BASE}/">Continue to the campaigns</a>.</p>`,
      });
      return htmlResponse(page, 200, { 'set-cookie': sessionCookie(service, token), 'cache-control': 'no-store' });
    }),
  );

  router.post(
    '/signout',
    action(({ service, session }) => {
      signOut(service.ctx, session);
      return seeOther(`${BASE}/signin`, { 'set-cookie': sessionCookie(service, null) });
    }),
  );
}

/**
 * A sign-in POST sent by another site's page is refused: its Origin is neither the public URL's
 * origin nor the Host it was sent to. A browser sets both, so only this site's own page passes.
 */
function refuseCrossSiteOrigin(event: H3Event, publicUrl: string | null): void {
  const origin = event.req.headers.get('origin');
  if (origin === null) return;
  let sent: URL | null = null;
  try {
    sent = new URL(origin);
  } catch {
    // "null" (an opaque origin) or garbage: not this site.
  }
  const fromPublicUrl = sent !== null && publicUrl !== null && sent.origin === new URL(publicUrl).origin;
  const fromHost = sent !== null && sent.host === event.req.headers.get('host');
  if (!fromPublicUrl && !fromHost)
    throw new AppError(403, 'cross_site_sign_in', 'This sign-in did not come from this dashboard. Open the link again and press Sign in.');
}
