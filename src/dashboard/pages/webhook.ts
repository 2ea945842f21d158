// /dashboard/campaigns/:id/webhook: the campaign's webhook, as `ces webhook show|set|rotate-secret|
// deliveries|redeliver|test` and `ces campaign update --webhook-api`: the configuration, its URL,
// pause and resume, the signing secret rotated with a grace period (the new secret shown once, in
// the POST's answer), which API keys may change it, the deliveries (filtered by status) with
// redelivery of one or of every failed one, and a test ping. Changes are audited as
// dashboard:<name> by the domain functions (src/webhooks/webhook-config.ts, src/campaigns/campaigns.ts).
// Pausing, rotating the secret without a grace period and redelivering every failed delivery ask
// first (confirm.ts).
import { getCampaign, updateCampaign, WEBHOOK_API_ACCESS, type Campaign } from '../../campaigns/campaigns.ts';
import { AppError, notFound } from '../../kernel/errors.ts';
import { MODES } from '../../keys/keys.ts';
import { MAX_GRACE_SECONDS, parseGraceSeconds } from '../../input/grace.ts';
import {
  findOperatorWebhookConfig,
  rotateWebhookSecret,
  setWebhookConfig,
  type OperatorWebhookConfig,
} from '../../webhooks/webhook-config.ts';
import {
  countFailedDeliveries,
  DELIVERY_STATUSES,
  getDeliveryWithAttempts,
  listRecentDeliveryViews,
  redeliver,
  redeliverFailed,
  type DeliveryView,
} from '../../webhooks/deliveries.ts';
import { sendTestPing } from '../../webhooks/ping.ts';
import { confirmFirst } from '../confirm.ts';
import { choice, field, secretOnce, select } from '../forms.ts';
import { count, time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { cesCommand } from '../../tools/runtime.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import { action, csrfField, page, routeParam, seeOther, type DashboardRequest, type DashboardRouter } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';

/** Deliveries listed, newest first (`ces webhook deliveries --limit` reaches further back). */
const DELIVERY_LIMIT = 50;

const API_LOCK_TEXT: Record<Campaign['webhook_api'], string> = {
  any: 'any key of the campaign (live or test) may change the webhook (PATCH /v1/webhook)',
  live: 'only live keys may change the webhook; test keys get 403 webhook_config_locked',
  none: 'no API key may change the webhook: only operators (dashboard, CLI)',
};

export function registerWebhookRoutes(router: DashboardRouter): void {
  const base = '/campaigns/:id/webhook';
  router.get(
    base,
    page((r) => webhookPage(r, null)),
  );
  router.post(
    `${base}/url`,
    action(async (r) => {
      const campaignId = routeParam(r.event, 'id');
      const creating = findOperatorWebhookConfig(r.service.ctx, campaignId) === null;
      const isActive = creating ? r.form.get('active') === 'on' : undefined;
      const result = await setWebhookConfig(r.service.ctx, campaignId, { endpointUrl: field(r.form, 'url').trim(), isActive }, r.actor);
      if (result.hmac_secret === undefined) return seeOther(webhookPath(campaignId));
      return webhookPage(r, { title: 'Webhook created', secret: result.hmac_secret, graceUntil: null });
    }),
  );
  router.post(
    `${base}/active`,
    action(async (r) => {
      const campaignId = routeParam(r.event, 'id');
      const isActive = choice(r.form, 'active', ['on', 'off'] as const) === 'on';
      const confirmation =
        !isActive &&
        confirmFirst(r, {
          question: 'Pause webhook delivery?',
          consequence:
            'Events that happen while delivery is paused are recorded as skipped and never sent, not even after delivery resumes (the integrator can still read them with GET /v1/events).',
          button: 'Pause delivery',
          back: webhookPath(campaignId),
        });
      if (confirmation) return confirmation;
      await setWebhookConfig(r.service.ctx, campaignId, { isActive }, r.actor);
      return seeOther(webhookPath(campaignId));
    }),
  );
  router.post(
    `${base}/rotate-secret`,
    action((r) => {
      const campaignId = routeParam(r.event, 'id');
      getCampaign(r.service.ctx, campaignId);
      const grace = parseGraceSeconds(field(r.form, 'grace').trim() || '0');
      const confirmation =
        grace === 0 &&
        confirmFirst(r, {
          question: 'Rotate the signing secret without a grace period?',
          consequence:
            'From now on every delivery is signed with the new secret only: the receiver rejects them until it has the new secret, and they are retried, then fail. A grace period signs with both secrets meanwhile.',
          button: 'Rotate now, no grace',
          back: webhookPath(campaignId),
        });
      if (confirmation) return confirmation;
      const rotated = rotateWebhookSecret(r.service.ctx, campaignId, grace, r.actor);
      return webhookPage(r, {
        title: 'Signing secret rotated',
        secret: rotated.hmac_secret,
        graceUntil: rotated.previous_secret_expires_at,
      });
    }),
  );
  router.post(
    `${base}/api-lock`,
    action((r) => {
      const campaignId = routeParam(r.event, 'id');
      updateCampaign(r.service.ctx, campaignId, { webhookApi: choice(r.form, 'webhook_api', WEBHOOK_API_ACCESS) }, r.actor);
      return seeOther(webhookPath(campaignId));
    }),
  );
  router.post(
    `${base}/ping`,
    action(async (r) => {
      const campaignId = routeParam(r.event, 'id');
      const mode = choice(r.form, 'mode', MODES);
      const ping = await sendTestPing(r.service.ctx, campaignId, mode === 'live');
      return seeOther(`${webhookPath(campaignId)}?ping=${encodeURIComponent(ping.delivery_id)}`);
    }),
  );
  router.post(
    `${base}/deliveries/:deliveryId/redeliver`,
    action((r) => {
      const campaignId = routeParam(r.event, 'id');
      const deliveryId = routeParam(r.event, 'deliveryId');
      // Only a delivery of this campaign: an id of another campaign's is not found here.
      if (getDeliveryOrNull(r, deliveryId)?.campaign_id !== campaignId) throw notFound('Delivery');
      redeliver(r.service.ctx, deliveryId, r.actor);
      return seeOther(`${webhookPath(campaignId)}?requeued=1`);
    }),
  );
  router.post(
    `${base}/redeliver-failed`,
    action((r) => {
      const campaignId = routeParam(r.event, 'id');
      getCampaign(r.service.ctx, campaignId);
      const failed = countFailedDeliveries(r.service.ctx, campaignId);
      const confirmation =
        failed > 0 &&
        confirmFirst(r, {
          question: `Redeliver all ${count(failed)} failed deliveries?`,
          consequence:
            'Every failed event of this campaign is sent to the partner again, each with the data it carried (an entry’s events carry the participant’s entry). The receiver gets them again even if it kept some.',
          button: 'Redeliver all failed',
          back: webhookPath(campaignId),
        });
      if (confirmation) return confirmation;
      const requeued = redeliverFailed(r.service.ctx, campaignId, r.actor);
      return seeOther(`${webhookPath(campaignId)}?requeued=${requeued.length}`);
    }),
  );
}

const webhookPath = (campaignId: string): string => campaignPath(campaignId, '/webhook');

function getDeliveryOrNull(r: DashboardRequest, id: string): DeliveryView | null {
  try {
    return getDeliveryWithAttempts(r.service.ctx, id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

interface NewSecret {
  title: string;
  secret: string;
  /** Until when the replaced secret signs too; null when it stopped at once (or on creation). */
  graceUntil: string | null;
}

function webhookPage(r: DashboardRequest, secret: NewSecret | null): Html {
  const ctx = r.service.ctx;
  const campaign = getCampaign(ctx, routeParam(r.event, 'id'));
  const query = r.event.url.searchParams;
  const statusFilter = secret ? null : (query.get('status') ?? null);
  const status = statusFilter === null || statusFilter === '' ? undefined : statusFilter;
  const config = findOperatorWebhookConfig(ctx, campaign.id);
  const deliveries = config ? listRecentDeliveryViews(ctx, campaign.id, status, DELIVERY_LIMIT) : [];
  const pingId = secret ? null : query.get('ping');
  const ping = pingId ? getDeliveryOrNull(r, pingId.toLowerCase()) : null;
  const requeued = secret ? null : query.get('requeued');
  return layout({
    title: `Webhook · ${campaign.name}`,
    session: r.session,
    path: webhookPath(campaign.id),
    campaign: { id: campaign.id, name: campaign.name },
    body: html`<h1>Webhook</h1>
      ${secret ? newSecretCard(secret) : null} ${ping && ping.campaign_id === campaign.id ? pingCard(ping) : null}
      ${requeued !== null && /^[0-9]+$/.test(requeued) ? html`<p class="notice success">${count(Number(requeued))} deliveries queued again.</p>` : null}
      ${config ? configSection(campaign, config) : createSection(campaign, r.session)}
      ${config ? deliveriesSection(campaign, deliveries, status, r.session) : null}
      ${config ? changeForms(campaign, config, r.session) : null}`,
  });
}

function newSecretCard(s: NewSecret): Html {
  return html`<section class="card" aria-labelledby="new-secret-title">
    <h2 id="new-secret-title">${s.title}</h2>
    <p>Give the signing secret to the integrator: every delivery is signed with it (Standard Webhooks, <code>webhook-signature</code>).</p>
    ${secretOnce('new-secret', s.secret)}
    ${s.graceUntil ? html`<p>Until ${time(s.graceUntil)} every delivery carries two signatures, the new secret's and the old one's.</p>` : null}
  </section>`;
}

function pingCard(d: DeliveryView): Html {
  const outcome =
    d.last_status_code !== null ? `the endpoint answered ${d.last_status_code}` : d.last_error !== null ? d.last_error : 'no answer';
  return html`<p class="notice ${d.status === 'delivered' ? 'success' : 'error'}" role="status">Test ping ${d.status}: ${outcome}.</p>`;
}

function createSection(campaign: Campaign, session: DashboardSession): Html {
  return html`<p>This campaign has no webhook yet. Give the endpoint that receives its events (https://).</p>
    <form class="filters" method="post" action="${webhookPath(campaign.id)}/url">
      ${csrfField(session)}
      <label for="webhook-url"
        >Endpoint URL <input id="webhook-url" name="url" type="url" required size="50" placeholder="https://partner.example/hooks"
      /></label>
      <label for="webhook-active"
        ><span><input id="webhook-active" name="active" type="checkbox" checked /> Deliver events</span></label
      >
      <button type="submit">Create webhook</button>
    </form>`;
}

function configSection(campaign: Campaign, c: OperatorWebhookConfig): Html {
  return html`<h2>Configuration</h2>
    <table>
      <tbody>
        <tr>
          <th scope="row">Endpoint URL</th>
          <td class="mono">${c.endpoint_url}</td>
        </tr>
        <tr>
          <th scope="row">Delivery</th>
          <td>
            ${c.is_active ? html`<span class="ok">active</span>` : html`<span class="warn">paused</span>: events that happen meanwhile are skipped, never sent`}
          </td>
        </tr>
        <tr>
          <th scope="row">API lock</th>
          <td><code>${campaign.webhook_api}</code>: ${API_LOCK_TEXT[campaign.webhook_api]}</td>
        </tr>
        <tr>
          <th scope="row">Old secret signs until</th>
          <td>${c.previous_secret_expires_at ? time(c.previous_secret_expires_at) : html`<span class="muted">– (one secret)</span>`}</td>
        </tr>
        <tr>
          <th scope="row">Updated</th>
          <td>${time(c.updated_at)}</td>
        </tr>
      </tbody>
    </table> `;
}

function changeForms(campaign: Campaign, c: OperatorWebhookConfig, session: DashboardSession): Html {
  const path = webhookPath(campaign.id);
  return html`<h2>Change</h2>
    <div class="actions">
      <form class="card" method="post" action="${path}/url">
        ${csrfField(session)}
        <label for="webhook-url">Endpoint URL <input id="webhook-url" name="url" type="url" required size="34" /></label>
        <button type="submit">Set URL</button>
      </form>
      <form class="card" method="post" action="${path}/active">
        ${csrfField(session)}
        <input type="hidden" name="active" value="${c.is_active ? 'off' : 'on'}" />
        <button type="submit" class="${c.is_active ? 'danger' : ''}">${c.is_active ? 'Pause delivery' : 'Resume delivery'}</button>
      </form>
      <form class="card" method="post" action="${path}/rotate-secret">
        ${csrfField(session)}
        <label for="secret-grace"
          >Old secret keeps signing for (seconds)
          <input id="secret-grace" name="grace" type="number" min="0" max="${MAX_GRACE_SECONDS}" value="0"
        /></label>
        <button type="submit">Rotate secret</button>
      </form>
      <form class="card" method="post" action="${path}/api-lock">
        ${csrfField(session)}
        <label for="webhook-api"
          >API keys that may change the webhook ${select('webhook_api', WEBHOOK_API_ACCESS, campaign.webhook_api, 'webhook-api')}</label
        >
        <button type="submit" class="secondary">Save API lock</button>
      </form>
      <form class="card" method="post" action="${path}/ping">
        ${csrfField(session)}
        <label for="ping-mode">Mode of the ping ${select('mode', MODES, 'test', 'ping-mode')}</label>
        <button type="submit" class="secondary">Send test ping</button>
      </form>
    </div>`;
}

function deliveriesSection(campaign: Campaign, list: DeliveryView[], status: string | undefined, session: DashboardSession): Html {
  const path = webhookPath(campaign.id);
  const filterLink = (value: string | null, label: string): Html => {
    const current = (value ?? undefined) === status;
    return html`<li><a href="${path}${value ? `?status=${value}` : ''}" ${current ? html` aria-current="page"` : null}>${label}</a></li>`;
  };
  return html`<h2>Deliveries</h2>
    <nav aria-label="Delivery status">
      <ul class="pager">
        ${filterLink(null, 'All')}${DELIVERY_STATUSES.map((s) => filterLink(s, s[0].toUpperCase() + s.slice(1)))}
      </ul>
    </nav>
    <form class="filters" method="post" action="${path}/redeliver-failed">
      ${csrfField(session)}<button type="submit" class="secondary">Redeliver all failed</button>
    </form>
    <table>
      <caption class="visually-hidden">
        The newest ${DELIVERY_LIMIT} deliveries${status ? `, ${status}` : ''}
      </caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Mode</th>
          <th scope="col">Entry</th>
          <th scope="col">Status</th>
          <th scope="col" class="num">Attempts</th>
          <th scope="col">Last answer</th>
          <th scope="col">Next attempt</th>
          <th scope="col">Created</th>
          <th scope="col">Redeliver</th>
        </tr>
      </thead>
      <tbody>
        ${
          list.length === 0
            ? html`<tr>
                <td colspan="9" class="muted">No deliveries${status ? ` ${status}` : ''}.</td>
              </tr>`
            : list.map((d) => deliveryRow(d, path, session))
        }
      </tbody>
    </table>
    <p class="muted">The newest ${DELIVERY_LIMIT}; <code>${cesCommand()} webhook deliveries --limit N</code> lists further back.</p>`;
}

const STATUS_CLASS: Record<string, string> = { delivered: 'ok', failed: 'bad', pending: 'warn', skipped: 'muted' };

function deliveryRow(d: DeliveryView, path: string, session: DashboardSession): Html {
  const answer = d.last_status_code !== null ? String(d.last_status_code) : (d.last_error ?? null);
  return html`<tr>
    <td><code>${d.event_type}</code> <span class="muted mono">${d.id}</span></td>
    <td>${d.livemode ? 'live' : 'test'}</td>
    <td>
      ${d.entry_id ? html`<a class="mono" href="${BASE}/entries/${encodeURIComponent(d.entry_id)}">${d.entry_id.slice(0, 8)}…</a>` : html`<span class="muted">–</span>`}
    </td>
    <td>
      <span class="${STATUS_CLASS[d.status] ?? ''}">${d.status}</span
      >${d.held ? html` <span class="muted">(held while paused)</span>` : null}
    </td>
    <td class="num">${d.attempts}</td>
    <td>${answer ?? html`<span class="muted">–</span>`}</td>
    <td>${time(d.next_attempt_at)}</td>
    <td>${time(d.created_at)}</td>
    <td>
      ${
        d.status === 'failed' || d.status === 'delivered'
          ? html`<form class="inline" method="post" action="${path}/deliveries/${encodeURIComponent(d.id)}/redeliver">
              ${csrfField(session)}<button type="submit" class="secondary" aria-label="Redeliver ${d.event_type} ${d.id}">Redeliver</button>
            </form>`
          : null
      }
    </td>
  </tr>`;
}
