// The campaign's webhook configuration (docs/api.md#webhook-configuration): one
// per campaign, shared by live and test mode. The HMAC secret is generated here, shown once in the
// response that creates the configuration, and afterwards only replaced (rotate-secret). Which API
// keys may change it is the campaign's `webhook_api` (any, live, none:
// docs/operations.md#webhook-configuration-operator-side); the operator always may (`ces webhook
// set`). Every change is audited in its transaction.
import { unknownFieldErrors } from '../validation/unknown-fields.ts';
import { apiKeyActor, type Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { findCampaignById } from '../campaigns/campaigns.repo.ts';
import { getCampaign, isHttpsUrl, type Campaign } from '../campaigns/campaigns.ts';
import { nowIso, toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, notFound, validationFailed } from '../kernel/errors.ts';
import type { Caller } from '../keys/keys.ts';
import { holdCampaignDeliveries, releaseCampaignDeliveries } from './outbox.repo.ts';
import { maskUrlCredentials } from '../tools/url-credentials.ts';
import { generateWebhookSecret } from './signing.ts';
import { refuseWebhookTarget } from './ssrf.ts';
import {
  findWebhookConfig,
  insertWebhookConfig,
  updateWebhookConfig,
  updateWebhookSecret,
  type WebhookConfigRow,
} from './webhook-config.repo.ts';
import { boolean, optional, type, type Infer } from 'superstruct';
import { describedString } from '../validation/described.ts';
import { structErrors } from '../validation/field-errors.ts';

interface WebhookConfigView {
  endpoint_url: string;
  is_active: boolean;
  updated_at: string;
}

interface PatchResult {
  created: boolean;
  config: WebhookConfigView;
  /** Only when created. */
  hmac_secret?: string;
}

const MAX_URL_LENGTH = 2048;

// The endpoint URLs the OpenAPI document promises to take: https, a host name whose last label
// starts with a letter (a numeric one is read as an IPv4 address, and an `xn--` label must be valid
// punycode), a port of up to 4 digits, and only characters the WHATWG parser keeps as they are, so
// the stored href is no longer than what was sent (one `/` more without a path, hence the length
// bound there). The server takes more (isHttpsUrl: addresses, userinfo, any port, characters it
// percent-encodes), which no regular expression can state exactly.
const URL_HOST = '(?:(?![Xx][Nn]--)[A-Za-z0-9-]+\\.)*(?![Xx][Nn]--)[A-Za-z][A-Za-z0-9-]*(?::[0-9]{1,4})?';
const URL_KEPT = '[A-Za-z0-9._~!$&()*+,;=:@%/?#\\[\\]-]';
const PUBLISHED_WEBHOOK_URL = new RegExp(
  `^(?:https://${URL_HOST}/${URL_KEPT}*|(?=[\\s\\S]{0,${MAX_URL_LENGTH - 1}}$)https://${URL_HOST}(?:[?#]${URL_KEPT}*)?)$`,
);

/** The PATCH body's shape and field rules (also its OpenAPI schema). */
export const WebhookPatchStruct = type({
  endpoint_url: optional(
    describedString({
      maxLength: MAX_URL_LENGTH,
      check: isHttpsUrl,
      publishedPattern: PUBLISHED_WEBHOOK_URL,
      format: 'uri',
      code: 'webhook_url_not_https',
      message: 'must start with https:// and name a host',
      description:
        'An https:// URL with a host, at most 2048 characters once normalised by the WHATWG URL parser. Required when creating; omitted means unchanged. The server also takes IP addresses, userinfo and other ports than the pattern shows.',
    }),
  ),
  is_active: optional(boolean()),
});

export function toView(row: WebhookConfigRow): WebhookConfigView {
  return { endpoint_url: row.endpoint_url, is_active: row.is_active === 1, updated_at: row.updated_at };
}

export function getWebhookConfig(ctx: Ctx, campaignId: string): WebhookConfigRow {
  const row = findWebhookConfig(ctx.db, campaignId);
  if (!row) throw notFound('Webhook configuration');
  return row;
}

/** Validates a PATCH body: {endpoint_url?: https string, is_active?: boolean}; an unknown field is a 422 (unknown_field). */
export function parseWebhookPatch(body: unknown): { endpointUrl?: string; isActive?: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationFailed([{ field: '', code: 'invalid_type', message: 'the body must be a JSON object' }]);
  }
  const errors = structErrors(body, WebhookPatchStruct);
  errors.push(...unknownFieldErrors(body, WebhookPatchStruct));
  if (errors.length === 1 && errors[0].code === 'webhook_url_not_https')
    throw new AppError(422, 'webhook_url_not_https', 'endpoint_url must be an https:// URL.', errors);
  if (errors.length > 0) throw validationFailed(errors);
  const { endpoint_url: url, is_active: active } = body as Infer<typeof WebhookPatchStruct>;
  // Stored, and answered, in its WHATWG form (new URL().href, as the delivery reads it): control
  // characters are percent-encoded there (tabs and line breaks dropped), so no ESC sequence sent
  // as a URL is ever kept to reach an operator's terminal; the target is the same URL.
  const endpointUrl = typeof url === 'string' ? new URL(url).href : undefined;
  if (endpointUrl !== undefined && endpointUrl.length > MAX_URL_LENGTH) {
    throw validationFailed([
      {
        field: 'endpoint_url',
        code: 'too_long',
        message: `endpoint_url must be at most ${MAX_URL_LENGTH} characters once normalised (control characters percent-encoded)`,
      },
    ]);
  }
  return { endpointUrl, isActive: active as boolean | undefined };
}

