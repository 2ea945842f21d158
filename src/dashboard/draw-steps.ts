// A draw's derivation as the draw page shows it (CONTRACT: Draws): one plain sentence per step,
// from the steps the domain recorded when it ran (src/draws/draws.ts getDrawOutcome, winners.ts'
// WinnerStep): each digit of the formed number with the prize it came from, the series brought
// into range, then every position's picks in order, each with the searches and skips that led to
// it and, for a disqualified pick, what replaced it. Nothing here decides anything: it words what
// was recorded, so the page and the record can be read against each other.
import type { DisqualifiedWinner, DrawDetail, DrawWinner, FormationStep } from '../draws/draws.ts';
import { formatNumber } from '../draws/number-set.ts';
import type { WinnerStep } from '../draws/winners.ts';
import { count, time } from './format.ts';
import { html, type Html } from '../html.ts';

const PLACE_NAMES: Record<string, string> = { u: 'units', d: 'tens', c: 'hundreds', m: 'thousands', dm: 'ten-thousands' };

export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** A series as the canonical list writes it (zero-padded to the digits of the last series). */
function seriesText(series: number, seriesCount: number): string {
  return formatNumber(series, 0, seriesCount).slice(0, -6);
}

/** One step of the formation, as a sentence. `index` counts digits within their part (series, element) from 1. */
export function formationSentence(step: FormationStep, index: number): string {
  if (step.kind === 'series_reduced') {
    const times = step.times === 1 ? 'once' : step.times === 2 ? 'twice' : `${count(step.times)} times`;
    const last = seriesText(step.series_count - 1, step.series_count);
    return `The series read, ${step.from}, is past the last series, ${last}: ${count(step.series_count)} (the number of series) subtracted ${times} gives series ${seriesText(step.to, step.series_count)}.`;
  }
  const part = step.target === 'series' ? 'Series' : 'Element';
  if (step.ticket === null) return `${part} digit ${index} (${step.item}): the fixed digit ${step.digit}.`;
  const match = /^([1-5])(u|d|c|m|dm)$/.exec(step.item);
  const where = match ? `the ${PLACE_NAMES[match[2]]} digit of the ${ordinal(Number(match[1]))} prize` : `a digit of a prize`;
  return `${part} digit ${index} (${step.item}): ${where}, ${step.ticket}, is ${step.digit}.`;
}

/** One step of a pick, as a sentence. */
export function winnerSentence(step: WinnerStep, seriesCount: number): string {
  const n = (series: number, element: number): string => formatNumber(series, element, seriesCount);
  const e = (element: number): string => String(element).padStart(5, '0');
  const s = (series: number): string => seriesText(series, seriesCount);
  switch (step.kind) {
    case 'formed':
      return step.eligible
        ? `The formed number ${n(step.series, step.element)} is eligible: it is taken as it is.`
        : `The formed number ${n(step.series, step.element)} is not eligible: the nearest eligible number is searched for.`;
    case 'series_search': {
      const above = step.above === null ? 'none at or above it' : `${e(step.above)} above (${step.above - step.from} away)`;
      const below = step.below === null ? 'none at or below it' : `${e(step.below)} below (${step.from - step.below} away)`;
      const tie =
        step.above !== null && step.below !== null && step.above - step.from === step.from - step.below && step.above !== step.below;
      const chosen =
        step.chosen === null ? 'none is chosen' : `${n(step.series, step.chosen)} is chosen${tie ? ' (a tie goes to the one above)' : ''}`;
      return `In series ${s(step.series)}, from element ${e(step.from)}, the nearest eligible elements are ${above} and ${below}: ${chosen}.`;
    }
    case 'series_empty': {
      const list = step.series.map(s);
      return list.length === 1
        ? `Series ${list[0]} holds no eligible number: the search passes on to the next series.`
        : `Series ${list.slice(0, -1).join(', ')} and ${list.at(-1)} hold no eligible number: the search passes on.`;
    }
    case 'next_upwards':
      return `The next eligible number ${step.inclusive ? 'from' : 'after'} ${n(step.after.series, step.after.element)}, upwards${
        step.wrapped ? ', past the last series and on from the first' : ''
      }, is ${n(step.series, step.element)}.`;
    case 'skipped': {
      const why = {
        already_won: 'it already won in this draw',
        document_already_won: 'its participant’s document already won in this draw',
        disqualified: 'it was disqualified',
      }[step.reason];
      return `${n(step.series, step.element)} is passed over: ${why}.`;
    }
    case 'exhausted':
      return 'No eligible number is left for this position.';
  }
}

/** The formation: each digit and where it came from, the series brought into range, the number formed. */
export function formationList(steps: FormationStep[], formed: string): Html {
  const counters = { series: 0, element: 0 };
  // The series as read is brought into range before the element's digits are read out.
  const order = (step: FormationStep): number => (step.kind === 'digit' && step.target === 'element' ? 1 : 0);
  const ordered = [...steps].sort((a, b) => order(a) - order(b));
  return html`<ol class="steps">
    ${ordered.map((step) => html`<li>${formationSentence(step, step.kind === 'digit' ? ++counters[step.target] : 0)}</li>`)}
    <li><strong>The formed number is ${formed}.</strong></li>
  </ol>`;
}

function stepsList(steps: WinnerStep[], seriesCount: number): Html {
  return html`<ol class="steps">
    ${steps.map((step) => html`<li>${winnerSentence(step, seriesCount)}</li>`)}
  </ol>`;
}

type Pick = { winner: DrawWinner; disqualified: DisqualifiedWinner | null };

/** Each position's picks in the order they were made: the disqualified ones first (in row order), then the current one. */
function picksByPosition(draw: DrawDetail): Map<number, Pick[]> {
  const out = new Map<number, Pick[]>();
  const add = (position: number, pick: Pick): void => {
    const list = out.get(position) ?? [];
    list.push(pick);
    out.set(position, list);
  };
  for (const d of draw.disqualified) add(d.position, { winner: d, disqualified: d });
  for (const w of draw.winners) add(w.position, { winner: w, disqualified: null });
  return out;
}

/** Every position's picks with their steps, in a table: position, number, how it was picked, what became of it. */
export function picksTable(draw: DrawDetail): Html {
  const picks = picksByPosition(draw);
  const rows: Html[] = [];
  for (let position = 1; position <= draw.winners_count; position++) {
    const list = picks.get(position) ?? [];
    if (list.length === 0) {
      rows.push(
        html`<tr>
          <th scope="row" class="num">${position}</th>
          <td class="muted">none</td>
          <td>${stepsList([{ kind: 'exhausted' }], draw.series_count)}</td>
          <td>unfilled: fewer eligible numbers than winners</td>
        </tr>`,
      );
      continue;
    }
    for (const [i, { winner, disqualified }] of list.entries())
      rows.push(
        html`<tr>
          <th scope="row" class="num">${position}</th>
          <td class="mono">${winner.number}</td>
          <td>${stepsList(winner.steps, draw.series_count)}</td>
          <td>
            ${
              disqualified
                ? html`disqualified ${time(disqualified.disqualified_at)}: ${disqualified.reason}`
                : html`<strong>winner</strong>${i === 0 ? null : html` (replaces the disqualified ${list[i - 1]!.winner.number})`}`
            }
          </td>
        </tr>`,
      );
  }
  return html`<table>
    <caption class="visually-hidden">
      How each position was filled
    </caption>
    <thead>
      <tr>
        <th scope="col" class="num">Position</th>
        <th scope="col">Number</th>
        <th scope="col">How it was picked</th>
        <th scope="col">Outcome</th>
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
