// GET and PATCH /v1/webhook: the campaign of the key's webhook configuration (SPEC: Endpoints).
import type { H3 } from 'h3';
import type { Service } from '../service.ts';
import { getWebhookConfig, parseWebhookPatch, patchWebhookConfig, toView } from '../webhooks/config.ts';
import { readOptionalJsonBody } from './body.ts';
import type { RouteWrapper } from './entries.routes.ts';
import { json } from './respond.ts';

export function registerWebhookRoutes(app: H3, service: Service, route: RouteWrapper): void {
  const { ctx } = service;

  app.get('/v1/webhook', route(async (_event, caller) => json(200, toView(getWebhookConfig(ctx, caller.campaignId)))));

  app.patch('/v1/webhook', route(async (event, caller) => {
    const patch = parseWebhookPatch(await readOptionalJsonBody(event, ctx.config.bodyLimitBytes));
    const result = patchWebhookConfig(ctx, caller.campaignId, patch);
    return result.created ? json(201, { ...result.config, hmac_secret: result.hmac_secret }) : json(200, result.config);
  }));
}
