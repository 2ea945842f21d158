// GET /dashboard/: every campaign with its state, its entries (today, in all, by mode, approval
// rate), its webhook's health and its backlog. Refreshed in place by the live script.
import { nowIso } from '../../kernel/clock.ts';
import type { CampaignSummary, WebhookHealth } from '../figures.ts';
import { summarizeCampaigns, windowState } from '../figures.ts';
import { count, duration, percent, time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { cesCommand } from '../../tools/runtime.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import { page, type DashboardRouter } from '../kit.ts';

export function registerOverviewRoutes(router: DashboardRouter): void {
  const overview = page(({ service, session }) =>
    layout({
      title: 'Campaigns',
      session,
      path: `${BASE}/`,
      body: renderOverview(summarizeCampaigns(service.ctx, service.deliveries), nowIso(service.ctx.clock)),
    }),
  );
  router.get('/', overview);
  router.get('', overview);
}

const WINDOW_TEXT: Record<ReturnType<typeof windowState>, string> = { open: 'open', not_started: 'not started', ended: 'closed' };

function renderOverview(summaries: CampaignSummary[], now: string): Html {
  if (summaries.length === 0)
    return html`<h1>Campaigns</h1>
      <p>No campaign yet. <a href="${BASE}/campaigns/new">Create one</a> or run <code>${cesCommand()} campaign create</code>.</p>`;
  return html`<h1>Campaigns</h1>
    <div data-live="overview">
      <p class="muted">Figures as of ${time(now)}; this page refreshes itself every few seconds.</p>
      <h2>Entries</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Campaign</th>
            <th scope="col">Registration</th>
            <th scope="col">API</th>
            <th scope="col">Mode</th>
            <th scope="col" class="num">Today</th>
            <th scope="col" class="num">In all</th>
            <th scope="col" class="num">Pending</th>
            <th scope="col" class="num">Approved</th>
            <th scope="col" class="num">Rejected</th>
            <th scope="col" class="num">Approval rate</th>
          </tr>
        </thead>
        ${summaries.map(
          (s) =>
            html`<tbody>
              ${s.modes.map(
                (m, i) =>
                  html`<tr>
                    ${
                      i === 0
                        ? html`<th scope="rowgroup" rowspan="${s.modes.length}">
                              <a href="${campaignPath(s.campaign.id)}">${s.campaign.name}</a>
                            </th>
                            <td rowspan="${s.modes.length}">
                              <span class="badge ${s.window === 'open' ? 'ok' : 'muted'}">${WINDOW_TEXT[s.window]}</span>
                            </td>
                            <td rowspan="${s.modes.length}">
                              ${s.campaign.api_enabled ? html`<span class="ok">enabled</span>` : html`<span class="bad">disabled</span>`}
                            </td>`
                        : null
                    }
                    <td><a href="${campaignPath(s.campaign.id)}${m.mode === 'test' ? '?mode=test' : ''}">${m.mode}</a></td>
                    <td class="num">${count(m.today)}</td>
                    <td class="num">${count(m.total)}</td>
                    <td class="num">${count(m.byStatus.PENDING)}</td>
                    <td class="num">${count(m.byStatus.APPROVED)}</td>
                    <td class="num">${count(m.byStatus.REJECTED)}</td>
                    <td class="num">${percent(m.approvalRate)}</td>
                  </tr>`,
              )}
            </tbody>`,
        )}
      </table>
      <h2>Webhooks and backlog</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Campaign</th>
            <th scope="col">Webhook</th>
            <th scope="col">Last delivered</th>
            <th scope="col">Last failed</th>
            <th scope="col">Endpoint now</th>
            <th scope="col" class="num">Pending deliveries</th>
            <th scope="col" class="num">Unprocessed entries</th>
          </tr>
        </thead>
        <tbody>
          ${summaries.map(
            (s) =>
              html`<tr>
                <th scope="row"><a href="${campaignPath(s.campaign.id, '/webhook')}">${s.campaign.name}</a></th>
                <td>
                  ${s.webhook.configured ? (s.webhook.active ? 'active' : html`<span class="warn">paused</span>`) : html`<span class="muted">not set</span>`}
                </td>
                <td>
                  ${s.webhook.lastDelivered ? html`${time(s.webhook.lastDelivered.at)} (${s.webhook.lastDelivered.last_status_code ?? '–'})` : html`<span class="muted">none</span>`}
                </td>
                <td>${s.webhook.lastFailed ? html`${time(s.webhook.lastFailed.at)}` : html`<span class="muted">none</span>`}</td>
                <td>${endpointNow(s.webhook)}</td>
                <td class="num">${count(s.backlog.pendingDeliveries)}</td>
                <td class="num">${count(s.backlog.unprocessedEntries)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** What the running server's scheduler says of the endpoint: healthy, failing, backed off. */
export function endpointNow(w: WebhookHealth): Html {
  if (!w.configured) return html`<span class="muted">–</span>`;
  if (w.backedOff)
    return html`<span class="bad">backed off for ${duration(w.backedOffForMs)} after ${w.failuresInARow} failures in a row</span>`;
  if (w.failuresInARow > 0) return html`<span class="warn">failing: ${w.failuresInARow} in a row</span>`;
  return html`<span class="ok">healthy</span>${w.inFlight > 0 ? html` <span class="muted">(${w.inFlight} in flight)</span>` : null}`;
}
