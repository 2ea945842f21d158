// /dashboard/draws/:drawId: one draw, from creation to publication, as `ces draw show|freeze|results|
// run|disqualify|publish` (src/draws/; each change audited as dashboard:<name>). The page
// shows the settings, the frozen set (count, SHA-256, the canonical list to download), the
// extraction's five prizes, then the winners with the derivation step by step (draw-steps.ts) and
// the disqualified. Disqualifying and publishing ask for a typed confirmation (the winner's number;
// the draw's name): a wrong one is refused (422) and nothing changes. A refused action (a freeze
// before the cut-off, results that are not five prizes, publishing before the run) shows the page
// again with the reason beside the form, with its status (409, 422). Voiding a draw (before
// publication) takes a reason and asks first (confirm.ts). What the page shows once the draw has
// run is draw-outcome.ts; its downloads, draw-files.ts; reading the results from Caixa,
// draw-caixa.ts. After Run (and a disqualification) the page opens at the winners (#winners); after
// Publish it says what became of draw.published as the campaign's webhook stands. Every time shown
// carries its zone (BRT), and dates are typed YYYY-MM-DD.
import { cesCommand } from '../../tools/runtime.ts';
import { getCampaign } from '../../campaigns/campaigns.ts';
import { parseExtractionNumber, WINNERS } from '../../draws/draw-input.ts';
import { formatPrize } from '../../draws/formation.ts';
import { freezeDraw, recordResults, voidDraw } from '../../draws/lifecycle.ts';
import { publishDraw } from '../../draws/publish.ts';
import type { DrawDetail } from '../../draws/model.ts';
import { disqualifyWinner, getRunOutcome, runDraw } from '../../draws/run.ts';
import { canDisqualify, canFreeze, canPublish, canRecordResults, canRun, canVoid, hasRun } from '../../draws/status.ts';
import { getDraw, listWinnerDocuments } from '../../draws/views.ts';
import { parseInteger } from '../../input/integers.ts';
import { AppError } from '../../kernel/errors.ts';
import { confirmFirst } from '../confirm.ts';
import { ordinal } from '../draw-steps.ts';
import { field, inFormWords, type FieldLabels } from '../forms.ts';
import { BRASILIA_ZONE, count, zonedTime } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { campaignPath, layout } from '../layout.ts';
import {
  action,
  csrfField,
  htmlResponse,
  page,
  routeParam,
  seeOther,
  type ActionRequest,
  type Answer,
  type DashboardRequest,
  type DashboardRouter,
} from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';
import { clauseSection, registerDrawFileRoutes, reportLinks } from './draw-files.ts';
import { caixaSection, confirmFromCaixa, readFromCaixa } from './draw-caixa.ts';
import { outcomeSections, refusalNotice, webhookState, WEBHOOK_ON_PUBLISH, type FormName, type Refusal } from './draw-outcome.ts';
import { DATE_PATTERN, drawPath, drawsPath, STATUS_TEXT } from './draws.ts';
import type { FetchedExtraction } from '../../draws/loteria.ts';

/** What a finished action says on the page it leads back to (?done=…); fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
  created: 'Draw created. Freeze it once its cut-off has passed.',
  frozen: 'Frozen: the eligible numbers are fixed; their count and SHA-256 are below.',
  results: 'Results recorded.',
  fetched: 'Results recorded, as read from Caixa.',
  run: 'The draw has run: check the winners and the derivation below, then publish.',
  disqualified: 'Winner disqualified; the position was filled again as the derivation shows.',
  published: `Published: the winners are final. ${WEBHOOK_ON_PUBLISH.active}`,
  'published-paused': `Published: the winners are final. ${WEBHOOK_ON_PUBLISH.paused}`,
  'published-unconfigured': `Published: the winners are final. ${WEBHOOK_ON_PUBLISH.none}`,
  voided: 'Voided: the draw stays listed, and its extraction may decide a new draw, whose record names this one.',
};

/** Where the page opens after an action: at the winners once they exist. */
const OPENS_AT: Partial<Record<string, string>> = { run: '#winners', disqualified: '#winners' };

const PRIZES = [1, 2, 3, 4, 5] as const;