/**
 * 403 webhook_config_locked unless the campaign lets this key change its webhook configuration:
 * `any` (the default) every key, `live` live keys only, `none` no key.
 */
export function requireWebhookApiAccess(campaign: Pick<Campaign, 'webhook_api'>, caller: Pick<Caller, 'mode'>): void {
  if (campaign.webhook_api === 'any' || (campaign.webhook_api === 'live' && caller.mode === 'live')) return;
  const message =
    campaign.webhook_api === 'live'
      ? "Only a live key may change this campaign's webhook configuration; GET /v1/webhook stays open to every key."
      : "This campaign's webhook configuration is managed by its operator; no API key may change it. GET /v1/webhook stays open to every key.";
  throw new AppError(403, 'webhook_config_locked', message);
}

/** PATCH /v1/webhook: the key's campaign's configuration, if the campaign lets the key change it. */
export function patchWebhookConfigWithKey(ctx: Ctx, caller: Caller, patch: { endpointUrl?: string; isActive?: boolean }): PatchResult {
  return patchWebhookConfig(ctx, caller.campaignId, patch, apiKeyActor(caller));
}

/**
 * Creates (201, with the secret) or updates (200) the campaign's configuration, in one transaction
 * with its audit record. An API key's change is refused when the campaign's webhook_api does not
 * allow the key (checked here, in the transaction, against the campaign as it is now).
 */
export function patchWebhookConfig(
  ctx: Ctx,
  campaignId: string,
  patch: { endpointUrl?: string; isActive?: boolean },
  actor: Actor,
): PatchResult {
  return ctx.db
    .transaction((): PatchResult => {
      if (actor.kind === 'api_key') {
        const campaign = findCampaignById(ctx.db, campaignId);
        if (!campaign) throw notFound('Campaign');
        requireWebhookApiAccess(campaign, actor);
      }
      const now = nowIso(ctx.clock);
      const current = findWebhookConfig(ctx.db, campaignId);
      if (!current) {
        if (patch.endpointUrl === undefined) {
          throw validationFailed([
            { field: 'endpoint_url', code: 'required', message: 'endpoint_url is required to create the webhook configuration' },
          ]);
        }
        const row: WebhookConfigRow = {
          campaign_id: campaignId,
          endpoint_url: patch.endpointUrl,
          is_active: patch.isActive === false ? 0 : 1,
          secret: generateWebhookSecret(ctx.random),
          previous_secret: null,
          previous_secret_expires_at: null,
          created_at: now,
          updated_at: now,
        };
        insertWebhookConfig(ctx.db, row);
        recordAudit(ctx, {
          actor,
          action: 'webhook.created',
          campaignId,
          details: { endpoint_url: maskUrlCredentials(row.endpoint_url), is_active: row.is_active === 1 },
        });
        return { created: true, config: toView(row), hmac_secret: row.secret };
      }
      const next = {
        campaign_id: campaignId,
        endpoint_url: patch.endpointUrl ?? current.endpoint_url,
        is_active: patch.isActive === undefined ? current.is_active : patch.isActive ? 1 : 0,
        updated_at: current.updated_at,
      };
      // updated_at moves only when something changed: an empty PATCH is a harmless read.
      if (next.endpoint_url !== current.endpoint_url || next.is_active !== current.is_active) {
        next.updated_at = now;
        updateWebhookConfig(ctx.db, next);
        const changed: Record<string, unknown> = {};
        if (next.endpoint_url !== current.endpoint_url) changed.endpoint_url = maskUrlCredentials(next.endpoint_url);
        if (next.is_active !== current.is_active) changed.is_active = next.is_active === 1;
        recordAudit(ctx, { actor, action: 'webhook.updated', campaignId, details: { changed } });
      }
      // Events queued while delivery was on wait through a pause and go out once it is back on
      // (only events that happen while it is off are skipped,
      // docs/api.md#delivery-retries-and-failure).
      if (current.is_active === 1 && next.is_active === 0) holdCampaignDeliveries(ctx.db, campaignId);
      if (current.is_active === 0 && next.is_active === 1) releaseCampaignDeliveries(ctx.db, campaignId, now);
      return { created: false, config: toView({ ...current, ...next }) };
    })
    .immediate();
}

