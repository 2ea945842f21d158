// /dashboard/campaigns/:id/prizes?mode=live|test: the campaign's prizes with their stock and, for a
// WINDOW campaign, its prize windows (counts per prize and the next ones to be claimed), as
// `ces prize add|list` and `ces window add|list` (src/mechanics/prizes.ts, windows.ts; audited as
// dashboard:<name>). A refused form comes back with the domain's messages beside its fields (422).
import type { HTTPResponse } from 'h3';
import { getCampaign, type Campaign } from '../../campaigns/campaigns.ts';
import { parseDecimal } from '../../kernel/numbers.ts';
import { toMode, type Mode } from '../../keys/keys.ts';
import { addPrize, listOperatorPrizes, type OperatorPrize } from '../../mechanics/prizes.ts';
import { addWindows, summarizePrizeWindows, type WindowsOverview } from '../../mechanics/windows.ts';
import { errorFor, field, fieldErrors, inFormWords, isRefusal, type FieldLabels } from '../forms.ts';
import { count, time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { campaignPath, layout } from '../layout.ts';
import { action, csrfField, htmlResponse, page, routeParam, seeOther, type DashboardRequest, type DashboardRouter } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';

/** Unclaimed windows listed (the counts cover them all). */
const NEXT_WINDOWS = 20;

export function registerPrizesRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/:id/prizes',
    page((r) => prizesPage(r, formMode(r.event.url.searchParams.get('mode')), null)),
  );
  router.post(
    '/campaigns/:id/prizes',
    action((r) => {
      const campaignId = routeParam(r.event, 'id');
      const mode = formMode(field(r.form, 'mode'));
      return refusedAsForm(r, mode, 'prize', () => {
        addPrize(
          r.service.ctx,
          {
            campaignId,
            mode,
            name: field(r.form, 'name'),
            type: field(r.form, 'type'),
            unitValue: parseDecimal(field(r.form, 'unit_value')),
            stock: parseDecimal(field(r.form, 'stock')),
          },
          r.actor,
        );
        return seeOther(prizesPath(campaignId, mode));
      });
    }),
  );
  router.post(
    '/campaigns/:id/prizes/windows',
    action((r) => {
      const campaignId = routeParam(r.event, 'id');
      const mode = formMode(field(r.form, 'mode'));
      // A field left blank is not given (the defaults apply), unlike the CLI's `--count ""`, refused.
      const optional = (name: string): string | undefined => (field(r.form, name).trim() === '' ? undefined : field(r.form, name).trim());
      const optionalNumber = (name: string): number | undefined => {
        const text = optional(name);
        return text === undefined ? undefined : parseDecimal(text);
      };
      return refusedAsForm(r, mode, 'window', () => {
        addWindows(
          r.service.ctx,
          {
            campaignId,
            mode,
            prizeId: field(r.form, 'prize'),
            opensAt: field(r.form, 'opens_at').trim(),
            count: optionalNumber('count'),
            every: optionalNumber('every'),
            until: optional('until'),
          },
          r.actor,
        );
        return seeOther(prizesPath(campaignId, mode));
      });
    }),
  );
}

const prizesPath = (campaignId: string, mode: Mode): string =>
  `${campaignPath(campaignId, '/prizes')}${mode === 'test' ? '?mode=test' : ''}`;

/** The mode of the URL or the form; live when absent or empty. */
const formMode = (value: string | null): Mode => toMode(value === null || value === '' ? 'live' : value);

interface Refused {
  form: 'prize' | 'window';
  values: URLSearchParams;
  errors: Map<string, string>;
  message: string;
}

/** The labels of the two forms, as their refusals name the fields. */
const LABELS: Record<Refused['form'], FieldLabels> = {
  prize: { name: 'Name', type: 'Type', unit_value: 'Unit value', stock: 'Stock' },
  window: { prize: 'Prize', opens_at: 'Opens at', count: 'Count', every: 'Every', until: 'Until' },
};

