// Income tax on the prizes (docs/operations.md#income-tax-on-prizes): a prize distributed as goods or
// services in a promotion bears income tax of 20% on its market value, exclusively at source and
// paid by the company that distributes it (Lei 8.981/1995 art. 63, §1º as Lei 11.196/2005 art. 71
// wrote it); a cash prize is forbidden in a promoção comercial (Lei 5.768/1971 art. 1º §3º), so the
// 30% of cash prizes never applies. The distribution counts as made on the day of the apuração,
// whenever the winner receives the prize (ADN Cosit 18/1996), and the tax is due by the 3rd business
// day after the decêndio of that day (Lei 11.196/2005 art. 70, I, "b", 2), by DARF code 0916,
// "IRRF – Prêmios obtidos em concursos e sorteios". Every prize won bears it but a disqualified
// one: a prize later declined or prescribed was distributed all the same.
import type { Ctx } from '../kernel/context.ts';
import { addBusinessDays, brasiliaDate, decendioEnd } from '../tools/brazil-calendar.ts';
import { centsOfReais, reais, type WinnerRow } from './model.ts';
import { currentWinnerRows } from './winners.ts';

export const PRIZE_TAX_RATE_PERCENT = 20;
export const PRIZE_TAX_DARF_CODE = '0916';
export const PRIZE_TAX_CITATION =
  'Lei 8.981/1995 art. 63 (20% sobre o valor de mercado, exclusivamente na fonte, pago pela pessoa jurídica que distribui o prêmio); ' +
  'vencimento: Lei 11.196/2005 art. 70, I, "b", 2 (3º dia útil após o decêndio da apuração)';

/** The tax on a prize of `cents`, in cents: 20%, rounded to the cent (half up). */
export function prizeTaxCents(cents: number): number {
  return Math.round((cents * PRIZE_TAX_RATE_PERCENT) / 100);
}

/** The day the tax on a prize won at `awardedAt` is due: the 3rd business day after its decêndio. */
export function prizeTaxDueBy(awardedAt: string): string {
  return addBusinessDays(decendioEnd(brasiliaDate(Date.parse(awardedAt))), 3);
}

export interface WinnerTax {
  winner_id: string;
  source: WinnerRow['source'];
  draw_id: string | null;
  position: number | null;
  status: WinnerRow['status'];
  prize: { description: string | null; value: string | null };
  /** The day the distribution counts as made: the apuração's, in Brasília. */
  fact_date: string;
  rate: string;
  /** null when the prize's value was never given (a draw created without --prize): nothing to compute from. */
  tax: string | null;
  due_by: string;
  darf_code: string;
  citation: string;
}

function taxOfWinner(row: WinnerRow): WinnerTax {
  return {
    winner_id: row.id,
    source: row.source,
    draw_id: row.draw_id,
    position: row.position,
    status: row.status,
    prize: { description: row.prize_description, value: reais(row.prize_value_cents) },
    fact_date: brasiliaDate(Date.parse(row.awarded_at)),
    rate: `${PRIZE_TAX_RATE_PERCENT}%`,
    tax: row.prize_value_cents === null ? null : reais(prizeTaxCents(row.prize_value_cents)),
    due_by: prizeTaxDueBy(row.awarded_at),
    darf_code: PRIZE_TAX_DARF_CODE,
    citation: PRIZE_TAX_CITATION,
  };
}

/** `ces winners taxes`: the tax of every prize won in the campaign (and mode) but the disqualified ones. */
export function listWinnerTaxes(ctx: Ctx, input: { campaignId: string; livemode?: number }): WinnerTax[] {
  return taxesOf(currentWinnerRows(ctx, input));
}

/** The tax of every prize won among `winners` but the disqualified ones. */
export function taxesOf(winners: readonly WinnerRow[]): WinnerTax[] {
  return winners.filter((r) => r.status !== 'disqualified').map(taxOfWinner);
}

/** The taxes summed per due date (one DARF each), earliest first, in cents. */
export function taxesByDueDate(taxes: readonly WinnerTax[]): Array<{ due_by: string; darf_code: string; tax: string; winners: number }> {
  const byDate = new Map<string, { cents: number; winners: number }>();
  for (const t of taxes) {
    if (t.tax === null) continue;
    const sum = byDate.get(t.due_by) ?? { cents: 0, winners: 0 };
    sum.cents += centsOfReais(t.tax);
    sum.winners += 1;
    byDate.set(t.due_by, sum);
  }
  return [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([due_by, s]) => ({ due_by, darf_code: PRIZE_TAX_DARF_CODE, tax: reais(s.cents)!, winners: s.winners }));
}
