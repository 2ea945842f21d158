// Operational endpoints, outside API-key authentication: GET /openapi.json (the integrator's
// contract), GET /healthz (for load balancers and supervisors) and GET /metrics (Prometheus).
// /metrics is open, protected by its own bearer token, or absent, per CES_METRICS_TOKEN.
import { sameSecret } from '../tools/digests.ts';
import { HTTPResponse, type H3, type H3Event } from 'h3';
import { AppError } from '../kernel/errors.ts';
import { checkHealth } from '../metrics/health.ts';
import type { ServiceMetrics } from '../metrics/metrics.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import type { Service } from './service.ts';
import type { RuntimeVersions } from '../metrics/versions.ts';
import { json, problem } from './respond.ts';

const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export function registerOpsRoutes(app: H3, service: Service, metrics: ServiceMetrics, versions: RuntimeVersions): void {
  const { ctx } = service;
  let document: string | null = null;

  app.get('/openapi.json', () => {
    document ??= JSON.stringify(buildOpenApiDocument());
    return new HTTPResponse(document, {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
    });
  });

  app.get('/healthz', () => {
    const health = checkHealth(service.ctx, service.tick, service.wal, service.integrity);
    return json(health.status === 'unavailable' ? 503 : 200, { ...health, versions }, { 'cache-control': 'no-store' });
  });

  app.get('/metrics', (event) => {
    const token = ctx.config.metricsToken;
    if (token === 'off') return problem(new AppError(404, 'not_found', 'No such endpoint.'));
    if (token !== '' && !presentsToken(event, token)) {
      return problem(
        new AppError(401, 'invalid_metrics_token', 'GET /metrics requires Authorization: Bearer <CES_METRICS_TOKEN>.', undefined, {
          'www-authenticate': 'Bearer realm="metrics"',
        }),
      );
    }
    try {
      return new HTTPResponse(metrics.render(), {
        status: 200,
        headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' },
      });
    } catch (error) {
      // render() only reads counts from the database: a scrape that cannot get them fails visibly
      // (and is logged) rather than reporting zeros.
      ctx.log.error('metrics: database read failed', { error: error instanceof Error ? error.message : String(error) });
      return problem(new AppError(503, 'service_unavailable', 'The database did not answer; see GET /healthz.'));
    }
  });
}

function presentsToken(event: H3Event, token: string): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(event.req.headers.get('authorization') ?? '');
  if (!match) return false;
  return sameSecret(match[1], token);
}
