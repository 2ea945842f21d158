// "Fetch from Caixa" on a draw's page, as `ces draw results --fetch`: the extraction is read from
// Caixa's results API (src/draws/loteria.ts, config loteriaUrl), shown to the operator, and recorded
// only when they confirm it. Confirming reads Caixa again and records the results only if its answer
// is still the one shown: what is recorded as "from Caixa" is what Caixa said and what the operator
// saw, whatever the form sent back (409 loteria_answer_changed otherwise, nothing recorded). The
// confirmation carries the reason an extraction later than planned needs, as typed results do.
import type { Actor } from '../../audit/actor.ts';
import { parseExtractionNumber } from '../../draws/draw-input.ts';
import { formatPrize } from '../../draws/formation.ts';
import { recordResults } from '../../draws/lifecycle.ts';
import { fetchFederalResult, type FetchedExtraction } from '../../draws/loteria.ts';
import type { DrawDetail } from '../../draws/model.ts';
import { assertResultsOpen } from '../../draws/status.ts';
import { getDraw } from '../../draws/views.ts';
import type { Ctx } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { html, type Html } from '../../tools/html.ts';
import { ordinal } from '../draw-steps.ts';
import { field } from '../forms.ts';
import { csrfField } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';
import { refusalNotice, type Refusal } from './draw-outcome.ts';
import { drawPath } from './draws.ts';

const PRIZES = [1, 2, 3, 4, 5] as const;

/** Reads the extraction (Caixa's latest when no number is typed) for a draw whose results may still be recorded. */
export async function readFromCaixa(ctx: Ctx, drawId: string, form: URLSearchParams): Promise<FetchedExtraction> {
  const typed = field(form, 'extraction').trim();
  const extraction = typed === '' ? null : parseExtractionNumber(typed, 'invalid_option');
  // Refused before the network is asked: a draw that has run takes no results.
  assertResultsOpen(getDraw(ctx, drawId).status);
  return fetchFederalResult({ baseUrl: ctx.config.loteriaUrl, timeoutMs: ctx.config.loteriaTimeoutMs, extraction });
}

/** Records the extraction the operator confirmed, once Caixa gives it again unchanged. */
export async function confirmFromCaixa(ctx: Ctx, drawId: string, form: URLSearchParams, actor: Actor): Promise<void> {
  const shown = {
    number: parseExtractionNumber(field(form, 'extraction'), 'invalid_option'),
    date: field(form, 'date'),
    prizes: PRIZES.map((p) => field(form, `prize${p}`)),
  };
  assertResultsOpen(getDraw(ctx, drawId).status);
  const read = await fetchFederalResult({
    baseUrl: ctx.config.loteriaUrl,
    timeoutMs: ctx.config.loteriaTimeoutMs,
    extraction: shown.number,
  });
  const same = read.date === shown.date && read.prizes.every((p, i) => formatPrize(p) === formatPrize(shown.prizes[i]!.trim()));
  if (!same)
    throw new AppError(
      409,
      'loteria_answer_changed',
      `Caixa's answer for extraction ${shown.number} is no longer the one shown: nothing was recorded. Fetch it again and check it.`,
    );
  await recordResults(
    ctx,
    drawId,
    { extraction: read.number, date: read.date, prizes: read.prizes, source: 'caixa', reason: field(form, 'reason') },
    actor,
  );
}

/** The Fetch form, or what was read with its Record and Cancel buttons. */
export function caixaSection(draw: DrawDetail, session: DashboardSession, refusal: Refusal | null, read: FetchedExtraction | null): Html {
  if (read !== null)
    return html`<h3 id="from-caixa">Read from Caixa: check before recording</h3>
      <p>Extraction ${read.number} of ${read.date}, read from <code>${read.url}</code>:</p>
      <table>
        <caption class="visually-hidden">
          The extraction as Caixa gives it
        </caption>
        <tbody>
          ${read.prizes.map(
            (p, i) =>
              html`<tr>
                <th scope="row">${ordinal(i + 1)} prize</th>
                <td class="mono">${formatPrize(p)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <p>Nothing is recorded until you confirm. Compare it with Caixa’s published result first.</p>
      <form class="filters" method="post" action="${drawPath(draw.id, '/fetch/confirm')}">
        ${csrfField(session)}
        <input type="hidden" name="extraction" value="${String(read.number)}" />
        <input type="hidden" name="date" value="${read.date}" />
        ${read.prizes.map((p, i) => html`<input type="hidden" name="prize${i + 1}" value="${formatPrize(p)}" />`)}
        <label for="fetch-reason"
          >Why (an extraction later than planned, or a correction) <input id="fetch-reason" name="reason" size="40"
        /></label>
        <button type="submit">Record these results</button>
        <a href="${drawPath(draw.id)}">Cancel</a>
      </form>`;
  return html`<h3>Fetch from Caixa</h3>
    ${refusalNotice(refusal, 'fetch')}
    <form class="filters" method="post" action="${drawPath(draw.id, '/fetch')}">
      ${csrfField(session)}
      <label for="fetch-extraction"
        >Extraction number (empty: Caixa’s latest)
        <input
          id="fetch-extraction"
          name="extraction"
          inputmode="numeric"
          size="8"
          value="${refusal?.form === 'fetch' ? (refusal.values.get('extraction') ?? '') : ''}"
      /></label>
      <button type="submit">Fetch from Caixa</button>
    </form>
    <p class="muted">Reads the five prizes from Caixa’s results API and shows them; they are recorded only when you confirm.</p>`;
}
