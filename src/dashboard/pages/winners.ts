// /dashboard/campaigns/:id/winners?mode=live|test: the campaign's winners in one mode, after the
// draw (src/winners/): each prize won (a published draw's position, an instant prize) with its
// masked participant, prize, status and the three deadlines in Brasília dates, a deadline passed
// with its step not done marked "overdue"; then each winner's steps (time in BRT, event, note,
// who, the files with their SHA-256 and a download link, winner-files.ts) and, while the prize is
// still to be delivered, the form that records the next step with its files, as
// `ces winners record` (recordWinnerStep; audited winner.recorded as dashboard:<name>). The form
// is multipart/form-data, read by the kit's uploadAction within the files' cap; which files are
// taken (PDF, JPEG, PNG by their first bytes) is the domain's rule, the input's accept attribute
// only a hint to the browser. A refused step comes back 422 with the reason beside the form and
// nothing recorded. Last, the income tax on the prizes (winner-taxes.ts).
import { getCampaign, type Campaign } from '../../campaigns/campaigns.ts';
import { listDraws } from '../../draws/views.ts';
import { MAX_NOTE_LENGTH } from '../../input/operator-text.ts';
import type { Mode } from '../../keys/keys.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../../winners/attachments.ts';
import type { WinnerView } from '../../winners/model.ts';
import { isOpen, RECORDABLE_EVENTS } from '../../winners/status.ts';
import { taxesOf } from '../../winners/taxes.ts';
import { recordWinnerStep } from '../../winners/record.ts';
import { currentWinnerRows, getWinner, winnerViews } from '../../winners/winners.ts';
import { errorFor, field, fieldErrors, inFormWords, isRefusal, select, type FieldLabels } from '../forms.ts';
import { BRASILIA_ZONE, count, zonedTime } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import {
  csrfField,
  htmlResponse,
  page,
  queryMode,
  routeParam,
  seeOther,
  uploadAction,
  type DashboardRequest,
  type DashboardRouter,
} from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';
import { attachmentPath, registerWinnerFileRoutes } from './winner-files.ts';
import { taxSection } from './winner-taxes.ts';
import { closingSection } from './campaign-closing.ts';

const winnersPath = (campaignId: string, mode: Mode): string => `${campaignPath(campaignId, '/winners')}?mode=${mode}`;

/** How a step's refusal names the form's fields. */
const STEP_LABELS: FieldLabels = { event: 'Event', note: 'Note', attach: 'Files' };

const TOO_LARGE = `The files are too large: one step takes at most ${MAX_ATTACHMENTS} files of ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB each. Nothing was recorded.`;

/** What a recorded step says on the page it leads back to (?done=recorded); a fixed text, nothing from the URL is shown. */
const RECORDED = 'Step recorded.';
const CLOSED = 'Campaign closed: its prestação de contas is stored, and the anonymisations held for it are carried out.';

interface Refused {
  winnerId: string;
  values: URLSearchParams;
  errors: Map<string, string>;
  message: string;
  /** Files were sent with the refused step: a browser does not keep them, so they are chosen again. */
  withFiles: boolean;
}

export function registerWinnersRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/:id/winners',
    page((r) => winnersPage(r, routeParam(r.event, 'id'), queryMode(r.event), null)),
  );
  router.post(
    '/winners/:winnerId/steps',
    uploadAction({ filesBytes: MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES, tooLarge: TOO_LARGE }, (r) => {
      const winner = getWinner(r.service.ctx, routeParam(r.event, 'winnerId'));
      const mode: Mode = winner.livemode ? 'live' : 'test';
      const files = r.files('attach');
      try {
        recordWinnerStep(
          r.service.ctx,
          winner.id,
          { event: field(r.form, 'event'), note: field(r.form, 'note'), attachments: files },
          r.actor,
        );
        return seeOther(`${winnersPath(winner.campaign_id, mode)}&done=recorded#winner-${winner.id}`);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        const refused: Refused = {
          winnerId: winner.id,
          values: r.form,
          errors: fieldErrors(error, STEP_LABELS),
          message: inFormWords(error.message, STEP_LABELS),
          withFiles: files.length > 0,
        };
        return htmlResponse(winnersPage(r, winner.campaign_id, mode, refused), 422);
      }
    }),
  );
  registerWinnerFileRoutes(router);
}