/** Runs the change; a 422 from the domain shows the page again with the typed values and the errors. */
function refusedAsForm(
  r: DashboardRequest & { form: URLSearchParams },
  mode: Mode,
  which: Refused['form'],
  change: () => HTTPResponse,
): HTTPResponse {
  try {
    return change();
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const labels = LABELS[which];
    const refused: Refused = {
      form: which,
      values: r.form,
      errors: fieldErrors(error, labels),
      message: inFormWords(error.message, labels),
    };
    return htmlResponse(prizesPage(r, mode, refused), 422);
  }
}

function prizesPage(r: DashboardRequest, mode: Mode, refused: Refused | null): Html {
  const ctx = r.service.ctx;
  const campaign = getCampaign(ctx, routeParam(r.event, 'id'));
  const prizes = listOperatorPrizes(ctx, campaign.id, mode);
  const windows = campaign.instant_prize === 'WINDOW' ? summarizePrizeWindows(ctx, campaign.id, mode, NEXT_WINDOWS) : null;
  return layout({
    title: `Prizes · ${campaign.name}`,
    session: r.session,
    path: campaignPath(campaign.id, '/prizes'),
    campaign: { id: campaign.id, name: campaign.name, mode },
    body: renderPrizes(campaign, mode, prizes, windows, r.session, refused),
  });
}

function renderPrizes(
  campaign: Campaign,
  mode: Mode,
  prizes: OperatorPrize[],
  windows: WindowsOverview | null,
  session: DashboardSession,
  refused: Refused | null,
): Html {
  const path = campaignPath(campaign.id, '/prizes');
  const other = mode === 'live' ? 'test' : 'live';
  const prizeName = new Map(prizes.map((p) => [p.id, p.name]));
  const typed = (form: Refused['form'], name: string, fallback = ''): string =>
    refused?.form === form ? (refused.values.get(name) ?? fallback) : fallback;
  const errors = (form: Refused['form']): Map<string, string> => (refused?.form === form ? refused.errors : new Map());
  return html`<h1>Prizes and windows <span class="badge">${mode}</span></h1>
    <p><a href="${path}${other === 'test' ? '?mode=test' : ''}">Show ${other} mode</a></p>
    ${refused ? html`<p class="notice error" role="alert">${refused.message}</p>` : null}
    <table>
      <caption class="visually-hidden">
        Prizes in ${mode} mode
      </caption>
      <thead>
        <tr>
          <th scope="col">Prize</th>
          <th scope="col">Type</th>
          <th scope="col" class="num">Unit value</th>
          <th scope="col" class="num">Initial stock</th>
          <th scope="col" class="num">In stock</th>
          <th scope="col" class="num">Awarded beyond the pool</th>
          <th scope="col">Added</th>
        </tr>
      </thead>
      <tbody>
        ${
          prizes.length === 0
            ? html`<tr>
                <td colspan="7" class="muted">No prizes in ${mode} mode.</td>
              </tr>`
            : prizes.map(
                (p) =>
                  html`<tr>
                    <td>${p.name} <span class="muted mono">${p.id}</span></td>
                    <td>${p.type}</td>
                    <td class="num">${p.unit_value.toFixed(2)}</td>
                    <td class="num">${count(p.initial_stock)}</td>
                    <td class="num">
                      ${count(p.current_stock)}
                      <meter min="0" max="${Math.max(p.initial_stock, 1)}" value="${p.current_stock}">${count(p.current_stock)}</meter>
                    </td>
                    <td class="num">${count(p.awarded_beyond_pool)}</td>
                    <td>${time(p.created_at)}</td>
                  </tr>`,
              )
        }
      </tbody>
    </table>
    <h2>Add a prize</h2>
    ${addPrizeForm(path, mode, session, typed, errors('prize'))}
    <h2>Prize windows</h2>
    ${
      windows === null
        ? html`<p class="muted">
            This campaign's instant-prize mechanic is <code>${campaign.instant_prize}</code>: windows are for WINDOW campaigns (see
            Settings).
          </p>`
        : html`${windowsTables(windows, prizeName)}
            <h3>Add windows</h3>
            ${addWindowsForm(path, mode, prizes, session, typed, errors('window'))}`
    }`;
}

type Typed = (form: Refused['form'], name: string, fallback?: string) => string;

