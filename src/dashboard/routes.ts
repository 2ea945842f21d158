// The dashboard's routes under /dashboard/, registered by createHttpApp unless CES_DASHBOARD=off:
// its stylesheet and script, and every page file's routes, listed in PAGES. Page files live in
// pages/, one per page, each with a register…Routes(router); what they are built from (page(),
// action(), csrfField, routeParam, seeOther, …) is kit.ts, which imports no page. Pages import
// the kit, never this file: this file imports every page, so an import back would close a circle.
import type { H3 } from 'h3';
import { DASHBOARD_CSS, DASHBOARD_JS } from './assets.ts';
import { assetResponse, type DashboardRouter, type Service } from './kit.ts';
import { BASE, CSS_PATH, JS_PATH } from './layout.ts';
import { registerCampaignRoutes } from './pages/campaign.ts';
import { registerDrawRoutes } from './pages/draw.ts';
import { registerDrawsRoutes } from './pages/draws.ts';
import { registerEntriesRoutes } from './pages/entries.ts';
import { registerEntryRoutes } from './pages/entry.ts';
import { registerOverviewRoutes } from './pages/overview.ts';
import { registerSignInRoutes } from './pages/signin.ts';
import { registerAuditRoutes } from './pages/audit.ts';
import { registerExportsRoutes } from './pages/exports.ts';
import { registerKeysRoutes } from './pages/keys.ts';
import { registerParticipantsRoutes } from './pages/participants.ts';
import { registerPrizesRoutes } from './pages/prizes.ts';
import { registerSettingsRoutes } from './pages/settings.ts';
import { registerWebhookRoutes } from './pages/webhook.ts';
import { registerWinnersRoutes } from './pages/winners.ts';
import { registerClosingRoutes } from './pages/campaign-closing.ts';

/** Every page file's registration, in nav order. Ops adds one line per page file. */
const PAGES: ReadonlyArray<(router: DashboardRouter) => void> = [
  registerSignInRoutes,
  registerOverviewRoutes,
  registerCampaignRoutes,
  registerEntriesRoutes,
  registerEntryRoutes,
  registerKeysRoutes,
  registerWebhookRoutes,
  registerPrizesRoutes,
  registerDrawsRoutes,
  registerDrawRoutes,
  registerWinnersRoutes,
  registerClosingRoutes,
  registerParticipantsRoutes,
  registerExportsRoutes,
  registerSettingsRoutes,
  registerAuditRoutes,
];

export function registerDashboardRoutes(app: H3, service: Service): void {
  const router: DashboardRouter = {
    service,
    get: (path, route) => app.get(BASE + path, route(service)),
    post: (path, route) => app.post(BASE + path, route(service)),
  };
  // The assets are public: they hold nothing but assets.ts's strings.
  app.get(CSS_PATH, () => assetResponse(service, DASHBOARD_CSS, 'text/css; charset=utf-8'));
  app.get(JS_PATH, () => assetResponse(service, DASHBOARD_JS, 'text/javascript; charset=utf-8'));
  for (const register of PAGES) register(router);
}
