// Where browsers reach `ces serve` (docs/operations.md#dashboard), the base of every sign-in link.
// The server records it when it starts listening, because CES_PUBLIC_URL usually lives only in the
// server's systemd unit: `ces dashboard link` run from an operator's shell would otherwise print
// http://127.0.0.1:3000. The CLI's own CES_PUBLIC_URL still wins (an operator who sets it means it).
import type { Config } from '../kernel/config.ts';
import type { Ctx } from '../kernel/context.ts';
import { nowIso } from '../kernel/clock.ts';
import { findPublicUrl, upsertPublicUrl } from './public-url.repo.ts';

/**
 * http://HOST:PORT of a listening address: a server on every interface (0.0.0.0 or ::) is reached
 * here on loopback; an IPv6 address is bracketed.
 */
function listenUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** `ces serve`, once listening on `port`: records CES_PUBLIC_URL, else http://HOST:PORT, for the CLI. */
export function recordPublicUrl(ctx: Pick<Ctx, 'db' | 'clock' | 'config'>, port: number): string {
  const url = ctx.config.publicUrl ?? listenUrl(ctx.config.host, port);
  ctx.db.transaction(() => upsertPublicUrl(ctx.db, url, nowIso(ctx.clock))).immediate();
  return url;
}

/**
 * The base of a sign-in link made by the CLI: its own CES_PUBLIC_URL, else the URL the last
 * `ces serve` of this database recorded, else http://HOST:PORT of the CLI's serve settings.
 */
export function linkBaseUrl(ctx: Pick<Ctx, 'db'> & { config: Readonly<Config> }): string {
  return ctx.config.publicUrl ?? findPublicUrl(ctx.db) ?? listenUrl(ctx.config.host, ctx.config.port);
}