function addPrizeForm(path: string, mode: Mode, session: DashboardSession, typed: Typed, errors: Map<string, string>): Html {
  return html`<form class="filters" method="post" action="${path}">
    ${csrfField(session)}
    <input type="hidden" name="mode" value="${mode}" />
    <label for="prize-name"
      >Name
      <input id="prize-name" name="name" required maxlength="200" value="${typed('prize', 'name')}" /> ${errorFor(errors, 'name')}</label
    >
    <label for="prize-type"
      >Type
      <input id="prize-type" name="type" required maxlength="200" placeholder="voucher" value="${typed('prize', 'type')}" />
      ${errorFor(errors, 'type')}</label
    >
    <label for="prize-value"
      >Unit value
      <input id="prize-value" name="unit_value" inputmode="decimal" required value="${typed('prize', 'unit_value')}" />
      ${errorFor(errors, 'unit_value')}</label
    >
    <label for="prize-stock"
      >Stock
      <input id="prize-stock" name="stock" inputmode="numeric" required value="${typed('prize', 'stock')}" />
      ${errorFor(errors, 'stock')}</label
    >
    <button type="submit">Add prize</button>
  </form>`;
}

function windowsTables(w: WindowsOverview, prizeName: Map<string, string>): Html {
  return html`<table>
      <caption class="visually-hidden">
        Windows still to be won, per prize
      </caption>
      <thead>
        <tr>
          <th scope="col">Prize</th>
          <th scope="col" class="num">Windows not yet claimed</th>
          <th scope="col">Next one opens</th>
        </tr>
      </thead>
      <tbody>
        ${
          w.byPrize.length === 0
            ? html`<tr>
                <td colspan="3" class="muted">No window left to win.</td>
              </tr>`
            : w.byPrize.map(
                (p) =>
                  html`<tr>
                    <td>${prizeName.get(p.prize_id) ?? p.prize_id}</td>
                    <td class="num">${count(p.unclaimed)}</td>
                    <td>${time(p.next_opens_at)}</td>
                  </tr>`,
              )
        }
      </tbody>
    </table>
    ${
      w.next.length === 0
        ? null
        : html`<h3>Next windows to be claimed</h3>
            <table>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">Prize</th>
                  <th scope="col">Opens</th>
                </tr>
              </thead>
              <tbody>
                ${w.next.map(
                  (x) =>
                    html`<tr>
                      <td class="num">${x.id}</td>
                      <td>${prizeName.get(x.prize_id) ?? x.prize_id}</td>
                      <td>${time(x.opens_at)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
    }`;
}

function addWindowsForm(
  path: string,
  mode: Mode,
  prizes: OperatorPrize[],
  session: DashboardSession,
  typed: Typed,
  errors: Map<string, string>,
): Html {
  if (prizes.length === 0) return html`<p class="muted">Add a prize first: each window gives one unit of a prize.</p>`;
  const chosen = typed('window', 'prize', prizes[0].id);
  return html`<form class="filters" method="post" action="${path}/windows">
    ${csrfField(session)}
    <input type="hidden" name="mode" value="${mode}" />
    <label for="window-prize"
      >Prize
      <select id="window-prize" name="prize">
        ${prizes.map((p) => html`<option value="${p.id}" ${p.id === chosen ? html` selected` : null}>${p.name}</option>`)}
      </select>
      ${errorFor(errors, 'prize')}</label
    >
    <label for="window-opens"
      >Opens at (ISO 8601 with zone)
      <input id="window-opens" name="opens_at" required placeholder="2026-12-01T10:00:00-03:00" value="${typed('window', 'opens_at')}" />
      ${errorFor(errors, 'opens_at')}</label
    >
    <label for="window-count"
      >Count
      <input id="window-count" name="count" inputmode="numeric" value="${typed('window', 'count', '1')}" />
      ${errorFor(errors, 'count')}</label
    >
    <label for="window-every"
      >Every (seconds, optional)
      <input id="window-every" name="every" inputmode="decimal" value="${typed('window', 'every')}" /> ${errorFor(errors, 'every')}</label
    >
    <label for="window-until"
      >Or until (ISO 8601, optional)
      <input id="window-until" name="until" value="${typed('window', 'until')}" /> ${errorFor(errors, 'until')}</label
    >
    <button type="submit">Add windows</button>
  </form>`;
}
