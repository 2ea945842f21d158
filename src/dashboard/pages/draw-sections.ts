// The sections of a draw's page (draw.ts), one a step: the settings, the frozen set and its
// freeze (forced with a reason while entries are pending), the results typed or read from Caixa,
// the run, and voiding. Each shows its form only while the draw's status allows the step
// (src/draws/status.ts), and a refusal of that step beside it.
import { formatPrize } from '../../draws/formation.ts';
import type { DrawDetail } from '../../draws/model.ts';
import { canDisqualify, canFreeze, canRecordResults, canRun, canVoid } from '../../draws/status.ts';
import { ordinal } from '../draw-steps.ts';
import { count, zonedTime } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { csrfField } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';
import { caixaSection } from './draw-caixa.ts';
import { refusalNotice, type FormName, type Refusal } from './draw-outcome.ts';
import { DATE_PATTERN, drawPath } from './draws.ts';
import type { FetchedExtraction } from '../../draws/loteria.ts';

/** The five prizes of an extraction, as the results form names its fields (prize1..prize5). */
export const PRIZES = [1, 2, 3, 4, 5] as const;

/** Whether the page shows the form of that action now (its refusal is shown beside it, else at the top). */
export function formShown(draw: DrawDetail, form: FormName): boolean {
  if (form === 'void') return canVoid(draw.status);
  if (form === 'freeze') return canFreeze(draw.status);
  if (form === 'results' || form === 'fetch') return canRecordResults(draw.status);
  if (form === 'run') return canRun(draw.status);
  return canDisqualify(draw.status);
}

export function settingsTable(draw: DrawDetail): Html {
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

export function frozenSection(draw: DrawDetail, cutoffPassed: boolean, session: DashboardSession, refusal: Refusal | null): Html {
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

export function resultsSection(draw: DrawDetail, session: DashboardSession, refusal: Refusal | null, read: FetchedExtraction | null): Html {
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

export function runSection(draw: DrawDetail, session: DashboardSession, refusal: Refusal | null): Html | null {
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
export function voidSection(draw: DrawDetail, session: DashboardSession, refusal: Refusal | null): Html | null {
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