export function registerDrawRoutes(router: DashboardRouter): void {
  router.get(
    '/draws/:drawId',
    page((r) => drawPage(r, routeParam(r.event, 'drawId'), null)),
  );
  router.post(
    '/draws/:drawId/freeze',
    action((r) =>
      change(r, 'freeze', 'frozen', (id) =>
        freezeDraw(r.service.ctx, id, r.actor, { force: field(r.form, 'force') === 'yes', reason: field(r.form, 'reason') }),
      ),
    ),
  );
  router.post(
    '/draws/:drawId/results',
    action((r) =>
      change(r, 'results', 'results', (id) =>
        recordResults(
          r.service.ctx,
          id,
          {
            extraction: parseExtractionNumber(field(r.form, 'extraction')),
            date: field(r.form, 'date'),
            prizes: PRIZES.map((p) => field(r.form, `prize${p}`)),
            reason: field(r.form, 'reason'),
          },
          r.actor,
        ),
      ),
    ),
  );
  router.post(
    '/draws/:drawId/run',
    action((r) => change(r, 'run', 'run', (id) => runDraw(r.service.ctx, id, r.actor))),
  );
  router.post(
    '/draws/:drawId/disqualify',
    action((r) =>
      change(r, 'disqualify', 'disqualified', (id) => {
        const position = parseInteger('position', field(r.form, 'position'), WINNERS);
        const winner = getDraw(r.service.ctx, id).winners.find((w) => w.position === position);
        // No current winner there: the domain says why (not run, published, no such position).
        if (winner !== undefined && field(r.form, 'confirm').trim() !== winner.number)
          throw new AppError(
            422,
            'confirmation_mismatch',
            `The confirmation does not match the number of the winner at position ${position}: nothing changed. Type that winner’s number (S/EEEEE, as in the winners table) to disqualify them.`,
          );
        return disqualifyWinner(r.service.ctx, id, { position, reason: field(r.form, 'reason') }, r.actor);
      }),
    ),
  );
  router.post(
    '/draws/:drawId/publish',
    action((r) =>
      change(
        r,
        'publish',
        () => publishedDone(r),
        (id) => {
          const draw = getDraw(r.service.ctx, id);
          if (canPublish(draw.status) && field(r.form, 'confirm').trim() !== draw.name)
            throw new AppError(
              422,
              'confirmation_mismatch',
              'The confirmation does not match the draw’s name: nothing was published. Type the name exactly to publish.',
            );
          return publishDraw(r.service.ctx, id, r.actor, `${cesCommand()} draw numbers ${id}`);
        },
      ),
    ),
  );
  router.post(
    '/draws/:drawId/void',
    action((r) => {
      const id = routeParam(r.event, 'drawId');
      const draw = getDraw(r.service.ctx, id);
      // Asked only when it would be done: a refusal (published, no reason) is shown at once.
      if (canVoid(draw.status) && field(r.form, 'reason').trim() !== '') {
        const confirmation = confirmFirst(r, {
          question: `Void draw ${draw.name}?`,
          consequence: `The draw is voided for good: it stays listed with its reason, nothing more can be done with it, and its extraction may then decide a new draw, whose record names this one.${hasRun(draw.status) ? ' Its winners are dropped.' : ''}`,
          button: 'Void the draw',
          back: drawPath(id),
          campaign: {
            id: draw.campaign_id,
            name: getCampaign(r.service.ctx, draw.campaign_id).name,
            mode: draw.livemode ? 'live' : 'test',
          },
        });
        if (confirmation) return confirmation;
      }
      return change(r, 'void', 'voided', (drawId) => voidDraw(r.service.ctx, drawId, { reason: field(r.form, 'reason') }, r.actor));
    }),
  );
  router.post(
    '/draws/:drawId/fetch',
    action(async (r) => {
      const id = routeParam(r.event, 'drawId');
      try {
        return drawPage(r, id, null, await readFromCaixa(r.service.ctx, id, r.form));
      } catch (error) {
        // Caixa unreachable (503), no such extraction yet (404), an answer that cannot be used (502): said beside the form.
        if (!(error instanceof AppError) || error.status < 400 || error.status === 500) throw error;
        return htmlResponse(
          drawPage(r, id, { form: 'fetch', message: inFormWords(error.message, DRAW_PAGE_LABELS), values: r.form }),
          error.status,
        );
      }
    }),
  );
  router.post(
    '/draws/:drawId/fetch/confirm',
    action((r) => change(r, 'fetch', 'fetched', (id) => confirmFromCaixa(r.service.ctx, id, r.form, r.actor))),
  );
  registerDrawFileRoutes(router);
}

