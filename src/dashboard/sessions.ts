// Sign-in to the dashboard (docs/operations.md#dashboard). `ces dashboard link` makes a one-time
// link; the POST of its "Sign in" button starts a session and marks it used; a used, expired or
// unknown link starts nothing and the page says why. The link's token and the session's (the
// cookie) are 256 random bits from ctx.random, stored only as SHA-256 digests. A session ends when
// its operator signs out, when a new sign-in in the same browser replaces it, when `ces dashboard
// revoke` ends it, after 12 hours without use (the live page's automatic refresh is not use) and 7
// days after sign-in in any case. The CSRF token of a session is derived from its secret token, so
// it is never stored and differs for every session.
import { sameSecret, sha256 } from '../tools/digests.ts';
import { actorName, type Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { nowIso, toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, notFound } from '../kernel/errors.ts';
import { parseDecimal } from '../kernel/numbers.ts';
import { cesCommand } from '../tools/runtime.ts';
import {
  endSessionRow,
  findLinkByHash,
  findSessionByHash,
  findSessionById,
  insertLink,
  insertSession,
  listOpenSessionIds,
  listSessionRows,
  markLinkUsed,
  touchSession,
  type SessionRow,
} from './sessions.repo.ts';

/** A session ends after this long without use. */
const SESSION_IDLE_MS = 12 * 3600 * 1000;
/** A session ends this long after its sign-in, used or not: a stolen cookie does not live for ever. */
const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
export const DEFAULT_LINK_TTL_MINUTES = 15;
/** A link lives at most a day: it is a credential sent through chat or e-mail. */
export const MAX_LINK_TTL_MINUTES = 1440;
/** last_seen_at is written at most once a minute per session, not on every page view. */
const TOUCH_EVERY_MS = 60_000;
const TOKEN_BYTES = 32;

/** What a page handler knows of its operator. */
export interface DashboardSession {
  id: string;
  name: string;
  /** The token every form posts back (name="csrf"). */
  csrf: string;
}

interface SignInLink {
  id: string;
  name: string;
  /** The secret part of the URL; shown once, never stored. */
  token: string;
  expires_at: string;
}

export interface SessionView {
  id: string;
  name: string;
  state: 'active' | NonNullable<SessionRow['end_reason']>;
  created_at: string;
  last_seen_at: string;
  ended_at: string | null;
}

const hashToken = (token: string): Buffer => sha256(token);

const NAME_RE = /^[\p{L}\p{N}._@-][\p{L}\p{N} ._@-]{0,63}$/u;

/** The operator's name as the audit log shows it (`dashboard:<name>`): 1 to 64 letters, digits, spaces and `._@-`. */
function parseOperatorName(value: string): string {
  const name = value.trim();
  if (!NAME_RE.test(name))
    throw new AppError(
      422,
      'invalid_option',
      `${fieldName('as')} must be 1 to 64 letters, digits, spaces or ._@- (it names the operator in the audit log), got ${JSON.stringify(value)}`,
    );
  return name;
}

function parseLinkTtl(value: string | number): number {
  const n = parseDecimal(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LINK_TTL_MINUTES)
    throw new AppError(
      422,
      'invalid_option',
      `${fieldName('ttl')} must be a whole number of minutes from 1 to ${MAX_LINK_TTL_MINUTES}, got "${value}"`,
    );
  return n;
}

/** A new one-time sign-in link for `name`, valid `ttlMinutes`; audited as dashboard.link_created. */
export function createSignInLink(ctx: Ctx, input: { name: string; ttlMinutes: string | number }, actor: Actor): SignInLink {
  const name = parseOperatorName(input.name);
  const ttl = parseLinkTtl(input.ttlMinutes);
  const token = ctx.random.bytes(TOKEN_BYTES).toString('base64url');
  const now = ctx.clock.now();
  const link = { id: ctx.random.uuid(), name, token, expires_at: toIso(now + ttl * 60_000) };
  ctx.db
    .transaction(() => {
      insertLink(ctx.db, {
        id: link.id,
        token_hash: hashToken(token),
        name,
        created_by: actorName(actor),
        created_at: toIso(now),
        expires_at: link.expires_at,
        used_at: null,
        session_id: null,
      });
      recordAudit(ctx, {
        actor,
        action: 'dashboard.link_created',
        campaignId: null,
        details: { link_id: link.id, name, expires_at: link.expires_at },
      });
    })
    .immediate();
  return link;
}

/** The link a token names if it can still sign in; else the 4xx that says why (unknown, used, expired). */
function usableLink(ctx: Ctx, token: string): NonNullable<ReturnType<typeof findLinkByHash>> {
  const link = findLinkByHash(ctx.db, hashToken(token));
  if (!link)
    throw new AppError(
      404,
      'link_not_found',
      `This sign-in link is not one this server issued. Ask for a new one: ${cesCommand()} dashboard link.`,
    );
  if (link.used_at !== null)
    throw new AppError(410, 'link_used', `This sign-in link was used at ${link.used_at}; a link works once. Ask for a new one.`);
  if (Date.parse(link.expires_at) <= ctx.clock.now())
    throw new AppError(410, 'link_expired', `This sign-in link expired at ${link.expires_at}. Ask for a new one.`);
  return link;
}

/**
 * Who a link would sign in, without using it: what GET of the link shows above its "Sign in"
 * button, so a mail scanner's HEAD or a chat app's preview GET changes nothing
 * (docs/operations.md#dashboard).
 */
export function inspectSignInLink(ctx: Ctx, token: string): { name: string; expires_at: string } {
  const link = usableLink(ctx, token);
  return { name: link.name, expires_at: link.expires_at };
}

/**
 * Opens a link: a new session and its cookie token, the link marked used and the sign-in audited,
 * in one transaction. A link that is unknown (another database, a typo), used or expired is a 4xx
 * whose message says which, and changes nothing. `replacing` is the session whose cookie the
 * browser presented: it ends (reason replaced), so a browser holds one session, not a trail of
 * open ones.
 */
export function signInWithLink(
  ctx: Ctx,
  token: string,
  replacing: DashboardSession | null = null,
): { session: DashboardSession; token: string } {
  return ctx.db
    .transaction(() => {
      const link = usableLink(ctx, token);
      const now = ctx.clock.now();
      const replaced = replacing !== null && endSessionRow(ctx.db, replacing.id, toIso(now), 'replaced') ? replacing.id : null;
      const sessionToken = ctx.random.bytes(TOKEN_BYTES).toString('base64url');
      const id = ctx.random.uuid();
      const at = toIso(now);
      insertSession(ctx.db, {
        id,
        token_hash: hashToken(sessionToken),
        name: link.name,
        link_id: link.id,
        created_at: at,
        last_seen_at: at,
        ended_at: null,
        end_reason: null,
      });
      markLinkUsed(ctx.db, link.id, at, id);
      recordAudit(ctx, {
        actor: { kind: 'dashboard', name: link.name },
        action: 'dashboard.signed_in',
        campaignId: null,
        details: { session_id: id, link_id: link.id, ...(replaced ? { replaced_session_id: replaced } : {}) },
      });
      return { session: { id, name: link.name, csrf: csrfTokenOf(sessionToken) }, token: sessionToken };
    })
    .immediate();
}

/**
 * The session a cookie token names, or null: unknown (another database), ended, idle for 12 hours
 * or 7 days old (then ended now, as of when that happened, reason idle or expired). Its last use
 * is recorded at most once a minute; an `automatic` request (the live page's refresh, which a
 * browser left open sends every few seconds) is not use and records nothing.
 */
export function resolveSession(ctx: Ctx, token: string | undefined, o: { automatic?: boolean } = {}): DashboardSession | null {
  if (token === undefined || token === '' || token.length > 128) return null;
  const row = findSessionByHash(ctx.db, hashToken(token));
  if (!row || row.ended_at !== null) return null;
  const now = ctx.clock.now();
  const end = naturalEndOf(row);
  if (end.at <= now) {
    ctx.db.transaction(() => endSessionRow(ctx.db, row.id, toIso(end.at), end.reason)).immediate();
    return null;
  }
  if (!o.automatic && now - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS)
    ctx.db.transaction(() => touchSession(ctx.db, row.id, toIso(now))).immediate();
  return { id: row.id, name: row.name, csrf: csrfTokenOf(token) };
}

/** When an open session ends by itself, and why: 12 hours after its last use or 7 days after sign-in, whichever comes first. */
function naturalEndOf(row: SessionRow): { at: number; reason: 'idle' | 'expired' } {
  const idle = Date.parse(row.last_seen_at) + SESSION_IDLE_MS;
  const expired = Date.parse(row.created_at) + SESSION_LIFETIME_MS;
  return expired <= idle ? { at: expired, reason: 'expired' } : { at: idle, reason: 'idle' };
}

/** The CSRF token of the session whose secret is `token`: a digest of it, never stored. */
function csrfTokenOf(token: string): string {
  return sha256(`ces dashboard csrf\0${token}`).toString('base64url');
}

/** True when `presented` is the session's CSRF token (constant time). */
export function csrfMatches(session: DashboardSession, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string' || presented === '') return false;
  return sameSecret(presented, session.csrf);
}

/** Ends the session ("Sign out"), audited as dashboard.signed_out under the operator's name. */
export function signOut(ctx: Ctx, session: DashboardSession): void {
  ctx.db
    .transaction(() => {
      if (endSessionRow(ctx.db, session.id, nowIso(ctx.clock), 'signed_out'))
        recordAudit(ctx, {
          actor: { kind: 'dashboard', name: session.name },
          action: 'dashboard.signed_out',
          campaignId: null,
          details: { session_id: session.id },
        });
    })
    .immediate();
}

/**
 * Ends one session (by id) or every open one; each session ended is audited as
 * dashboard.session_revoked. A session that had ended already is left as it is (no record).
 */
export function revokeSessions(ctx: Ctx, target: { id: string } | { all: true }, actor: Actor): SessionView[] {
  return ctx.db
    .transaction(() => {
      const ids = 'id' in target ? [target.id] : listOpenSessionIds(ctx.db);
      const at = nowIso(ctx.clock);
      return ids.map((id) => {
        const row = findSessionById(ctx.db, id);
        if (!row) throw notFound('Dashboard session');
        if (endSessionRow(ctx.db, id, at, 'revoked'))
          recordAudit(ctx, { actor, action: 'dashboard.session_revoked', campaignId: null, details: { session_id: id, name: row.name } });
        return toSessionView(findSessionById(ctx.db, id)!, ctx.clock.now());
      });
    })
    .immediate();
}

/** Sessions, newest first; a session idle for 12 hours or 7 days old shows as idle or expired even before a request ends it. */
export function listSessions(ctx: Ctx, limit = 1000): SessionView[] {
  const now = ctx.clock.now();
  return listSessionRows(ctx.db, limit).map((row) => toSessionView(row, now));
}

function toSessionView(row: SessionRow, now: number): SessionView {
  const base = { id: row.id, name: row.name, created_at: row.created_at, last_seen_at: row.last_seen_at };
  if (row.ended_at !== null) return { ...base, state: row.end_reason ?? 'revoked', ended_at: row.ended_at };
  const end = naturalEndOf(row);
  return end.at <= now ? { ...base, state: end.reason, ended_at: toIso(end.at) } : { ...base, state: 'active', ended_at: null };
}
