// GET and PATCH /v1/webhook: the campaign of the key's webhook configuration (docs/api.md#webhook-configuration); GET
// /v1/events, the events it sends (docs/api.md#listing-events-get-v1events).
// GET is open to every key of the campaign; PATCH to the keys its webhook_api allows (403
// webhook_config_locked otherwise, before the body is read).
import type { H3 } from 'h3';
import { findCampaignByIdCached } from '../campaigns/campaigns.repo.ts';
import { INVALID_KEY } from '../keys/keys.ts';
import type { Service } from './service.ts';
import {
  getWebhookConfig,
  parseWebhookPatch,
  patchWebhookConfigWithKey,
  requireWebhookApiAccess,
  toView,
} from '../webhooks/webhook-config.ts';
import { listEvents } from '../webhooks/events-list.ts';
import { readOptionalJsonBody } from './body.ts';
import type { RouteWrapper } from './entries.routes.ts';
import { json } from './respond.ts';

export function registerWebhookRoutes(app: H3, service: Service, route: RouteWrapper): void {
  const { ctx } = service;

  app.get(
    '/v1/webhook',
    route(async (_event, caller) => json(200, toView(getWebhookConfig(ctx, caller.campaignId)))),
  );

  app.get(
    '/v1/events',
    route(async (event, caller) => json(200, listEvents(ctx, caller, event.url.searchParams))),
  );

  app.patch(
    '/v1/webhook',
    route(async (event, caller) => {
      const campaign = findCampaignByIdCached(ctx.db, caller.campaignId);
      if (!campaign) throw INVALID_KEY();
      requireWebhookApiAccess(campaign, caller);
      const patch = parseWebhookPatch(await readOptionalJsonBody(event, ctx.config.bodyLimitBytes));
      const result = patchWebhookConfigWithKey(ctx, caller, patch);
      return result.created ? json(201, { ...result.config, hmac_secret: result.hmac_secret }) : json(200, result.config);
    }),
  );
}
