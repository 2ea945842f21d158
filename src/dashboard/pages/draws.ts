// /dashboard/campaigns/:id/draws?mode=test|live: a campaign's draws (apuração) in one mode, each
// with its cut-off, status, eligible count and winners, and the form that creates one, as
// `ces draw create` (src/draws/lifecycle.ts createDraw; audited draw.created as dashboard:<name>). The
// digit lists show the defaults SCPC writes in promotion plans for this campaign's series. A
// refused form comes back 422 with the typed values and the domain's message. The page opens in
// test mode: a live draw is the promotion's own and is never removed, so live is chosen on purpose
// (?mode=live), and its page says so above the form. Times carry their zone (format.ts zonedTime);
// dates are typed as YYYY-MM-DD, whatever the browser's language. One draw's page is pages/draw.ts.
import type { Campaign } from '../../campaigns/campaigns.ts';
import { getCampaign } from '../../campaigns/campaigns.ts';
import { WINNERS } from '../../draws/draw-input.ts';
import { createDraw } from '../../draws/lifecycle.ts';
import type { Draw } from '../../draws/model.ts';
import { hasRun } from '../../draws/status.ts';
import { getDraw, listDraws } from '../../draws/views.ts';
import { defaultElementDigits, defaultSeriesDigits, formatDigitSource } from '../../draws/formation.ts';
import { APPROXIMATIONS, EMPTY_SERIES_RULES } from '../../draws/winners.ts';
import { parseInteger } from '../../input/integers.ts';
import { toMode, type Mode } from '../../keys/keys.ts';
import { field, inFormWords, isRefusal, select, type FieldLabels } from '../forms.ts';
import { count, zonedTime } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import {
  action,
  csrfField,
  htmlResponse,
  page,
  queryMode,
  routeParam,
  seeOther,
  type DashboardRequest,
  type DashboardRouter,
} from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';

export const drawPath = (drawId: string, suffix = ''): string => `${BASE}/draws/${encodeURIComponent(drawId)}${suffix}`;

/** Always with its mode: without one the page is test mode (draftMode). */
export const drawsPath = (campaignId: string, mode: Mode): string => `${campaignPath(campaignId, '/draws')}?mode=${mode}`;

/** The draws page's mode: test unless live is asked for by name. */
function draftMode(event: DashboardRequest['event']): Mode {
  return event.url.searchParams.has('mode') ? queryMode(event) : 'test';
}

/** How a date is typed on the draw pages: ISO, since a browser's date picker writes it in its own language's order (mm/dd in en-US). */
export const DATE_PATTERN = '[0-9]{4}-[0-9]{2}-[0-9]{2}';

/** How the pages name a draw's status. */
export const STATUS_TEXT: Record<Draw['status'], string> = {
  created: 'created, not frozen',
  frozen: 'frozen',
  drawn: 'run, not published',
  published: 'published',
  voided: 'voided',
};

export function registerDrawsRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/:id/draws',
    page((r) => drawsPage(r, draftMode(r.event), null)),
  );
  router.post(
    '/campaigns/:id/draws',
    action((r) => {
      const campaignId = routeParam(r.event, 'id');
      const mode = toMode(field(r.form, 'mode') || 'test');
      const optional = (name: string): string | undefined => (field(r.form, name).trim() === '' ? undefined : field(r.form, name));
      try {
        const winners = optional('winners');
        const draw = createDraw(
          r.service.ctx,
          {
            campaignId,
            mode,
            name: field(r.form, 'name'),
            cutoff: field(r.form, 'cutoff'),
            extractionDate: optional('extraction_date') ?? null,
            winners: winners === undefined ? undefined : parseInteger('winners', winners, WINNERS),
            series: optional('series'),
            element: optional('element'),
            approximation: optional('approximation'),
            emptySeries: optional('empty_series'),
            place: optional('place') ?? null,
            // One prize a line, as `--prize` is given once a position.
            prizes: field(r.form, 'prizes')
              .split(/\r?\n/)
              .filter((l) => l.trim() !== ''),
            oneWinPerDocument: r.form.has('one_win_per_document'),
          },
          r.actor,
        );
        return seeOther(`${drawPath(draw.id)}?done=created`);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return htmlResponse(drawsPage(r, mode, { values: r.form, message: inFormWords(error.message, DRAW_LABELS) }), 422);
      }
    }),
  );
}

