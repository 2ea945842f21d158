// The campaign's webhook configuration (SPEC: Webhook configuration, GET/PATCH /v1/webhook): one
// per campaign, shared by live and test mode. The HMAC secret is generated here, shown once in the
// response that creates the configuration, and afterwards only replaced (rotate-secret).
import { isHttpsUrl } from '../campaigns/campaigns.ts';
import { nowIso } from '../clock.ts';
import type { Ctx } from '../context.ts';
import { AppError, notFound, validationFailed, type FieldError } from '../errors.ts';
import { holdCampaignDeliveries, releaseCampaignDeliveries } from './outbox.repo.ts';
import { generateWebhookSecret } from './signing.ts';
import { findWebhookConfig, insertWebhookConfig, updateWebhookConfig, updateWebhookSecret, type WebhookConfigRow } from './webhook-config.repo.ts';
import { boolean, optional, type } from 'superstruct';
import { describedString, enforceStruct } from '../openapi/described.ts';

export interface WebhookConfigView {
  endpoint_url: string;
  is_active: boolean;
  updated_at: string;
}

export interface PatchResult {
  created: boolean;
  config: WebhookConfigView;
  /** Only when created. */
  hmac_secret?: string;
}

const MAX_URL_LENGTH = 2048;

/** The PATCH body's shape (also its OpenAPI schema); parseWebhookPatch gives the finer codes. */
export const WebhookPatchStruct = type({
  endpoint_url: optional(describedString({ maxLength: MAX_URL_LENGTH, format: 'uri', description: 'Must start with https://. Required when creating; omitted means unchanged.' })),
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

/** Validates a PATCH body: {endpoint_url?: https string, is_active?: boolean}; unknown fields are ignored. */
export function parseWebhookPatch(body: unknown): { endpointUrl?: string; isActive?: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationFailed([{ field: '', code: 'invalid_type', message: 'the body must be a JSON object' }]);
  }
  const { endpoint_url: url, is_active: active } = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (url !== undefined && typeof url !== 'string') errors.push({ field: 'endpoint_url', code: 'invalid_type', message: 'endpoint_url must be a string' });
  if (typeof url === 'string' && url.length > MAX_URL_LENGTH) errors.push({ field: 'endpoint_url', code: 'too_long', message: `endpoint_url must be at most ${MAX_URL_LENGTH} characters` });
  if (active !== undefined && typeof active !== 'boolean') errors.push({ field: 'is_active', code: 'invalid_type', message: 'is_active must be a boolean' });
  if (errors.length > 0) throw validationFailed(errors);
  enforceStruct(body, WebhookPatchStruct);
  if (typeof url === 'string' && !isHttpsUrl(url)) {
    throw new AppError(422, 'webhook_url_not_https', 'endpoint_url must be an https:// URL.', [
      { field: 'endpoint_url', code: 'webhook_url_not_https', message: 'must start with https:// and name a host' },
    ]);
  }
  // Stored, and answered, in its WHATWG form (new URL().href, as the delivery reads it): control
  // characters are percent-encoded there (tabs and line breaks dropped), so no ESC sequence sent
  // as a URL is ever kept to reach an operator's terminal; the target is the same URL.
  const endpointUrl = typeof url === 'string' ? new URL(url).href : undefined;
  if (endpointUrl !== undefined && endpointUrl.length > MAX_URL_LENGTH) {
    throw validationFailed([{ field: 'endpoint_url', code: 'too_long', message: `endpoint_url must be at most ${MAX_URL_LENGTH} characters once normalised (control characters percent-encoded)` }]);
  }
  return { endpointUrl, isActive: active as boolean | undefined };
}

/** Creates (201, with the secret) or updates (200) the campaign's configuration, in one transaction. */
export function patchWebhookConfig(ctx: Ctx, campaignId: string, patch: { endpointUrl?: string; isActive?: boolean }): PatchResult {
  return ctx.db.transaction((): PatchResult => {
    const now = nowIso(ctx.clock);
    const current = findWebhookConfig(ctx.db, campaignId);
    if (!current) {
      if (patch.endpointUrl === undefined) {
        throw validationFailed([{ field: 'endpoint_url', code: 'required', message: 'endpoint_url is required to create the webhook configuration' }]);
      }
      const row: WebhookConfigRow = {
        campaign_id: campaignId,
        endpoint_url: patch.endpointUrl,
        is_active: patch.isActive === false ? 0 : 1,
        secret: generateWebhookSecret(ctx.random),
        created_at: now,
        updated_at: now,
      };
      insertWebhookConfig(ctx.db, row);
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
    }
    // Events queued while delivery was on wait through a pause and go out once it is back on
    // (only events that happen while it is off are skipped, CONTRACT).
    if (current.is_active === 1 && next.is_active === 0) holdCampaignDeliveries(ctx.db, campaignId);
    if (current.is_active === 0 && next.is_active === 1) releaseCampaignDeliveries(ctx.db, campaignId, now);
    return { created: false, config: toView({ ...current, ...next }) };
  }).immediate();
}

/** Replaces the signing secret; every delivery attempt from now on is signed with the new one. */
export function rotateWebhookSecret(ctx: Ctx, campaignId: string): { hmac_secret: string } {
  return ctx.db.transaction(() => {
    getWebhookConfig(ctx, campaignId);
    const secret = generateWebhookSecret(ctx.random);
    updateWebhookSecret(ctx.db, campaignId, secret, nowIso(ctx.clock));
    return { hmac_secret: secret };
  }).immediate();
}
