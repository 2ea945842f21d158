// /dashboard/audit?campaign=ID&action=NAME&before=ID: the audit log as `ces audit list` shows it
// (src/audit/audit.ts), newest first, a page of PAGE_SIZE records at a time; "Older" continues
// below the last record shown (a cursor on the record id, so a page never shifts while records
// are being added).
import { getCampaign, listCampaigns } from '../../campaigns/campaigns.ts';
import { AppError } from '../../kernel/errors.ts';
import { AUDIT_ACTIONS, listAuditRecords, toAuditAction, type AuditRecord } from '../../audit/audit.ts';
import { time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import { page, type DashboardRouter } from '../kit.ts';

const AUDIT_PAGE_SIZE = 50;

export function registerAuditRoutes(router: DashboardRouter): void {
  router.get(
    '/audit',
    page(({ event, service, session }) => {
      const query = event.url.searchParams;
      const campaignId = query.get('campaign') || undefined;
      const campaign = campaignId === undefined ? undefined : getCampaign(service.ctx, campaignId.toLowerCase());
      const actionName = query.get('action') || undefined;
      const action = actionName === undefined ? undefined : toAuditAction(actionName);
      const beforeText = query.get('before') || undefined;
      const before = beforeText === undefined ? undefined : Number(beforeText);
      if (before !== undefined && !(Number.isSafeInteger(before) && before > 0))
        throw new AppError(400, 'invalid_option', `before must be a record id (a whole number above 0), got "${beforeText}"`);
      const records = listAuditRecords(service.ctx, { campaignId: campaign?.id, action, limit: AUDIT_PAGE_SIZE + 1, beforeId: before });
      const more = records.length > AUDIT_PAGE_SIZE;
      const shown = records.slice(0, AUDIT_PAGE_SIZE);
      const campaigns = listCampaigns(service.ctx);
      const names = new Map(campaigns.map((c) => [c.id, c.name]));
      const filters = new URLSearchParams();
      if (campaign) filters.set('campaign', campaign.id);
      if (action) filters.set('action', action);
      const older = new URLSearchParams(filters);
      if (shown.length > 0) older.set('before', String(shown.at(-1)!.id));
      return layout({
        title: 'Audit log',
        session,
        path: `${BASE}/audit`,
        body: html`<h1>Audit log</h1>
          <p>
            Every change made by an operator (CLI or dashboard) or an API key, newest first: <code>ces audit list</code> shows the same
            records.
          </p>
          <form class="filters" method="get" action="${BASE}/audit">
            <label for="audit-campaign"
              >Campaign
              <select id="audit-campaign" name="campaign">
                <option value="">any</option>
                ${campaigns.map((c) => html`<option value="${c.id}" ${c.id === campaign?.id ? html` selected` : null}>${c.name}</option>`)}
              </select></label
            >
            <label for="audit-action"
              >Action
              <select id="audit-action" name="action">
                <option value="">any</option>
                ${AUDIT_ACTIONS.map((a) => html`<option value="${a}" ${a === action ? html` selected` : null}>${a}</option>`)}
              </select></label
            >
            <button type="submit">Filter</button>
          </form>
          <table>
            <caption class="visually-hidden">
              Audit records
            </caption>
            <thead>
              <tr>
                <th scope="col" class="num">Id</th>
                <th scope="col">At</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Campaign</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              ${
                shown.length === 0
                  ? html`<tr>
                      <td colspan="6" class="muted">No records${before ? ' older than these' : ''}.</td>
                    </tr>`
                  : shown.map((r) => row(r, names))
              }
            </tbody>
          </table>
          <nav class="pager" aria-label="Pages">
            ${
              before !== undefined ? html`<a href="${BASE}/audit${filters.size > 0 ? `?${filters.toString()}` : ''}">Newest</a>` : null
            }${more ? html`<a href="${BASE}/audit?${older.toString()}" rel="next">Older</a>` : null}
          </nav>`,
      });
    }),
  );
}

function row(r: AuditRecord, names: Map<string, string>): Html {
  return html`<tr>
    <td class="num">${r.id}</td>
    <td>${time(r.at)}</td>
    <td class="mono">${r.actor}</td>
    <td><code>${r.action}</code></td>
    <td>
      ${r.campaign_id ? html`<a href="${campaignPath(r.campaign_id)}">${names.get(r.campaign_id) ?? r.campaign_id}</a>` : html`<span class="muted">–</span>`}
    </td>
    <td class="mono">${details(r.details)}</td>
  </tr>`;
}

/** `key=value` pairs as `ces audit list` prints them; objects as JSON. */
function details(d: Record<string, unknown>): string {
  return Object.entries(d)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}
