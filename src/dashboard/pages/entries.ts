// /dashboard/campaigns/:id/entries: a campaign's entries, filtered by status, mode and day (GET),
// or found by entry id, CPF/CNPJ or e-mail (POST …/entries/search); personal data masked (the
// entry's page shows it on request, audited); keyset pages of 50, newest first. A search travels
// only in POST bodies, its pages too (the cursor, an instant and an entry id, is no personal data
// but goes with the search): a CPF or an e-mail in a URL stays in the browser's history and in
// proxies' logs. A `q` in a GET's query string is ignored.
import { toMode } from '../../keys/keys.ts';
import { getCampaign } from '../../campaigns/campaigns.ts';
import { recordParticipantLookUp } from '../../participants/participants.ts';
import { AppError } from '../../kernel/errors.ts';
import { ENTRY_STATUSES } from '../../entries/entries.repo.ts';
import type { ListedEntry } from '../entries.repo.ts';
import { encodeCursor, listCampaignEntries, parseEntryFilter, type EntryFilter, type EntryListing } from '../entries.ts';
import { field } from '../forms.ts';
import { time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import { maskDocument, maskName } from '../../tools/masking.ts';
import {
  action,
  csrfField,
  htmlResponse,
  page,
  queryMode,
  routeParam,
  seeOther,
  type Answer,
  type DashboardRequest,
  type DashboardRouter,
} from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';

export function registerEntriesRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/:id/entries',
    page((r) => {
      const query = new URLSearchParams(r.event.url.searchParams);
      query.delete('q');
      return entriesPage(r, parseEntryFilter(query, queryMode(r.event)));
    }),
  );
  router.post(
    '/campaigns/:id/entries/search',
    action((r) => {
      const mode = toMode(field(r.form, 'mode') || 'live');
      const q = field(r.form, 'q').trim();
      // Nothing to find: the listing itself, which has nothing personal to hide in its URL.
      if (q === '') return seeOther(`${campaignPath(routeParam(r.event, 'id'), '/entries')}${mode === 'test' ? '?mode=test' : ''}`);
      return entriesPage(r, parseEntryFilter(new URLSearchParams({ q, before: field(r.form, 'before') }), mode));
    }),
  );
}

function entriesPage(r: DashboardRequest, filter: EntryFilter): Answer {
  const campaign = getCampaign(r.service.ctx, routeParam(r.event, 'id'));
  const shell = (body: Html): Html =>
    layout({
      title: `Entries · ${campaign.name}`,
      session: r.session,
      path: campaignPath(campaign.id, '/entries'),
      campaign: { id: campaign.id, name: campaign.name, mode: filter.mode },
      body,
    });
  try {
    const listing = listCampaignEntries(r.service.ctx, campaign.id, filter);
    // A search by CPF/CNPJ or e-mail looks a participant up: recorded once, not again for its next pages.
    if ((listing.search === 'document' || listing.search === 'email') && filter.before === null)
      recordParticipantLookUp(
        r.service.ctx,
        {
          campaignId: campaign.id,
          livemode: filter.mode === 'live' ? 1 : 0,
          by: listing.search,
          enrollmentId: listing.enrollmentId ?? null,
          via: 'entries',
        },
        r.actor,
      );
    return shell(renderEntries(campaign.id, filter, listing, null, r.session));
  } catch (error) {
    // A search that is no id, e-mail or document: the form stays, with why, as a 422.
    if (!(error instanceof AppError) || error.code !== 'invalid_search') throw error;
    return htmlResponse(shell(renderEntries(campaign.id, filter, { rows: [], next: null, search: null }, error.message, r.session)), 422);
  }
}

const SEARCH_TEXT = {
  entry: 'the entry with that id',
  document: 'the entries of the participant with that CPF/CNPJ',
  email: 'the entries of the participant with that e-mail',
};

