// GET /dashboard/campaigns/:id?mode=live|test: the campaign's live figures. Entries per hour over
// the last 24 hours (approved, rejected, pending) as an inline SVG chart, rejection reasons, prize
// stock, lucky-number fill, webhook success and lag; the live script swaps the data-live region
// every few seconds, and without JavaScript a reload shows the same.
import { getCampaign } from '../../campaigns/campaigns.ts';
import { nowIso } from '../../kernel/clock.ts';
import { stackedBarChart } from '../chart.ts';
import { ATTEMPT_WINDOW, liveFigures, REJECTION_SAMPLE, type LiveFigures } from '../figures.ts';
import { count, duration, percent, time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { campaignPath, layout } from '../layout.ts';
import { page, queryMode, routeParam, type DashboardRouter } from '../kit.ts';
import { endpointNow } from './overview.ts';

const SAO_PAULO_OFFSET_MS = 3 * 3600 * 1000;

export function registerCampaignRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/:id',
    page(({ event, service, session }) => {
      const campaign = getCampaign(service.ctx, routeParam(event, 'id'));
      const mode = queryMode(event);
      const figures = liveFigures(service.ctx, campaign, mode, service.deliveries);
      return layout({
        title: campaign.name,
        session,
        path: campaignPath(campaign.id),
        campaign: { id: campaign.id, name: campaign.name, mode },
        body: renderCampaign(figures, nowIso(service.ctx.clock)),
      });
    }),
  );
}

const WINDOW_TEXT = { open: 'open', not_started: 'not started', ended: 'closed' } as const;

function renderCampaign(f: LiveFigures, now: string): Html {
  const { summary, mode } = f;
  const other = mode.mode === 'live' ? 'test' : 'live';
  return html`<h1>${summary.campaign.name} <span class="badge">${mode.mode}</span></h1>
    <p><a href="${campaignPath(summary.campaign.id)}${other === 'test' ? '?mode=test' : ''}">Show ${other} mode</a></p>
    <div data-live="campaign">
      <p class="muted">Figures as of ${time(now)}; they refresh every few seconds.</p>
      <dl class="figures">
        <div>
          <dt>Registration</dt>
          <dd>${WINDOW_TEXT[summary.window]}</dd>
        </div>
        <div>
          <dt>API</dt>
          <dd>${summary.campaign.api_enabled ? 'enabled' : html`<span class="bad">disabled</span>`}</dd>
        </div>
        <div>
          <dt>Entries today</dt>
          <dd>${count(mode.today)}</dd>
        </div>
        <div>
          <dt>Entries in all</dt>
          <dd>${count(mode.total)}</dd>
        </div>
        <div>
          <dt>Pending</dt>
          <dd>${count(mode.byStatus.PENDING)}</dd>
        </div>
        <div>
          <dt>Approved</dt>
          <dd>${count(mode.byStatus.APPROVED)}</dd>
        </div>
        <div>
          <dt>Rejected</dt>
          <dd>${count(mode.byStatus.REJECTED)}</dd>
        </div>
        <div>
          <dt>Approval rate</dt>
          <dd>${percent(mode.approvalRate)}</dd>
        </div>
      </dl>
      ${summary.closedReason ? html`<p class="notice">${summary.closedReason}</p>` : null}
      <h2>Entries per hour, last 24 hours</h2>
      ${hoursChart(f)}
      <h2>Rejection reasons</h2>
      ${rejections(f)}
      <h2>Prize stock</h2>
      ${prizes(f)}
      <h2>Lucky numbers</h2>
      ${lucky(f)}
      <h2>Webhook</h2>
      ${webhook(f)}
    </div>`;
}

/** "14h" in Sao Paulo time for an hour starting at `iso`. */
function localHour(iso: string): string {
  return `${new Date(Date.parse(iso) - SAO_PAULO_OFFSET_MS).getUTCHours()}h`;
}

