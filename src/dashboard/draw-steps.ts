// A draw's derivation as the draw page shows it (docs/operations.md#running-a-draw-ces-draw): one
// sentence per step, in the CLI's words (src/draws/steps.ts), from the steps the domain recorded
// when it ran (run.ts getRunOutcome, winners.ts' WinnerStep): each digit of the formed number
// with the prize it came from, the series brought into range, then every position's picks in order,
// each with the searches and skips that led to it and, for a disqualified pick, what replaced it.
// Nothing here decides anything: it lays out what was recorded.
import type { DisqualifiedWinner, DrawDetail, DrawWinner, FormationStep } from '../draws/model.ts';
import { describeFormationStep, describeWinnerStep } from '../draws/steps.ts';
import type { WinnerStep } from '../draws/winners.ts';
import { zonedTime } from './format.ts';
import { html, type Html } from '../tools/html.ts';

/** A step as a sentence on the page: the CLI's wording (steps.ts), capitalised, with its full stop. */
function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** "1st", "2nd", "3rd", "4th": how the page names the extraction's prizes. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** The formation: each digit and where it came from, the series brought into range, the number formed. */
export function formationList(steps: FormationStep[], formed: string): Html {
  // The series as read is brought into range before the element's digits are read out.
  const order = (step: FormationStep): number => (step.kind === 'digit' && step.target === 'element' ? 1 : 0);
  const ordered = [...steps].sort((a, b) => order(a) - order(b));
  return html`<ol class="steps">
    ${ordered.map((step) => html`<li>${sentence(describeFormationStep(step, 'en'))}</li>`)}
    <li><strong>The formed number is ${formed}.</strong></li>
  </ol>`;
}

function stepsList(steps: WinnerStep[], seriesCount: number): Html {
  return html`<ol class="steps">
    ${steps.map((step) => html`<li>${sentence(describeWinnerStep(step, seriesCount, 'en'))}</li>`)}
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
                ? html`disqualified ${zonedTime(disqualified.disqualified_at)}: ${disqualified.reason}`
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