export interface OperatorWebhookConfig {
  campaign_id: string;
  endpoint_url: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  /** While a rotation's grace period runs: when the replaced secret stops signing; else null. */
  previous_secret_expires_at: string | null;
}

export function toOperatorView(row: WebhookConfigRow, nowMs: number): OperatorWebhookConfig {
  const grace =
    row.previous_secret_expires_at !== null && Date.parse(row.previous_secret_expires_at) > nowMs ? row.previous_secret_expires_at : null;
  // The password of a URL with credentials is the receiver's secret: never shown to operators
  // (docs/api.md#webhook-configuration).
  return {
    campaign_id: row.campaign_id,
    endpoint_url: maskUrlCredentials(row.endpoint_url),
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    previous_secret_expires_at: grace,
  };
}

/** The configuration as an operator sees it, or null when the campaign has none yet (the dashboard's webhook page). */
export function findOperatorWebhookConfig(ctx: Ctx, campaignId: string): OperatorWebhookConfig | null {
  const row = findWebhookConfig(ctx.db, campaignId);
  return row ? toOperatorView(row, ctx.clock.now()) : null;
}

/**
 * `ces webhook set`: the operator creates or changes the configuration, whatever the campaign's
 * webhook_api. The URL passes the API's checks (https, length) and, before anything is written,
 * the delivery's own target check (ssrf.ts): a URL that no delivery could reach from here
 * (loopback, private, unresolvable; unless CES_ALLOW_PRIVATE_WEBHOOKS=1) is refused with
 * 422 webhook_url_refused instead of failing every attempt later.
 */
export async function setWebhookConfig(
  ctx: Ctx,
  campaignId: string,
  input: { endpointUrl?: string; isActive?: boolean },
  actor: Actor,
): Promise<OperatorWebhookConfig & { hmac_secret?: string }> {
  getCampaign(ctx, campaignId);
  if (input.endpointUrl === undefined && !findWebhookConfig(ctx.db, campaignId)) {
    throw new AppError(
      422,
      'validation_failed',
      'The campaign has no webhook configuration yet: an endpoint URL is required to create it.',
      [{ field: 'endpoint_url', code: 'required', message: 'endpoint_url is required to create the webhook configuration' }],
    );
  }
  let patch: ReturnType<typeof parseWebhookPatch>;
  try {
    patch = parseWebhookPatch({ endpoint_url: input.endpointUrl, is_active: input.isActive });
  } catch (error) {
    // The API's "see errors[]" means nothing on a command line: the field messages are the message.
    if (error instanceof AppError && error.errors)
      throw new AppError(error.status, error.code, error.errors.map((e) => e.message).join('; '), error.errors);
    throw error;
  }
  if (patch.endpointUrl !== undefined) {
    const refused = await refuseWebhookTarget(patch.endpointUrl, ctx.config.allowPrivateWebhooks);
    if (refused) {
      throw new AppError(422, 'webhook_url_refused', `endpoint_url ${refused.replace(/^refused: /, 'is refused: ')}`, [
        { field: 'endpoint_url', code: 'webhook_url_refused', message: refused },
      ]);
    }
  }
  const result = patchWebhookConfig(ctx, campaignId, patch, actor);
  const view = toOperatorView(getWebhookConfig(ctx, campaignId), ctx.clock.now());
  return result.created ? { ...view, hmac_secret: result.hmac_secret } : view;
}

/**
 * Replaces the signing secret; every delivery attempt from now on is signed with the new one and,
 * for `grace` seconds (0: not at all; as src/input/grace.ts reads them from the operator), with the
 * replaced one too (signing.ts). A rotation during another's grace period ends that one: only the
 * secret being replaced keeps signing.
 */
export function rotateWebhookSecret(
  ctx: Ctx,
  campaignId: string,
  grace: number,
  actor: Actor,
): { hmac_secret: string; previous_secret_expires_at: string | null } {
  return ctx.db
    .transaction(() => {
      getWebhookConfig(ctx, campaignId);
      const secret = generateWebhookSecret(ctx.random);
      const nowMs = ctx.clock.now();
      const expires = grace === 0 ? null : toIso(nowMs + grace * 1000);
      updateWebhookSecret(ctx.db, campaignId, secret, expires, toIso(nowMs));
      recordAudit(ctx, {
        actor,
        action: 'webhook.secret_rotated',
        campaignId,
        details: { grace_seconds: grace, previous_secret_expires_at: expires },
      });
      return { hmac_secret: secret, previous_secret_expires_at: expires };
    })
    .immediate();
}
