// /dashboard/draws/:drawId: one draw, from creation to publication, as `ces draw show|freeze|results|
// run|disqualify|publish` (src/draws/; each change audited as dashboard:<name>). The page
// shows the settings, the frozen set (count, SHA-256, the canonical list to download), the
// extraction's five prizes, then the winners with the derivation step by step (draw-steps.ts) and
// the disqualified. Disqualifying and publishing ask for a typed confirmation (the winner's number;
// the draw's name): a wrong one is refused (422) and nothing changes. A refused action (a freeze
// before the cut-off, results that are not five prizes, publishing before the run) shows the page
// again with the reason beside the form, with its status (409, 422). Voiding a draw (before
// publication) takes a reason and asks first (confirm.ts). The sections of the steps up to the run
// are draw-sections.ts; what the page shows once the draw has run, draw-outcome.ts; its downloads,
// draw-files.ts; reading the results from Caixa, draw-caixa.ts. After Run (and a disqualification) the page opens at the winners (#winners); after
// Publish it says what became of draw.published as the campaign's webhook stands. Every time shown
// carries its zone (BRT), and dates are typed YYYY-MM-DD.
import { cesCommand } from '../../tools/runtime.ts';
import { getCampaign } from '../../campaigns/campaigns.ts';
import { parseExtractionNumber, WINNERS } from '../../draws/draw-input.ts';
import { freezeDraw, recordResults, voidDraw } from '../../draws/lifecycle.ts';
import { publishDraw } from '../../draws/publish.ts';
import { disqualifyWinner, getRunOutcome, runDraw } from '../../draws/run.ts';
import { canPublish, canVoid, hasRun } from '../../draws/status.ts';
import { getDraw, listWinnerDocuments } from '../../draws/views.ts';
import { parseInteger } from '../../input/integers.ts';
import { AppError } from '../../kernel/errors.ts';
import { confirmFirst } from '../confirm.ts';
import { field, inFormWords, type FieldLabels } from '../forms.ts';
import { BRASILIA_ZONE } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { campaignPath, layout } from '../layout.ts';
import {
  action,
  htmlResponse,
  page,
  routeParam,
  seeOther,
  type ActionRequest,
  type Answer,
  type DashboardRequest,
  type DashboardRouter,
} from '../kit.ts';
import { clauseSection, registerDrawFileRoutes, reportLinks } from './draw-files.ts';
import { confirmFromCaixa, readFromCaixa } from './draw-caixa.ts';
import { outcomeSections, webhookState, WEBHOOK_ON_PUBLISH, type FormName, type Refusal } from './draw-outcome.ts';
import { drawPath, drawsPath, STATUS_TEXT } from './draws.ts';
import { formShown, frozenSection, PRIZES, resultsSection, runSection, settingsTable, voidSection } from './draw-sections.ts';
import type { FetchedExtraction } from '../../draws/loteria.ts';

/**
 * What a finished action says on the page it leads back to (?done=…); fixed texts, nothing from the
 * URL is shown. A Map, not an object: `?done=constructor` is no key of it (an object's lookup reached
 * Object.prototype).
 */
type Done =
  | 'created'
  | 'frozen'
  | 'results'
  | 'fetched'
  | 'run'
  | 'disqualified'
  | 'published'
  | 'published-paused'
  | 'published-unconfigured'
  | 'voided';
const DONE: ReadonlyMap<string, string> = new Map<Done, string>([
  ['created', 'Draw created. Freeze it once its cut-off has passed.'],
  ['frozen', 'Frozen: the eligible numbers are fixed; their count and SHA-256 are below.'],
  ['results', 'Results recorded.'],
  ['fetched', 'Results recorded, as read from Caixa.'],
  ['run', 'The draw has run: check the winners and the derivation below, then publish.'],
  ['disqualified', 'Winner disqualified; the position was filled again as the derivation shows.'],
  ['published', `Published: the winners are final. ${WEBHOOK_ON_PUBLISH.active}`],
  ['published-paused', `Published: the winners are final. ${WEBHOOK_ON_PUBLISH.paused}`],
  ['published-unconfigured', `Published: the winners are final. ${WEBHOOK_ON_PUBLISH.none}`],
  ['voided', 'Voided: the draw stays listed, and its extraction may decide a new draw, whose record names this one.'],
]);

/** Where the page opens after an action: at the winners once they exist. */
const OPENS_AT = new Map<string, string>([
  ['run', '#winners'],
  ['disqualified', '#winners'],
]);

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
        if (winner !== undefined && !confirmsNumber(field(r.form, 'confirm'), winner))
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

/**
 * The typed confirmation names the winner's number: series and element compared as numbers, as the
 * position is, so that every spelling of the same number (`1/02345`, `01/02345`, ` 1 / 2345 `)
 * confirms alike and no other does.
 */
function confirmsNumber(typed: string, winner: { series: number; element: number }): boolean {
  const parts = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(typed);
  return parts !== null && Number(parts[1]) === winner.series && Number(parts[2]) === winner.element;
}

/** The notice after publishing, as the campaign's webhook stands now: the state draw.published met. */
function publishedDone(r: ActionRequest): Done {
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
async function change(r: ActionRequest, form: FormName, done: Done | (() => Done), run: (id: string) => unknown): Promise<Answer> {
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
  return seeOther(`${drawPath(id)}?done=${key}${OPENS_AT.get(key) ?? ''}`);
}

function drawPage(r: DashboardRequest, id: string, refusal: Refusal | null, read: FetchedExtraction | null = null): Html {
  const ctx = r.service.ctx;
  const draw = getDraw(ctx, id);
  const campaign = getCampaign(ctx, draw.campaign_id);
  const mode = draw.livemode ? 'live' : 'test';
  const outcome = hasRun(draw.status) ? getRunOutcome(ctx, id) : null;
  const documents = hasRun(draw.status) ? listWinnerDocuments(ctx, id) : new Map<string, string>();
  const doneKey = refusal ? '' : (r.event.url.searchParams.get('done') ?? '');
  const done = DONE.get(doneKey);
  const doneNotice = done ? html`<p class="notice success" role="status">${done}</p>` : null;
  // After Run the page opens at the winners: the notice is shown there, where the operator looks.
  const atWinners = done !== undefined && OPENS_AT.has(doneKey);
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