function hoursChart(f: LiveFigures): Html {
  const bars = f.hours.map((h) => ({
    label: localHour(h.start),
    title: `${localHour(h.start)}: ${h.APPROVED} approved, ${h.REJECTED} rejected, ${h.PENDING} pending`,
    segments: [
      { className: 'approved', value: h.APPROVED },
      { className: 'rejected', value: h.REJECTED },
      { className: 'pending', value: h.PENDING },
    ],
  }));
  return html`<p class="legend">
      <span class="approved">approved</span><span class="rejected">rejected</span><span class="pending">pending</span>
      <span class="muted"> (Sao Paulo time)</span>
    </p>
    ${stackedBarChart(bars, { label: 'Entries per hour over the last 24 hours, approved, rejected and pending', labelEvery: 3 })}
    <details>
      <summary>The figures as a table</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Hour from</th>
            <th scope="col" class="num">Approved</th>
            <th scope="col" class="num">Rejected</th>
            <th scope="col" class="num">Pending</th>
          </tr>
        </thead>
        <tbody>
          ${f.hours.map(
            (h) =>
              html`<tr>
                <th scope="row">${time(h.start)}</th>
                <td class="num">${count(h.APPROVED)}</td>
                <td class="num">${count(h.REJECTED)}</td>
                <td class="num">${count(h.PENDING)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </details>`;
}

function rejections(f: LiveFigures): Html {
  if (f.rejections.entries === 0) return html`<p class="muted">No entry rejected.</p>`;
  return html`<p class="muted">
      Among the ${count(f.rejections.entries)} most recent rejected
      entries${f.rejections.entries === REJECTION_SAMPLE ? html` (at most ${count(REJECTION_SAMPLE)} are read)` : null}; an entry with two
      reasons counts in both.
    </p>
    <table>
      <thead>
        <tr>
          <th scope="col">Reason</th>
          <th scope="col" class="num">Entries</th>
          <th scope="col" class="num">Share</th>
        </tr>
      </thead>
      <tbody>
        ${f.rejections.reasons.map(
          (r) =>
            html`<tr>
              <th scope="row"><code>${r.code}</code></th>
              <td class="num">${count(r.n)}</td>
              <td class="num">${percent(r.n / f.rejections.entries)}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

function prizes(f: LiveFigures): Html {
  if (f.prizes.length === 0) return html`<p class="muted">No prize in this mode.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Prize</th>
        <th scope="col">Type</th>
        <th scope="col" class="num">Initial stock</th>
        <th scope="col" class="num">Left</th>
        <th scope="col">Stock left</th>
        <th scope="col" class="num">Won beyond the stock</th>
      </tr>
    </thead>
    <tbody>
      ${f.prizes.map(
        (p) =>
          html`<tr>
            <th scope="row">${p.name}</th>
            <td>${p.type}</td>
            <td class="num">${count(p.initial_stock)}</td>
            <td class="num">${count(p.current_stock)}</td>
            <td>
              <meter min="0" max="${Math.max(1, p.initial_stock)}" value="${p.current_stock}">
                ${percent(p.initial_stock === 0 ? null : p.current_stock / p.initial_stock)}
              </meter>
            </td>
            <td class="num">${count(p.awarded_beyond_pool)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function lucky(f: LiveFigures): Html {
  if (f.lucky.mechanic === 'none') return html`<p class="muted">This campaign gives no lucky numbers.</p>`;
  const share = f.lucky.used / f.lucky.capacity;
  return html`<p>
    ${count(f.lucky.used)} of ${count(f.lucky.capacity)} pairs used (${percent(share, 2)}), ${f.lucky.mechanic} allocation.
    <meter min="0" max="${f.lucky.capacity}" value="${f.lucky.used}">${percent(share, 2)}</meter>
  </p>`;
}

function webhook(f: LiveFigures): Html {
  const w = f.summary.webhook;
  if (!w.configured) return html`<p class="muted">No webhook configured.</p>`;
  const d = f.deliveries;
  return html`<table>
    <tbody>
      <tr>
        <th scope="row">Delivery</th>
        <td>${w.active ? 'active' : html`<span class="warn">paused</span>`}</td>
      </tr>
      <tr>
        <th scope="row">Endpoint now</th>
        <td>${endpointNow(w)}</td>
      </tr>
      <tr>
        <th scope="row">Success rate</th>
        <td>
          ${
            d.attempts === 0
              ? html`<span class="muted">no attempt among the server's last ${count(ATTEMPT_WINDOW)}</span>`
              : html`${percent(d.successes / d.attempts)}
                  <span class="muted"
                    >(${count(d.successes)} of ${count(d.attempts)} attempts, among the server's last ${count(ATTEMPT_WINDOW)})</span
                  >`
          }
        </td>
      </tr>
      <tr>
        <th scope="row">Receiver's answer time (median)</th>
        <td>${d.latencyP50 === null ? '–' : duration(d.latencyP50)}</td>
      </tr>
      <tr>
        <th scope="row">Lag, event to delivery (median / 95th percentile)</th>
        <td>${d.lagP50 === null ? '–' : `${duration(d.lagP50)} / ${duration(d.lagP95!)}`}</td>
      </tr>
      <tr>
        <th scope="row">Oldest event waiting</th>
        <td>${d.oldestPendingAgeMs === null ? 'none' : duration(d.oldestPendingAgeMs)}</td>
      </tr>
      <tr>
        <th scope="row">Pending deliveries (both modes)</th>
        <td>${count(f.summary.backlog.pendingDeliveries)}</td>
      </tr>
      <tr>
        <th scope="row">Last delivered</th>
        <td>${w.lastDelivered ? time(w.lastDelivered.at) : 'none'}</td>
      </tr>
      <tr>
        <th scope="row">Last failed for good</th>
        <td>${w.lastFailed ? time(w.lastFailed.at) : 'none'}</td>
      </tr>
    </tbody>
  </table>`;
}