/** The create form's labels, as its refusals name the fields. */
const DRAW_LABELS: FieldLabels = {
  name: 'Name',
  cutoff: 'Cut-off',
  extraction_date: 'Extraction date (YYYY-MM-DD)',
  winners: 'Winners',
  series: 'Series digits',
  element: 'Element digits',
  series_digits: 'Series digits',
  element_digits: 'Element digits',
  approximation: 'Approximation',
  empty_series: 'Empty series',
  place: 'Place',
  prize: 'Prizes',
  lucky_numbers: 'Lucky numbers',
};

interface Refused {
  values: URLSearchParams;
  message: string;
}

function drawsPage(r: DashboardRequest, mode: Mode, refused: Refused | null): Html {
  const ctx = r.service.ctx;
  const campaign = getCampaign(ctx, routeParam(r.event, 'id'));
  const draws = listDraws(ctx, campaign.id).filter((d) => d.livemode === (mode === 'live'));
  // Winners found, for the draws that have run (a campaign holds a handful of draws).
  const found = new Map(draws.filter((d) => hasRun(d.status)).map((d) => [d.id, getDraw(ctx, d.id).winners.length]));
  return layout({
    title: `Draws · ${campaign.name}`,
    session: r.session,
    path: campaignPath(campaign.id, '/draws'),
    campaign: { id: campaign.id, name: campaign.name, mode },
    body: renderDraws(campaign, mode, draws, found, r.session, refused),
  });
}

function renderDraws(
  campaign: Campaign,
  mode: Mode,
  draws: Draw[],
  found: Map<string, number>,
  session: DashboardSession,
  refused: Refused | null,
): Html {
  const other = mode === 'live' ? 'test' : 'live';
  return html`<h1>Draws <span class="badge">${mode}</span></h1>
    <p><a href="${drawsPath(campaign.id, other)}">Show ${other} mode</a></p>
    ${
      mode === 'live'
        ? html`<p class="notice error" role="note">
            Live mode: a live draw is the promotion’s real draw. It stays on record and cannot be removed; rehearse in test mode first.
          </p>`
        : null
    }
    <p>
      A draw turns the lucky numbers held at its cut-off into winners, from the five prizes of one Loteria Federal extraction: freeze the
      eligible numbers once the cut-off has passed, enter the prizes, run, check the derivation, then publish (final; it sends
      <code>draw.published</code> to the campaign’s webhook).
    </p>
    <table>
      <caption class="visually-hidden">
        Draws in ${mode} mode
      </caption>
      <thead>
        <tr>
          <th scope="col">Draw</th>
          <th scope="col">Cut-off</th>
          <th scope="col">Status</th>
          <th scope="col" class="num">Eligible numbers</th>
          <th scope="col" class="num">Winners</th>
        </tr>
      </thead>
      <tbody>
        ${
          draws.length === 0
            ? html`<tr>
                <td colspan="5" class="muted">No draws in ${mode} mode.</td>
              </tr>`
            : draws.map(
                (d) =>
                  html`<tr>
                    <td><a href="${drawPath(d.id)}">${d.name}</a></td>
                    <td>${zonedTime(d.cutoff)}</td>
                    <td>${STATUS_TEXT[d.status]}</td>
                    <td class="num">
                      ${d.eligible_count === null ? html`<span class="muted">not frozen</span>` : count(d.eligible_count)}
                    </td>
                    <td class="num">
                      ${found.has(d.id) ? `${count(found.get(d.id)!)} of ${count(d.winners_count)}` : `${count(d.winners_count)} to draw`}
                    </td>
                  </tr>`,
              )
        }
      </tbody>
    </table>
    <h2>Create a draw</h2>
    ${
      campaign.lucky_numbers === 'none'
        ? html`<p class="muted">This campaign gives no lucky numbers (Lucky numbers is none, see Settings): there is nothing to draw.</p>`
        : createForm(campaign, mode, session, refused)
    }`;
}