function renderEntries(campaignId: string, f: EntryFilter, listing: EntryListing, problem: string | null, session: DashboardSession): Html {
  const path = campaignPath(campaignId, '/entries');
  return html`<h1>Entries</h1>
    <form class="filters" method="get" action="${path}">
      <label
        >Mode
        <select name="mode">
          ${(['live', 'test'] as const).map((m) => html`<option value="${m}" ${m === f.mode ? html` selected` : null}>${m}</option>`)}
        </select></label
      >
      <label
        >Status
        <select name="status">
          <option value="">any</option>
          ${ENTRY_STATUSES.map((s) => html`<option value="${s}" ${s === f.status ? html` selected` : null}>${s.toLowerCase()}</option>`)}
        </select></label
      >
      <label>From day <input type="date" name="from" value="${f.from ?? ''}" /></label>
      <label>To day <input type="date" name="to" value="${f.to ?? ''}" /></label>
      <button type="submit">Filter</button>
      <a href="${path}${f.mode === 'test' ? '?mode=test' : ''}">Clear</a>
    </form>
    <form class="filters" method="post" action="${path}/search">
      ${csrfField(session)}
      <input type="hidden" name="mode" value="${f.mode}" />
      <label>Entry id, CPF/CNPJ or e-mail <input type="search" name="q" value="${f.q}" size="28" autocomplete="off" /></label>
      <button type="submit">Find</button>
    </form>
    ${problem ? html`<p class="notice error" role="alert">${problem}</p>` : null}
    ${listing.search ? html`<p class="notice">Showing ${SEARCH_TEXT[listing.search]}${listing.search === 'entry' ? '' : html` in ${f.mode} mode`}; status and day filters do not apply to a search.</p>` : null}
    <p class="muted">
      Newest first; days are Sao Paulo days. Personal data is masked: open an entry to see it (the view is recorded in the audit log).
    </p>
    ${listing.rows.length === 0 ? html`<p>No entry matches.</p>` : entryTable(listing.rows)}
    <nav class="pager" aria-label="Pages">${f.q === '' ? pageLinks(path, f, listing) : searchPages(path, f, listing, session)}</nav>`;
}

function pageLinks(path: string, f: EntryFilter, listing: EntryListing): Html {
  return html`${f.before ? html`<a href="${pageLink(path, f, null)}">Newest</a>` : null}${
    listing.next ? html`<a href="${pageLink(path, f, encodeCursor(listing.next))}" rel="next">Older</a>` : null
  }`;
}

/** A search's pages: the same search POSTed again with the page's cursor, so the search stays out of the URL. */
function searchPages(path: string, f: EntryFilter, listing: EntryListing, session: DashboardSession): Html {
  const form = (before: string | null, label: string): Html =>
    html`<form method="post" action="${path}/search">
      ${csrfField(session)}<input type="hidden" name="mode" value="${f.mode}" /><input type="hidden" name="q" value="${f.q}" />${
        before === null ? null : html`<input type="hidden" name="before" value="${before}" />`
      }<button type="submit" class="secondary">${label}</button>
    </form>`;
  return html`${f.before ? form(null, 'Newest') : null}${listing.next ? form(encodeCursor(listing.next), 'Older') : null}`;
}

function entryTable(rows: ListedEntry[]): Html {
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Entry</th>
        <th scope="col">Received</th>
        <th scope="col">Mode</th>
        <th scope="col">Status</th>
        <th scope="col">Participant</th>
        <th scope="col">Rejection reasons</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map((e) => {
        const reasons = (JSON.parse(e.rejection_reasons) as Array<{ code: string }>).map((r) => r.code);
        return html`<tr>
          <td><a class="mono" href="${BASE}/entries/${e.id}">${e.id}</a></td>
          <td>${time(e.created_at)}</td>
          <td>${e.livemode === 1 ? 'live' : 'test'}</td>
          <td>
            <span class="${e.status === 'APPROVED' ? 'ok' : e.status === 'REJECTED' ? 'bad' : 'muted'}">${e.status.toLowerCase()}</span>
          </td>
          <td>
            ${e.anonymized_at ? html`<span class="muted">anonymized</span>` : html`<span class="mono">${maskDocument(e.document_type, e.document_number)}</span> ${maskName(e.full_name) ?? ''}`}
          </td>
          <td>${reasons.length === 0 ? html`<span class="muted">–</span>` : html`<code>${reasons.join(', ')}</code>`}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

function pageLink(path: string, f: EntryFilter, before: string | null): string {
  const query = new URLSearchParams();
  if (f.mode !== 'live') query.set('mode', f.mode);
  if (f.status) query.set('status', f.status);
  if (f.from) query.set('from', f.from);
  if (f.to) query.set('to', f.to);
  if (before) query.set('before', before);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}