function winnersPage(r: DashboardRequest, campaignId: string, mode: Mode, refused: Refused | null): Html {
  const ctx = r.service.ctx;
  const campaign = getCampaign(ctx, campaignId);
  const livemode = mode === 'live' ? 1 : 0;
  // Read once for the winners and their taxes: prescriptions brought up to date once a page.
  const rows = currentWinnerRows(ctx, { campaignId: campaign.id, livemode });
  const winners = winnerViews(ctx, rows);
  const drawNames = new Map(listDraws(ctx, campaign.id).map((d) => [d.id, d.name]));
  const name = (w: WinnerView): string =>
    w.source === 'draw'
      ? `${drawNames.get(w.draw_id!) ?? w.draw_id}, position ${w.position}`
      : `Instant prize, entry ${w.entry_id.slice(0, 8)}`;
  const done = refused ? null : r.event.url.searchParams.get('done');
  const other = mode === 'live' ? 'test' : 'live';
  const body = html`<h1>Winners <span class="badge">${mode}</span></h1>
    <p><a href="${winnersPath(campaign.id, other)}">Show ${other} mode</a></p>
    ${done === 'recorded' ? html`<p class="notice success" role="status">${RECORDED}</p>` : null}
    ${done === 'closed' ? html`<p class="notice success" role="status">${CLOSED}</p>` : null}
    ${
      refused
        ? html`<p class="notice error" role="alert">
            Step not recorded: ${refused.message} <a href="#winner-${refused.winnerId}">To the winner’s form</a>
          </p>`
        : null
    }
    <p>
      One row per prize won: a published draw’s positions and the instant prizes. Deadlines are dates in Brasília: notify by the plan’s
      deadline, deliver within the campaign’s days, and a prize not delivered prescribes after the last day of its 180 (Lei 5.768/1971 art.
      6). A deadline passed with its step not done is marked <strong class="overdue">overdue</strong>. Times are
      <abbr title="${BRASILIA_ZONE}">BRT</abbr>.
    </p>
    ${winnersTable(winners, name)}
    <h2>Steps</h2>
    ${
      campaign.closed_at !== null
        ? html`<p class="muted">This campaign is closed: its prestação de contas is made, and no step is recorded any more.</p>`
        : null
    }
    ${winners.length === 0 ? html`<p class="muted">No winner yet in ${mode} mode.</p>` : null}
    ${winners.map((w) => winnerSection(w, name(w), campaign, r.session, refused?.winnerId === w.id ? refused : null))}
    ${taxSection(taxesOf(rows), (id) => {
      const w = winners.find((x) => x.id === id);
      return w ? name(w) : id;
    })}
    ${closingSection(campaign, mode, r.session)}`;
  return layout({
    title: `Winners · ${campaign.name}`,
    session: r.session,
    path: campaignPath(campaign.id, '/winners'),
    campaign: { id: campaign.id, name: campaign.name, mode },
    body,
  });
}

function winnersTable(winners: WinnerView[], name: (w: WinnerView) => string): Html {
  return html`<table>
    <caption class="visually-hidden">
      Winners
    </caption>
    <thead>
      <tr>
        <th scope="col">Won by</th>
        <th scope="col">Participant</th>
        <th scope="col">Prize</th>
        <th scope="col" class="num">Value (R$)</th>
        <th scope="col">Status</th>
        <th scope="col">Notify by</th>
        <th scope="col">Deliver by</th>
        <th scope="col">Prescribes after</th>
      </tr>
    </thead>
    <tbody>
      ${
        winners.length === 0
          ? html`<tr>
              <td colspan="8" class="muted">No winners.</td>
            </tr>`
          : winners.map(
              (w) =>
                html`<tr>
                  <td><a href="#winner-${w.id}">${name(w)}</a></td>
                  <td>${participant(w)}</td>
                  <td>${w.prize.description ?? html`<span class="muted">not given</span>`}</td>
                  <td class="num">${w.prize.value ?? html`<span class="muted">–</span>`}</td>
                  <td>${w.status}</td>
                  ${deadline(w.deadlines.notify_by, w.overdue.includes('notify_by'))}
                  ${deadline(w.deadlines.deliver_by, w.overdue.includes('deliver_by'))} ${deadline(w.deadlines.prescribes_at, false)}
                </tr>`,
            )
      }
    </tbody>
  </table>`;
}

