// The page shell every dashboard page shares: doctype, charset, title, the one stylesheet and the
// one script, the nav to every page (the campaign's pages once a campaign is open), the signed-in
// operator and the sign-out button, then the page's own content with its single <h1>.
import type { Mode } from '../keys/keys.ts';
import { html, type Html } from '../tools/html.ts';
import type { DashboardSession } from './sessions.ts';

export const BASE = '/dashboard';
export const CSS_PATH = `${BASE}/assets/dashboard.css`;
export const JS_PATH = `${BASE}/assets/dashboard.js`;

export interface CampaignContext {
  id: string;
  name: string;
  mode?: Mode;
}

interface LayoutOptions {
  title: string;
  /** Null on the pages shown without a session (sign-in, a link that does not work). */
  session: DashboardSession | null;
  /** The page's path (no query), marked aria-current in the nav. */
  path?: string;
  campaign?: CampaignContext;
  /** Move on to this same-site path at once (<meta http-equiv="refresh">); sign-in only. */
  refreshTo?: string;
  body: Html;
}

/** Pages outside any campaign. */
const MAIN_NAV: ReadonlyArray<{ label: string; path: string }> = [
  { label: 'Campaigns', path: `${BASE}/` },
  { label: 'New campaign', path: `${BASE}/campaigns/new` },
  { label: 'Audit log', path: `${BASE}/audit` },
];

/** A campaign's pages, relative to /dashboard/campaigns/:id. */
const CAMPAIGN_NAV: ReadonlyArray<{ label: string; suffix: string; perMode: boolean }> = [
  { label: 'Live', suffix: '', perMode: true },
  { label: 'Entries', suffix: '/entries', perMode: true },
  { label: 'Keys', suffix: '/keys', perMode: false },
  { label: 'Webhook', suffix: '/webhook', perMode: false },
  { label: 'Prizes and windows', suffix: '/prizes', perMode: true },
  { label: 'Draws', suffix: '/draws', perMode: true },
  { label: 'Winners', suffix: '/winners', perMode: true },
  { label: 'Participants', suffix: '/participants', perMode: true },
  { label: 'Exports', suffix: '/exports', perMode: true },
  { label: 'Settings', suffix: '/settings', perMode: false },
];

export const campaignPath = (id: string, suffix = ''): string => `${BASE}/campaigns/${encodeURIComponent(id)}${suffix}`;

export function layout(o: LayoutOptions): Html {
  const current = (path: string): Html | null => (path === o.path ? html` aria-current="page"` : null);
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${o.refreshTo ? html`<meta http-equiv="refresh" content="0; url=${o.refreshTo}" /> ` : null}
        <title>${o.title} · ces dashboard</title>
        <link rel="stylesheet" href="${CSS_PATH}" />
        <script src="${JS_PATH}" defer></script>
      </head>
      <body>
        <header class="top">
          <a class="brand" href="${BASE}/">ces dashboard</a>
          ${
            o.session
              ? html`<nav aria-label="Main">
                    <ul>
                      ${MAIN_NAV.map((item) => html`<li><a href="${item.path}" ${current(item.path)}>${item.label}</a></li>`)}
                    </ul>
                  </nav>
                  <div class="who">
                    <span>Signed in as <strong>${o.session.name}</strong></span>
                    <form class="inline" method="post" action="${BASE}/signout">
                      ${csrfInput(o.session)}<button type="submit">Sign out</button>
                    </form>
                  </div>`
              : null
          }
        </header>
        <main>${o.session && o.campaign ? campaignNav(o.campaign, o.path) : null} ${o.body}</main>
      </body>
    </html> `;
}

function campaignNav(campaign: CampaignContext, path: string | undefined): Html {
  const query = campaign.mode === 'test' ? '?mode=test' : '';
  return html`<nav class="campaign" aria-label="Campaign">
    <p class="muted">
      Campaign <strong>${campaign.name}</strong>${campaign.mode ? html` · <span class="badge">${campaign.mode}</span>` : null}
    </p>
    <ul>
      ${CAMPAIGN_NAV.map((item) => {
        const target = campaignPath(campaign.id, item.suffix);
        return html`<li>
          <a href="${target}${item.perMode ? query : ''}" ${target === path ? html` aria-current="page"` : null}>${item.label}</a>
        </li>`;
      })}
    </ul>
  </nav>`;
}

/** The hidden CSRF input of every form (kit.ts exports it as csrfField). */
export function csrfInput(session: DashboardSession): Html {
  return html`<input type="hidden" name="csrf" value="${session.csrf}" />`;
}
