// The Winners page's income tax section (src/winners/taxes.ts, as `ces winners taxes`): each prize
// won but a disqualified one, with its market value as the base, the 20% rate, the tax, the day
// the distribution counts as made (the apuração's) and the day the tax is due, by DARF 0916; then
// the taxes summed per due date, one DARF each. The rule and its citation are the domain's.
import { PRIZE_TAX_CITATION, PRIZE_TAX_DARF_CODE, PRIZE_TAX_RATE_PERCENT, taxesByDueDate, type WinnerTax } from '../../winners/taxes.ts';
import { count } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';

const date = (d: string): Html => html`<time datetime="${d}">${d}</time>`;

export function taxSection(taxes: WinnerTax[], winnerName: (winnerId: string) => string): Html {
  const totals = taxesByDueDate(taxes);
  return html`<h2>Income tax on the prizes</h2>
    <p>
      A prize given as goods or services bears income tax of ${PRIZE_TAX_RATE_PERCENT}% of its market value, withheld at source and paid by
      the promoter, DARF code <code>${PRIZE_TAX_DARF_CODE}</code>, due on the 3rd business day after the decêndio of the apuração, whenever
      the winner receives the prize. A disqualified prize bears none; a declined or prescribed one does.
      <span class="muted">${PRIZE_TAX_CITATION}.</span>
    </p>
    <table>
      <caption class="visually-hidden">
        Income tax per prize
      </caption>
      <thead>
        <tr>
          <th scope="col">Won by</th>
          <th scope="col">Prize</th>
          <th scope="col" class="num">Base (R$)</th>
          <th scope="col" class="num">Rate</th>
          <th scope="col" class="num">Tax (R$)</th>
          <th scope="col">Apuração</th>
          <th scope="col">Due by</th>
          <th scope="col">DARF</th>
        </tr>
      </thead>
      <tbody>
        ${
          taxes.length === 0
            ? html`<tr>
                <td colspan="8" class="muted">No prize bears tax.</td>
              </tr>`
            : taxes.map(
                (t) =>
                  html`<tr>
                    <td>${winnerName(t.winner_id)}</td>
                    <td>${t.prize.description ?? html`<span class="muted">not given</span>`}</td>
                    <td class="num">${t.prize.value ?? html`<span class="muted">not given</span>`}</td>
                    <td class="num">${t.rate}</td>
                    <td class="num">${t.tax ?? html`<span class="muted">no value to compute from</span>`}</td>
                    <td>${date(t.fact_date)}</td>
                    <td>${date(t.due_by)}</td>
                    <td><code>${t.darf_code}</code></td>
                  </tr>`,
              )
        }
      </tbody>
    </table>
    <h3>Per due date</h3>
    <table>
      <caption class="visually-hidden">
        Income tax per due date, one DARF each
      </caption>
      <thead>
        <tr>
          <th scope="col">Due by</th>
          <th scope="col">DARF</th>
          <th scope="col" class="num">Prizes</th>
          <th scope="col" class="num">Tax (R$)</th>
        </tr>
      </thead>
      <tbody>
        ${
          totals.length === 0
            ? html`<tr>
                <td colspan="4" class="muted">Nothing due.</td>
              </tr>`
            : totals.map(
                (t) =>
                  html`<tr>
                    <td>${date(t.due_by)}</td>
                    <td><code>${t.darf_code}</code></td>
                    <td class="num">${count(t.winners)}</td>
                    <td class="num">${t.tax}</td>
                  </tr>`,
              )
        }
      </tbody>
    </table>`;
}