function createForm(campaign: Campaign, mode: Mode, session: DashboardSession, refused: Refused | null): Html {
  const seriesDefault = defaultSeriesDigits(campaign.series_count).map(formatDigitSource).join(',');
  const elementDefault = defaultElementDigits().map(formatDigitSource).join(',');
  const typed = (name: string, fallback = ''): string => (refused ? (refused.values.get(name) ?? '') : fallback);
  const oneWin = refused ? refused.values.has('one_win_per_document') : true;
  return html`${refused ? html`<p class="notice error" role="alert">${refused.message}</p>` : null}
    <form class="filters" method="post" action="${campaignPath(campaign.id, '/draws')}">
      ${csrfField(session)}
      <input type="hidden" name="mode" value="${mode}" />
      <label for="draw-name">Name <input id="draw-name" name="name" required maxlength="200" value="${typed('name')}" /></label>
      <label for="draw-cutoff"
        >Cut-off (YYYY-MM-DDTHH:MM:SS with its zone; −03:00 is Brasília)
        <input id="draw-cutoff" name="cutoff" required placeholder="2026-12-31T23:59:59-03:00" value="${typed('cutoff')}"
      /></label>
      <label for="draw-extraction-date"
        >Extraction date (YYYY-MM-DD)
        <input
          id="draw-extraction-date"
          name="extraction_date"
          inputmode="numeric"
          pattern="${DATE_PATTERN}"
          placeholder="2026-12-23"
          title="Year, month, day: 2026-12-23"
          required
          value="${typed('extraction_date')}"
      /></label>
      <label for="draw-place">Place <input id="draw-place" name="place" maxlength="1000" value="${typed('place')}" /></label>
      <label for="draw-winners"
        >Winners <input id="draw-winners" name="winners" inputmode="numeric" required value="${typed('winners', '1')}"
      /></label>
      <label for="draw-series"
        >Series digits (default ${seriesDefault === '' ? 'none: one series' : seriesDefault})
        <input id="draw-series" name="series" value="${typed('series', seriesDefault)}"
      /></label>
      <label for="draw-element"
        >Element digits (default ${elementDefault}) <input id="draw-element" name="element" value="${typed('element', elementDefault)}"
      /></label>
      <label for="draw-approximation"
        >Approximation ${select('approximation', APPROXIMATIONS, typed('approximation', 'nearest'), 'draw-approximation')}</label
      >
      <label for="draw-empty-series"
        >Empty series ${select('empty_series', EMPTY_SERIES_RULES, typed('empty_series', 'alternate'), 'draw-empty-series')}</label
      >
      <label for="draw-prizes"
        >Prizes (one a line, DESCRIPTION=VALUE in reais with a dot; one line for every position, or one per position)
        <textarea id="draw-prizes" name="prizes" rows="3" cols="40">${typed('prizes')}</textarea>
      </label>
      <label
        ><span
          ><input name="one_win_per_document" type="checkbox" value="on" ${oneWin ? html` checked` : null} /> One win per document</span
        ></label
      >
      <button type="submit">${mode === 'live' ? 'Create live draw' : 'Create draw'}</button>
    </form>
    <p class="muted">
      Digits are read left to right: <code>&lt;prize&gt;&lt;place&gt;</code> (prize 1 to 5; place <code>u</code> units, <code>d</code> tens,
      <code>c</code> hundreds, <code>m</code> thousands, <code>dm</code> ten-thousands) or <code>=D</code> for a fixed digit. This campaign
      has ${count(campaign.series_count)} series; the element is exactly 5 prize digits (no fixed digit), no digit of a prize is read twice,
      and with more than one series at least one digit of the series comes from a prize. <code>nearest</code> looks for the nearest eligible
      element of the same series (+1, −1, +2 …, above on a tie); <code>above-then-below</code> takes every eligible element above before any
      below; <code>up-wrap</code> takes the next eligible number upwards across series. A series with no eligible number passes the search
      to series +1, −1, +2 … (<code>alternate</code>) or to the lower series first, then upwards (<code>lower-first</code>).
    </p>`;
}
