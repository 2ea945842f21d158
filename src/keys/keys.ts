// API keys: issued by the operator, scoped to one campaign and one mode. The secret is shown once;
// only its SHA-256 is stored. A request's campaign and mode come from its key and nothing else.
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '../tools/digests.ts';
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { nowIso, toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, notFound } from '../kernel/errors.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import { MAX_NAME_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import { findApiKeyByHash, findApiKeyById, insertApiKey, listApiKeys, setApiKeyRevokedAt, type ApiKeyRow } from './keys.repo.ts';

export type Mode = 'live' | 'test';
export const MODES: readonly Mode[] = ['live', 'test'];
const KEY_PREFIX: Record<Mode, string> = { live: 'service_live_', test: 'service_test_' };

export interface ApiKey {
  id: string;
  campaign_id: string;
  mode: Mode;
  prefix: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface IssuedKey extends ApiKey {
  /** The secret; shown only in the response that issues it. */
  key: string;
}

/** Who is calling: resolved from the Authorization header on every request. */
export interface Caller {
  keyId: string;
  campaignId: string;
  mode: Mode;
  livemode: boolean;
}

export function hashKey(key: string): Buffer {
  return sha256(key);
}

export function issueKey(ctx: Ctx, input: { campaignId: string; mode: string; label?: string | null }, actor: Actor): IssuedKey {
  const label = parseLabel(input.label);
  const mode = toMode(input.mode);
  return ctx.db
    .transaction(() => {
      const issued = insertNewKey(ctx, input.campaignId, mode, label);
      recordAudit(ctx, { actor, action: 'key.issued', campaignId: issued.campaign_id, details: { key_id: issued.id, mode } });
      return issued;
    })
    .immediate();
}

/** A new key of the campaign and mode, stored (its hash) in the caller's transaction; not audited here. */
/** A key's label as the operator typed it, trimmed; blank is none; too long or not one printable line is 422 invalid_option. */
function parseLabel(value: string | null | undefined): string | null {
  const label = value?.trim() ?? '';
  if (label === '') return null;
  const problem = operatorTextProblem(fieldName('label'), label, MAX_NAME_LENGTH);
  if (problem) throw new AppError(422, 'invalid_option', problem.message, [{ field: 'label', ...problem }]);
  return label;
}

function insertNewKey(ctx: Ctx, campaignId: string, mode: Mode, label: string | null): IssuedKey {
  getCampaign(ctx, campaignId);
  // 32 random bytes as base64url: 43 characters, 256 bits.
  const key = KEY_PREFIX[mode] + ctx.random.bytes(32).toString('base64url');
  const row = {
    id: ctx.random.uuid(),
    campaign_id: campaignId,
    mode,
    prefix: key.slice(0, KEY_PREFIX[mode].length + 6),
    key_hash: hashKey(key),
    label,
    created_at: nowIso(ctx.clock),
    revoked_at: null,
  };
  insertApiKey(ctx.db, row);
  return { ...rowToApiKey(row), key };
}

export function listKeys(ctx: Ctx, campaignId: string): ApiKey[] {
  getCampaign(ctx, campaignId);
  return listApiKeys(ctx.db, campaignId).map(rowToApiKey);
}

/** Revokes now (the key gives 401 from this instant on); audited unless it was revoked already. */
export function revokeKey(ctx: Ctx, keyId: string, actor: Actor): ApiKey {
  return ctx.db
    .transaction(() => {
      const before = findApiKeyById(ctx.db, keyId);
      if (!before) throw notFound('API key');
      const after = setRevokedAt(ctx, keyId, 0);
      if (after.revoked_at !== before.revoked_at) {
        recordAudit(ctx, {
          actor,
          action: 'key.revoked',
          campaignId: after.campaign_id,
          details: { key_id: keyId, mode: after.mode, revoked_at: after.revoked_at },
        });
      }
      return after;
    })
    .immediate();
}

/** Sets revoked_at to now + graceSeconds unless the key is revoked earlier already; in the caller's transaction. */
function setRevokedAt(ctx: Ctx, keyId: string, graceSeconds: number): ApiKey {
  setApiKeyRevokedAt(ctx.db, keyId, toIso(ctx.clock.now() + graceSeconds * 1000));
  return rowToApiKey(findApiKeyById(ctx.db, keyId)!);
}

/**
 * Issues a new key of the same campaign and mode and revokes the old one after `grace` seconds
 * (as src/input/grace.ts reads them from the operator: whole, at most 30 days).
 */
export function rotateKey(ctx: Ctx, keyId: string, grace: number, actor: Actor): { issued: IssuedKey; revoked: ApiKey } {
  return ctx.db
    .transaction(() => {
      const old = findApiKeyById(ctx.db, keyId);
      if (!old) throw notFound('API key');
      if (old.revoked_at !== null && Date.parse(old.revoked_at) <= ctx.clock.now()) {
        throw new AppError(409, 'key_revoked', 'That key is already revoked; issue a new one instead.');
      }
      const issued = insertNewKey(ctx, old.campaign_id, old.mode, old.label);
      const revoked = setRevokedAt(ctx, keyId, grace);
      recordAudit(ctx, {
        actor,
        action: 'key.rotated',
        campaignId: old.campaign_id,
        details: {
          key_id: issued.id,
          replaced_key_id: keyId,
          mode: old.mode,
          grace_seconds: grace,
          replaced_key_revoked_at: revoked.revoked_at,
        },
      });
      return { issued, revoked };
    })
    .immediate();
}

/**
 * 401 for a key that is missing, unknown, revoked, or whose campaign is gone, with the challenge
 * RFC 9110 requires of a 401 in RFC 6750's form: a request that sent no bearer credentials gets the
 * bare challenge, one that sent a key we refuse gets `error="invalid_token"`.
 */
export const INVALID_KEY = (presented = true): AppError =>
  new AppError(401, 'invalid_api_key', 'Missing or invalid API key. Send Authorization: Bearer <API_KEY>.', undefined, {
    'www-authenticate': presented ? 'Bearer realm="ces", error="invalid_token"' : 'Bearer realm="ces"',
  });

/** Resolves the caller from an Authorization header value; 401 unless it names a live key. */
export function authenticate(ctx: Ctx, authorization: string | null | undefined): Caller {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw INVALID_KEY(/^Bearer\b/i.test(authorization ?? ''));
  const presented = match[1];
  const mode: Mode | null = presented.startsWith(KEY_PREFIX.live) ? 'live' : presented.startsWith(KEY_PREFIX.test) ? 'test' : null;
  if (mode === null || presented.length > 200) throw INVALID_KEY();
  const hash = hashKey(presented);
  const row = findApiKeyByHash(ctx.db, hash);
  // The lookup is by hash, so timing reveals nothing about the key; the explicit constant-time
  // comparison keeps that true even if the lookup ever becomes a prefix or cache match.
  if (!row || !timingSafeEqual(row.key_hash, hash) || row.mode !== mode) throw INVALID_KEY();
  if (row.revoked_at !== null && Date.parse(row.revoked_at) <= ctx.clock.now()) throw INVALID_KEY();
  return { keyId: row.id, campaignId: row.campaign_id, mode: row.mode, livemode: row.mode === 'live' };
}

/**
 * `value` as a mode: live or test, in any case; anything else is 422 invalid_mode, with the
 * message also as the error of field `mode`. The one mode parser: the domain, the CLI's --mode
 * (cli/options.ts, which passes `name` so the message names its flag) and the dashboard's URLs
 * and forms all call it.
 */
export function toMode(value: string, name = 'mode'): Mode {
  const mode = MODES.find((m) => m === value.toLowerCase());
  if (mode === undefined) {
    const message = `${name} must be live or test, got "${value}"`;
    throw new AppError(422, 'invalid_mode', message, [{ field: 'mode', code: 'invalid_option', message }]);
  }
  return mode;
}

/** An optional mode as livemode 1 (live) or 0 (test); undefined (both modes) when absent. */
export function toLivemode(value: string | undefined): 0 | 1 | undefined {
  if (value === undefined) return undefined;
  return toMode(value) === 'live' ? 1 : 0;
}

function rowToApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    mode: row.mode,
    prefix: row.prefix,
    label: row.label,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}
