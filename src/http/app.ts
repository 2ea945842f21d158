// The HTTP app: routes only. Each handler is wrapped so that the caller is authenticated first and
// anything thrown becomes problem+json; unknown routes and methods are problem+json too.
import { H3, type H3Event, type HTTPResponse } from 'h3';
import { AppError } from '../errors.ts';
import { authenticate, type Caller } from '../keys/keys.ts';
import type { Service } from '../service.ts';
import { registerEntryRoutes } from './entries.routes.ts';
import { registerMechanicsRoutes } from './mechanics.routes.ts';
import { createServiceMetrics } from '../metrics/metrics.ts';
import { registerOpsRoutes } from './ops.routes.ts';
import { createRequestHooks, setCaller } from './request-log.ts';
import { registerWebhookRoutes } from './webhook.routes.ts';
import { createRateLimiter } from './rate-limit.ts';
import { problem, problemFromError } from './respond.ts';

export function createHttpApp(service: Service): H3 {
  const { ctx } = service;
  const metrics = createServiceMetrics(ctx);
  const app = new H3({
    ...createRequestHooks(ctx, metrics),
    onError: (error) => {
      const status = (error as { status?: number }).status;
      if (status === 404) return problem(new AppError(404, 'not_found', 'No such endpoint.'));
      if (status === 405) return problem(new AppError(405, 'method_not_allowed', 'Method not allowed on this endpoint.'));
      if (status === 400) return problem(new AppError(400, 'bad_request', 'Malformed request.'));
      return problemFromError(error.cause ?? error, ctx.log);
    },
  });

  const limiter = createRateLimiter(ctx.clock, ctx.config.rateLimitPerSecond, ctx.config.rateLimitBurst);
  const route = (handler: (event: H3Event, caller: Caller) => Promise<HTTPResponse>) => async (event: H3Event): Promise<HTTPResponse> => {
    try {
      const caller = authenticate(ctx, event.req.headers.get('authorization'));
      setCaller(event, caller);
      limiter.take(caller.keyId);
      return await handler(event, caller);
    } catch (error) {
      return problemFromError(error, ctx.log);
    }
  };

  registerOpsRoutes(app, service, metrics);
  registerEntryRoutes(app, service, route);
  registerMechanicsRoutes(app, service, route);
  registerWebhookRoutes(app, service, route);
  return app;
}