/** The notice after publishing, as the campaign's webhook stands now: the state draw.published met. */
function publishedDone(r: ActionRequest): keyof typeof DONE {
  const draw = getDraw(r.service.ctx, routeParam(r.event, 'drawId'));
  const state = webhookState(r.service.ctx, draw.campaign_id);
  return state === 'active' ? 'published' : state === 'paused' ? 'published-paused' : 'published-unconfigured';
}

/** The labels of the page's forms, as their refusals name the fields. */
const DRAW_PAGE_LABELS: FieldLabels = {
  position: 'Position',
  reason: 'Reason',
  extraction: 'Extraction number',
  date: 'Extraction date (YYYY-MM-DD)',
};

/** Runs an action; a refusal of the domain (409, 422) shows the page again with its reason beside the form. */
async function change(
  r: ActionRequest,
  form: FormName,
  done: keyof typeof DONE | (() => keyof typeof DONE),
  run: (id: string) => unknown,
): Promise<Answer> {
  const id = routeParam(r.event, 'drawId');
  try {
    await run(id);
  } catch (error) {
    // A refusal, or Caixa failing on a confirmation (404, 502, 503): shown beside the form.
    const caixa = form === 'fetch' && error instanceof AppError && error.code.startsWith('loteria_');
    if (!(error instanceof AppError) || (error.status !== 409 && error.status !== 422 && !caixa)) throw error;
    return htmlResponse(drawPage(r, id, { form, message: inFormWords(error.message, DRAW_PAGE_LABELS), values: r.form }), error.status);
  }
  const key = typeof done === 'function' ? done() : done;
  return seeOther(`${drawPath(id)}?done=${key}${OPENS_AT[key] ?? ''}`);
}

function drawPage(r: DashboardRequest, id: string, refusal: Refusal | null, read: FetchedExtraction | null = null): Html {
  const ctx = r.service.ctx;
  const draw = getDraw(ctx, id);
  const campaign = getCampaign(ctx, draw.campaign_id);
  const mode = draw.livemode ? 'live' : 'test';
  const outcome = hasRun(draw.status) ? getRunOutcome(ctx, id) : null;
  const documents = hasRun(draw.status) ? listWinnerDocuments(ctx, id) : new Map<string, string>();
  const doneKey = refusal ? '' : (r.event.url.searchParams.get('done') ?? '');
  const done = Object.hasOwn(DONE, doneKey) ? DONE[doneKey] : undefined;
  const doneNotice = done ? html`<p class="notice success" role="status">${done}</p>` : null;
  // After Run the page opens at the winners: the notice is shown there, where the operator looks.
  const atWinners = OPENS_AT[doneKey] !== undefined;
  const cutoffPassed = ctx.clock.now() >= Date.parse(draw.cutoff);
  return layout({
    title: `${draw.name} · Draws · ${campaign.name}`,
    session: r.session,
    path: campaignPath(campaign.id, '/draws'),
    campaign: { id: campaign.id, name: campaign.name, mode },
    body: html`<h1>Draw ${draw.name} <span class="badge">${STATUS_TEXT[draw.status]}</span></h1>
      <p><a href="${drawsPath(campaign.id, mode)}">All draws of ${campaign.name} (${mode})</a></p>
      ${atWinners ? null : doneNotice}
      ${refusal && !formShown(draw, refusal.form) ? html`<p class="notice error" role="alert">${refusal.message}</p>` : null}
      <p class="muted">Times are ${BRASILIA_ZONE}, shown as BRT: the record’s “horário de Brasília”.</p>
      ${settingsTable(draw)}
      <h2>Eligible numbers</h2>
      ${frozenSection(draw, cutoffPassed, r.session, refusal)}
      <h2>Loteria Federal results</h2>
      ${resultsSection(draw, r.session, refusal, read)} ${runSection(draw, r.session, refusal)}
      ${
        outcome
          ? html`<div id="winners">
              ${atWinners ? doneNotice : null}
              ${outcomeSections(draw, outcome, documents, r.session, refusal, webhookState(ctx, draw.campaign_id))}
            </div>`
          : null
      }
      ${outcome ? reportLinks(draw) : null} ${clauseSection(ctx, draw)} ${voidSection(draw, r.session, refusal)}`,
  });
}

/** Whether the page shows the form of that action now (its refusal is shown beside it, else at the top). */
function formShown(draw: DrawDetail, form: FormName): boolean {
  if (form === 'void') return canVoid(draw.status);
  if (form === 'freeze') return canFreeze(draw.status);
  if (form === 'results' || form === 'fetch') return canRecordResults(draw.status);
  if (form === 'run') return canRun(draw.status);
  return canDisqualify(draw.status);
}

