// The HTTP app: routes only. Each handler is wrapped so that the caller is authenticated first and
// anything thrown becomes problem+json; unknown routes and methods are problem+json too.
import { H3, type H3Event, type HTTPResponse } from 'h3';
import { AppError } from '../kernel/errors.ts';
import { authenticate, type Caller } from '../keys/keys.ts';
import type { Service } from './service.ts';
import { registerEntryRoutes } from './entries.routes.ts';
import { registerMechanicsRoutes } from './mechanics.routes.ts';
import { createServiceMetrics } from '../metrics/metrics.ts';
import { registerOpsRoutes } from './ops.routes.ts';
import { clientAddressOf, createRequestHooks, setCaller } from './request-log.ts';
import { registerWebhookRoutes } from './webhook.routes.ts';
import { createRateLimiter } from './rate-limit.ts';
import { parseTrustedProxies } from '../kernel/trusted-proxies.ts';
import { problem, problemFromError } from './respond.ts';
import { HSTS, isDashboardPath, unroutedAnswer } from '../dashboard/kit.ts';
import { registerDashboardRoutes } from '../dashboard/routes.ts';
import { readBodyBytes, readTextBody } from './body.ts';
import { runtimeVersions } from '../metrics/versions.ts';

/**
 * Failed authentications per client address: CES_AUTH_FAILURE_LIMIT (20) at once, refilled over
 * this many seconds (one every 2 s at the default); past that a missing or wrong key gets 429
 * auth_rate_limited instead of 401. A valid key from that address is served all the same
 * (docs/api.md#entry-submission): one terminal with a revoked key behind a shop's NAT must not lock
 * out every other terminal there.
 */
const AUTH_FAILURE_REFILL_S = 40;

export function createHttpApp(service: Service): H3 {
  const { ctx } = service;
  // Once per server start: none of it changes while the process runs, and asking SQLite opens a
  // database, which a scrape or a health check every few seconds need not do.
  const versions = runtimeVersions();
  const metrics = createServiceMetrics(ctx, versions, service.deliveries, service.wal);
  const trusted = parseTrustedProxies(ctx.config.trustedProxies);
  const dashboard = { ...service, readText: readTextBody, readBytes: readBodyBytes };
  const requestHooks = createRequestHooks(ctx, metrics, trusted);
  const https = ctx.config.publicUrl?.startsWith('https:') ?? false;
  const app = new H3({
    onRequest: requestHooks.onRequest,
    onResponse(response, event) {
      setSecurityHeaders(response, https);
      requestHooks.onResponse(response, event);
    },
    onError: (error, event) => {
      const status = (error as { status?: number }).status;
      // Under /dashboard/ a browser is the client: an unrouted path is a page with the dashboard's
      // security headers, not problem+json.
      const answer =
        ctx.config.dashboard && isDashboardPath(event.url.pathname)
          ? (e: AppError) => unroutedAnswer(dashboard, event, e)
          : (e: AppError) => problem(e);
      if (status === 404) {
        // h3 answers a path it serves with another method as 404 too; the client is told which.
        const allowed = allowedMethods(app, event.url.pathname);
        if (allowed.length === 0) return answer(new AppError(404, 'not_found', 'No such endpoint.'));
        return answer(
          new AppError(
            405,
            'method_not_allowed',
            `${event.req.method} is not served on this endpoint; it takes ${allowed.join(', ')}.`,
            undefined,
            { allow: allowed.join(', ') },
          ),
        );
      }
      if (status === 405) return answer(new AppError(405, 'method_not_allowed', 'Method not allowed on this endpoint.'));
      if (status === 400) return answer(new AppError(400, 'bad_request', 'Malformed request.'));
      return problemFromError(error.cause ?? error, ctx.log);
    },
  });

  const limiter = createRateLimiter(ctx.clock, ctx.config.rateLimitPerSecond, ctx.config.rateLimitBurst);
  const failedAuth = createRateLimiter(
    ctx.clock,
    ctx.config.authFailureLimit / AUTH_FAILURE_REFILL_S,
    ctx.config.authFailureLimit,
    'this address after failed authentications',
    'auth_rate_limited',
  );
  const route =
    (handler: (event: H3Event, caller: Caller) => Promise<HTTPResponse>) =>
    async (event: H3Event): Promise<HTTPResponse> => {
      try {
        let caller: Caller;
        try {
          caller = authenticate(ctx, event.req.headers.get('authorization'));
        } catch (error) {
          failedAuth.take(clientAddressOf(event));
          throw error;
        }
        setCaller(event, caller);
        limiter.take(caller.keyId);
        return await handler(event, caller);
      } catch (error) {
        return problemFromError(error, ctx.log);
      }
    };

  registerOpsRoutes(app, service, metrics, versions);
  registerEntryRoutes(app, service, route);
  registerMechanicsRoutes(app, service, route);
  registerWebhookRoutes(app, service, route);
  // CES_DASHBOARD=off: nothing is registered, so /dashboard/… is a 404 problem like any unknown path.
  if (ctx.config.dashboard) registerDashboardRoutes(app, dashboard);
  return app;
}

/**
 * Every answer, errors included (docs/api.md#api-overview): an API answer holds a participant's data or
 * a key's campaign, so no cache keeps it (an answer that says otherwise, /openapi.json's no-cache,
 * keeps its own), no browser sniffs a JSON body into a page, and with an https public URL the
 * client is told to use https only, as the dashboard's answers tell it.
 */
function setSecurityHeaders(response: Response, https: boolean): void {
  response.headers.set('x-content-type-options', 'nosniff');
  if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
  if (https) response.headers.set('strict-transport-security', HSTS);
}

/** The methods the app serves on `pathname` (GET implies HEAD, which h3 answers with the GET route). */
function allowedMethods(app: H3, pathname: string): string[] {
  const methods = new Set<string>();
  for (const route of app['~routes']) {
    // A route for every method (h3's `all`, stored without one) is never a reason for 405.
    if (route.method && route.route !== undefined && routePattern(route.route).test(pathname)) methods.add(route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

const patterns = new Map<string, RegExp>();
/** "/v1/entries/:entry_id" as a regular expression: a parameter is one non-empty segment. */
function routePattern(route: string): RegExp {
  let pattern = patterns.get(route);
  if (!pattern) {
    const source = route
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    pattern = new RegExp(`^${source}/?$`);
    patterns.set(route, pattern);
  }
  return pattern;
}