function participant(w: WinnerView): Html {
  const p = w.participant;
  if (p.name === null && p.document === '***') return html`<span class="muted">anonymized</span> <span class="mono">${p.document}</span>`;
  const place = [p.city, p.state].filter((x) => x !== null).join('/');
  return html`${p.name ?? '–'}
    <span class="mono nowrap">${p.document}</span>${place === '' ? null : html`<br /><span class="muted">${place}</span>`}`;
}

/** A deadline's cell: the date, and when it has passed with its step not done, "overdue" in words and in colour. */
function deadline(date: string, overdue: boolean): Html {
  return overdue
    ? html`<td class="overdue nowrap"><time datetime="${date}">${date}</time> <strong>overdue</strong></td>`
    : html`<td class="nowrap"><time datetime="${date}">${date}</time></td>`;
}

function winnerSection(w: WinnerView, title: string, campaign: Campaign, session: DashboardSession, refused: Refused | null): Html {
  return html`<section class="card" id="winner-${w.id}" aria-labelledby="winner-${w.id}-title">
    <h3 id="winner-${w.id}-title">${title}</h3>
    <p>
      Status <strong>${w.status}</strong> · entry <a class="mono" href="${BASE}/entries/${w.entry_id}">${w.entry_id}</a> · awarded
      ${zonedTime(w.awarded_at)}
    </p>
    <table>
      <caption class="visually-hidden">
        Steps of ${title}
      </caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">Note</th>
          <th scope="col">By</th>
          <th scope="col">Files</th>
        </tr>
      </thead>
      <tbody>
        ${w.events.map(
          (e) =>
            html`<tr>
              <td>${zonedTime(e.at)}</td>
              <td>
                ${e.event}${e.from_status !== null && e.from_status !== e.to_status ? html` <span class="muted">(${e.from_status} → ${e.to_status})</span>` : null}
              </td>
              <td>${e.note ?? html`<span class="muted">–</span>`}</td>
              <td>${e.actor}</td>
              <td>
                ${
                  e.attachments.length === 0
                    ? html`<span class="muted">–</span>`
                    : html`<ul class="files">
                        ${e.attachments.map(
                          (a) =>
                            html`<li>
                              <a href="${attachmentPath(a.id)}" download>${a.filename}</a>
                              <span class="muted">${a.media_type}, ${count(a.size)} bytes</span><br />
                              SHA-256 <code class="mono sha256">${a.sha256}</code>
                            </li>`,
                        )}
                      </ul>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${isOpen(w.status) && campaign.closed_at === null ? stepForm(w, session, refused) : null}
  </section>`;
}

function stepForm(w: WinnerView, session: DashboardSession, refused: Refused | null): Html {
  const id = (name: string): string => `${name}-${w.id}`;
  const errors = refused?.errors ?? new Map<string, string>();
  return html`${refused ? html`<p class="notice error" role="alert">${refused.message}</p>` : null}
    <form class="filters" method="post" action="${BASE}/winners/${w.id}/steps" enctype="multipart/form-data">
      ${csrfField(session)}
      <label for="${id('event')}"
        >Event ${select('event', RECORDABLE_EVENTS, refused?.values.get('event') ?? RECORDABLE_EVENTS[0], id('event'))}
        ${errorFor(errors, 'event')}</label
      >
      <label for="${id('note')}"
        >Note
        <input
          id="${id('note')}"
          name="note"
          required
          maxlength="${MAX_NOTE_LENGTH}"
          size="40"
          value="${refused?.values.get('note') ?? ''}"
        />
        ${errorFor(errors, 'note')}</label
      >
      <label for="${id('attach')}"
        >Files (PDF, JPEG or PNG; at most ${MAX_ATTACHMENTS}, ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB each)
        <input id="${id('attach')}" name="attach" type="file" multiple accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png" />
        ${errorFor(errors, 'attach')}
        ${refused?.withFiles ? html`<span class="muted">Choose the files again: the browser does not keep them.</span>` : null}</label
      >
      <button type="submit">Record step</button>
    </form>`;
}