function settingsTable(draw: DrawDetail): Html {
  const row = (label: string, value: Html | string): Html =>
    html`<tr>
      <th scope="row">${label}</th>
      <td>${value}</td>
    </tr>`;
  return html`<table>
    <caption class="visually-hidden">
      Settings of the draw
    </caption>
    <tbody>
      ${row('Mode', draw.livemode ? 'live' : 'test')} ${row('Cut-off', zonedTime(draw.cutoff))}
      ${row('Extraction date (planned)', draw.extraction_date ?? html`<span class="muted">not set</span>`)}
      ${row('Winners', count(draw.winners_count))}
      ${row('Series digits', draw.series_digits === '' ? 'none (one series)' : html`<code>${draw.series_digits}</code>`)}
      ${row('Element digits', html`<code>${draw.element_digits}</code>`)} ${row('Series in the campaign', count(draw.series_count))}
      ${row('Approximation', html`<code>${draw.approximation}</code>`)} ${row('Empty series', html`<code>${draw.empty_series}</code>`)}
      ${row('Place', draw.place ?? html`<span class="muted">not set</span>`)}
      ${row(
        'Prizes',
        draw.prizes === null
          ? html`<span class="muted">not set</span>`
          : draw.prizes.map((p) => `${p.position}. ${p.description} (R$ ${p.value})`).join('; '),
      )}
      ${row('One win per document', draw.one_win_per_document ? 'yes' : 'no')} ${row('Created', zonedTime(draw.created_at))}
      ${row('Draw id', html`<span class="mono">${draw.id}</span>`)}
    </tbody>
  </table>`;
}

