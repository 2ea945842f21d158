// One log line and one metrics observation per request, and the X-Request-Id every response
// carries. Installed as the H3 app's onRequest/onResponse hooks, so it sees every response,
// including 404s for unknown paths and problem+json errors. Only ids, the method, the route and
// the path are logged: never headers (Authorization), bodies (webhook secrets) or query strings.
import type { H3Event } from 'h3';
import { monotonicMs } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Caller } from '../keys/keys.ts';
import { writeInfoRecord } from '../kernel/log.ts';
import { UNMATCHED_ROUTE, type ServiceMetrics } from '../metrics/metrics.ts';
import type { TrustedProxies } from '../kernel/trusted-proxies.ts';
import { clientAddress } from './client-address.ts';

const REQUEST_ID_HEADER = 'x-request-id';
/** A client's id is echoed only when it is short and plain, so it is safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

interface RequestState {
  requestId: string;
  startedAt: number;
  /** src/http/client-address.ts: the peer, or the client a trusted proxy names. */
  clientAddress: string;
}

const STATE = Symbol('ces.request');

export function createRequestHooks(ctx: Ctx, metrics: ServiceMetrics, trusted: TrustedProxies) {
  const startRequest = (event: H3Event): RequestState => {
    const sent = event.req.headers.get(REQUEST_ID_HEADER);
    const requestId = sent !== null && SANE_REQUEST_ID.test(sent) ? sent : ctx.random.uuid();
    const state = { requestId, startedAt: monotonicMs(), clientAddress: clientAddress(event, trusted) };
    (event.context as Record<symbol, RequestState>)[STATE] = state;
    return state;
  };
  return {
    onRequest(event: H3Event): void {
      startRequest(event);
    },
    onResponse(response: Response, event: H3Event): void {
      // A request h3 refused before its onRequest hook (a malformed URL) is logged and counted too.
      const state = (event.context as Record<symbol, RequestState | undefined>)[STATE] ?? startRequest(event);
      const latencyMs = monotonicMs() - state.startedAt;
      response.headers.set(REQUEST_ID_HEADER, state.requestId);
      const route = matchedRoute(event);
      metrics.observeRequest(route, event.req.method, response.status, latencyMs / 1000);
      const caller = getCaller(event);
      const line = {
        method: event.req.method,
        route,
        path: redactPath(event.url.pathname),
        status: response.status,
        latency_ms: Math.round(latencyMs * 10) / 10,
        campaign_id: caller?.campaignId ?? null,
        client_address: state.clientAddress,
        mode: caller?.mode ?? null,
        request_id: state.requestId,
      };
      // JSON: one record with the fields; pretty: one short line a person can scan.
      if (ctx.config.logFormat === 'json') {
        if (!writeInfoRecord(ctx.log, { ...line, message: 'request' })) ctx.log.info('request', line);
      } else
        ctx.log.info(
          `${line.method} ${line.path} ${line.status} ${line.latency_ms}ms${line.campaign_id ? ` campaign=${line.campaign_id} ${line.mode}` : ''} req=${line.request_id}`,
        );
    },
  };
}

/**
 * A client that pastes a key or a webhook secret into a URL must not get it written to the log,
 * and a dashboard sign-in link's token never is, whatever the shape of the path that carries it
 * (docs/operations.md#dashboard): `//dashboard/signin/T`, `/dashboard//signin/T`,
 * `/dashboard/signin%2FT` and encodings of `signin` itself are read after percent-decoding, and
 * anything after `signin` is dropped. A link whose path lost the word (`/dashboard/T`,
 * `/dashboard/sign-in/T`, `/T`) still carries the token: any run of characters shaped like one
 * (43 or more of base64url, src/dashboard/sessions.ts) is redacted wherever it stands. Ids (UUIDs,
 * 36 characters) stay.
 */
const SECRET_SEGMENT = /(service_(?:live|test)_|whsec_)[^/]*/gi;
const SIGN_IN_WITH_MORE = /signin[^a-z0-9]*[^/\s]/i;
const TOKEN_SHAPED = /[A-Za-z0-9_-]{43,}/g;
export function redactPath(pathname: string): string {
  const decoded = decodeRepeatedly(pathname);
  if (SIGN_IN_WITH_MORE.test(decoded.replace(/\/+$/, ''))) return '/dashboard/signin/[redacted]';
  const keysRedacted = (path: string): string => path.replace(SECRET_SEGMENT, '$1[redacted]');
  // Percent-encoded, a token is not a run in the path as sent: the decoded path is logged then.
  const carriesToken = keysRedacted(decoded).search(TOKEN_SHAPED) >= 0;
  return keysRedacted(carriesToken ? decoded : pathname).replace(TOKEN_SHAPED, '[redacted]');
}

/** Percent-decoding until nothing changes (a path may be encoded twice), at most 4 times; malformed escapes stay as they are. */
function decodeRepeatedly(text: string): string {
  let out = text;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(out);
    } catch {
      next = out.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === out) break;
    out = next;
  }
  return out;
}

/** The route pattern ("/v1/entries/:entry_id"), never the raw path. */
function matchedRoute(event: H3Event): string {
  const matched = event.context.matchedRoute as { route?: string } | undefined;
  return matched?.route ?? UNMATCHED_ROUTE;
}

/** Called by the authenticating route wrapper so the request line can name the campaign. */
export function setCaller(event: H3Event, caller: Caller): void {
  (event.context as Record<string, unknown>).caller = caller;
}

function getCaller(event: H3Event): Caller | undefined {
  return (event.context as Record<string, unknown>).caller as Caller | undefined;
}

/** The client address of a request (set when it started), for per-address limits. */
export function clientAddressOf(event: H3Event): string {
  return (event.context as Record<symbol, RequestState | undefined>)[STATE]?.clientAddress ?? 'unknown';
}
