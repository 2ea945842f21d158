// Sign-in and sign-out (CONTRACT: Dashboard). GET /dashboard/signin explains how to get a link;
// GET /dashboard/signin/:token opens one (once); POST /dashboard/signout ends the session.
//
// A good link answers 200 with the session cookie and a page that moves on to /dashboard/ at once
// (<meta http-equiv="refresh">), not a 303: the link is usually clicked in a chat or mail app, a
// navigation from another site, and browsers withhold a SameSite=Strict cookie on the redirect
// that follows such a navigation, so a 303 would land on the sign-in page. The refresh is a
// navigation of this site, which carries the cookie.
import { html } from '../../html.ts';
import { BASE, layout } from '../layout.ts';
import { action, htmlResponse, publicPage, routeParam, seeOther, sessionCookie, type DashboardRouter } from '../routes.ts';
import { signInWithLink, signOut } from '../sessions.ts';

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
          <pre class="card"><code>ces dashboard link --as YOUR_NAME</code></pre>
          <p>
            Open the link in this browser within 15 minutes (or the <code>--ttl</code> given). It works once and starts a session that ends
            when you sign out, when an operator runs <code>ces dashboard revoke</code>, or after 12 hours without use. Every change you make
            is recorded in the audit log under <code>dashboard:YOUR_NAME</code>.
          </p>`,
      }),
    ),
  );

  router.get(
    '/signin/:token',
    publicPage(({ event, service }) => {
      const { session, token } = signInWithLink(service.ctx, routeParam(event, 'token', { caseSensitive: true }));
      const page = layout({
        title: 'Signed in',
        session,
        refreshTo: `${BASE}/`,
        body: html`<h1>Signed in</h1>
          <p>Welcome, <strong>${session.name}</strong>. <a href="${BASE}/">Continue to the campaigns</a>.</p>`,
      });
      return htmlResponse(page, 200, { 'set-cookie': sessionCookie(service, token) });
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