function frozenSection(draw: DrawDetail, cutoffPassed: boolean, session: DashboardSession, refusal: Refusal | null): Html {
  if (draw.status === 'voided' && draw.frozen_at === null) return html`<p class="muted">Voided before the freeze.</p>`;
  if (canFreeze(draw.status))
    return html`<p>
        Not frozen yet. The cut-off is ${zonedTime(draw.cutoff)}:
        ${cutoffPassed ? 'it has passed; freezing now fixes the eligible numbers for good.' : 'until it passes, freezing is refused.'}
      </p>
      ${refusalNotice(refusal, 'freeze')}
      <form class="filters" method="post" action="${drawPath(draw.id, '/freeze')}">
        ${csrfField(session)}
        <button type="submit">Freeze</button>
      </form>
      <details ${refusal?.form === 'freeze' && refusal.values.get('force') === 'yes' ? 'open' : ''}>
        <summary>Freeze although entries are pending</summary>
        <p class="muted">
          Entries received by the cut-off and still pending verification would be left out for good. Only when they cannot be processed in
          time: the record prints how many were pending and the reason.
        </p>
        <form class="filters" method="post" action="${drawPath(draw.id, '/freeze')}">
          ${csrfField(session)}
          <input type="hidden" name="force" value="yes" />
          <label for="freeze-reason">Why it cannot wait <input id="freeze-reason" name="reason" required size="40" /></label>
          <button type="submit" class="danger">Freeze anyway</button>
        </form>
      </details>`;
  return html`<dl class="figures">
      <div>
        <dt>Eligible numbers</dt>
        <dd>${count(draw.eligible_count ?? 0)}</dd>
      </div>
      <div>
        <dt>Frozen</dt>
        <dd>${zonedTime(draw.frozen_at)}</dd>
      </div>
    </dl>
    <p>SHA-256 of the canonical list (<code>numbers_sha256</code>): <code class="mono" id="numbers-sha256">${draw.numbers_sha256}</code></p>
    <p>
      <a href="${drawPath(draw.id, '/numbers')}" download>Download the numbers (text)</a>
      <span class="muted">one <code>S/EEEEE</code> a line, ascending: the list whose SHA-256 this is.</span>
    </p>
    ${
      draw.holders_sha256 === null
        ? null
        : html`<p>
            SHA-256 of the holders list (<code>holders_sha256</code>, one <code>S/EEEEE;H</code> a line, H the holder's index):
            <code class="mono" id="holders-sha256">${draw.holders_sha256}</code>
          </p>`
    }`;
}

function resultsSection(draw: DrawDetail, session: DashboardSession, refusal: Refusal | null, read: FetchedExtraction | null): Html {
  const x = draw.extraction;
  const shown = x
    ? html`<table>
        <caption class="visually-hidden">
          The extraction
        </caption>
        <tbody>
          <tr>
            <th scope="row">Extraction</th>
            <td>${x.number}</td>
          </tr>
          <tr>
            <th scope="row">Date</th>
            <td>${x.date}</td>
          </tr>
          ${x.prizes.map(
            (p, i) =>
              html`<tr>
                <th scope="row">${ordinal(i + 1)} prize</th>
                <td class="mono">${formatPrize(p)}</td>
              </tr>`,
          )}
          <tr>
            <th scope="row">Recorded</th>
            <td>${zonedTime(x.recorded_at)}</td>
          </tr>
        </tbody>
      </table>`
    : html`<p class="muted">Not entered yet.</p>`;
  if (!canRecordResults(draw.status)) return shown;
  const typed = (name: string, fallback: string): string => (refusal?.form === 'results' ? (refusal.values.get(name) ?? '') : fallback);
  return html`${shown}
    <h3>${x ? 'Correct the results' : 'Enter the results'}</h3>
    ${refusalNotice(refusal, 'results')}
    <form class="filters" method="post" action="${drawPath(draw.id, '/results')}">
      ${csrfField(session)}
      <label for="results-extraction"
        >Extraction number
        <input
          id="results-extraction"
          name="extraction"
          inputmode="numeric"
          required
          value="${typed('extraction', x ? String(x.number) : '')}"
      /></label>
      <label for="results-date"
        >Extraction date (YYYY-MM-DD)
        <input
          id="results-date"
          name="date"
          required
          inputmode="numeric"
          pattern="${DATE_PATTERN}"
          placeholder="2026-12-23"
          title="Year, month, day: 2026-12-23"
          value="${typed('date', x?.date ?? draw.extraction_date ?? '')}"
      /></label>
      ${PRIZES.map(
        (p) =>
          html`<label for="results-prize${p}"
            >${ordinal(p)} prize
            <input
              id="results-prize${p}"
              name="prize${p}"
              inputmode="numeric"
              required
              maxlength="6"
              size="7"
              value="${typed(`prize${p}`, x ? formatPrize(x.prizes[p - 1]!) : '')}"
          /></label>`,
      )}
      <label for="results-reason"
        >Why (an extraction later than planned, or a correction)
        <input id="results-reason" name="reason" size="40" value="${typed('reason', '')}"
      /></label>
      <button type="submit">Record results</button>
    </form>
    <p class="muted">Each prize as Caixa publishes it: 5 digits, or 6 with a leading 0. Recording the results freezes the draw first.</p>
    ${caixaSection(draw, session, refusal, read)}`;
}

function runSection(draw: DrawDetail, session: DashboardSession, refusal: Refusal | null): Html | null {
  if (!canRun(draw.status)) return null;
  return html`<h2>Run</h2>
    ${refusalNotice(refusal, 'run')}
    ${
      draw.extraction === null
        ? html`<p class="muted">Enter the results first: the winners come from their five prizes.</p>`
        : html`<p>
              Running forms the number from the prizes and picks the winners from the frozen numbers. The outcome can still be checked, and
              winners disqualified, before publishing.
            </p>
            <form class="filters" method="post" action="${drawPath(draw.id, '/run')}">
              ${csrfField(session)}
              <button type="submit">Run draw</button>
            </form>`
    }`;
}

/** A voided draw's reason; before publication, the form that voids it (with a reason, asked first). */
function voidSection(draw: DrawDetail, session: DashboardSession, refusal: Refusal | null): Html | null {
  if (draw.status === 'voided')
    return html`<h2>Voided</h2>
      <p>Voided ${zonedTime(draw.voided_at)} by ${draw.voided_by ?? 'someone unrecorded'}: ${draw.void_reason}</p>`;
  if (!canVoid(draw.status)) return null;
  return html`<h2>Void</h2>
    <p>
      A draw set up by mistake is voided, never deleted: it stays listed with its reason, and its extraction may then decide a new draw,
      whose record names this one. A published draw cannot be voided.
    </p>
    ${refusalNotice(refusal, 'void')}
    <form class="filters" method="post" action="${drawPath(draw.id, '/void')}">
      ${csrfField(session)}
      <label for="void-reason"
        >Why it is voided
        <input
          id="void-reason"
          name="reason"
          required
          size="40"
          value="${refusal?.form === 'void' ? (refusal.values.get('reason') ?? '') : ''}"
      /></label>
      <button type="submit" class="danger">Void…</button>
    </form>`;
}
