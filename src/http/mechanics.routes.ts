// Mechanics endpoints: manual lucky numbers, the prize list, instant-prize revoke and reassign.
// Thin handlers over mechanics/; every write is one synchronous transaction inside the call.
import type { H3 } from 'h3';
import { nowIso } from '../kernel/clock.ts';
import { reassignInstantPrize, revokeInstantPrize } from '../mechanics/instant-prize.ts';
import { submitManualLuckyNumbers } from '../mechanics/manual-lucky-numbers.ts';
import { rowToPrize } from '../mechanics/prizes.ts';
import { listPrizes } from '../mechanics/prizes.repo.ts';
import type { Service } from './service.ts';
import { readJsonBody, readOptionalJsonBody, requireJsonContentType } from './body.ts';
import { entryIdParam, type RouteWrapper } from './entries.routes.ts';
import { json } from './respond.ts';

export function registerMechanicsRoutes(app: H3, service: Service, route: RouteWrapper): void {
  const { ctx } = service;
  const limit = ctx.config.bodyLimitBytes;

  app.post(
    '/v1/entries/:entry_id/lucky-numbers',
    route(async (event, caller) => {
      requireJsonContentType(event);
      const body = await readJsonBody(event, limit);
      const result = submitManualLuckyNumbers(ctx, caller, entryIdParam(event), body, nowIso(ctx.clock));
      return json(201, result);
    }),
  );

  app.get(
    '/v1/prizes',
    route(async (_event, caller) => {
      return json(200, listPrizes(ctx.db, caller.campaignId, caller.livemode ? 1 : 0).map(rowToPrize));
    }),
  );

  // The revoke body is optional ({reason?}): an empty body is {}.
  app.post(
    '/v1/entries/:entry_id/instant-prize/revoke',
    route(async (event, caller) => {
      const body = await readOptionalJsonBody(event, limit);
      return json(200, revokeInstantPrize(ctx, caller, entryIdParam(event), body, nowIso(ctx.clock)));
    }),
  );

  app.post(
    '/v1/entries/:entry_id/instant-prize/reassign',
    route(async (event, caller) => {
      requireJsonContentType(event);
      const body = await readJsonBody(event, limit);
      return json(200, reassignInstantPrize(ctx, caller, entryIdParam(event), body, nowIso(ctx.clock)));
    }),
  );
}
