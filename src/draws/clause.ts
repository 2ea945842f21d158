// The regulation clause for a draw's rules, in Portuguese, for the promotion's plan, with a worked
// example. Everything it shows is computed by the code that runs the draw (a published plan once
// printed an example that contradicted its own rule).
import type { Ctx } from '../kernel/context.ts';
import { formatPrize, formNumber, parseDigits, type DigitSource } from './formation.ts';
import { formatNumber, formatSeries, NumberSet } from './number-set.ts';
import { brDate, line } from './report-model.ts';
import { approximationParagraphs } from './rule-words.ts';
import { describeDigitItem, describeWinnerStep } from './steps.ts';
import { getDraw } from './views.ts';
import { drawWinners } from './winners.ts';

/** The extraction the clause's example uses: 1st to 5th prizes of a real plan's worked example. */
const EXAMPLE_PRIZES = ['12305', '05437', '13526', '02329', '15458'] as const;

/** The smallest and largest series the list can read: a fixed digit always itself, a prize's 0 to 9. */
function seriesReadRange(items: DigitSource[]): { min: number; max: number } {
  return items.reduce(
    (r, d) => ({ min: r.min * 10 + (d.kind === 'literal' ? d.digit : 0), max: r.max * 10 + (d.kind === 'literal' ? d.digit : 9) }),
    { min: 0, max: 0 },
  );
}

function describeList(items: DigitSource[]): string {
  const texts = items.map((i) => describeDigitItem(i.kind === 'literal' ? `=${i.digit}` : `${i.prize}${i.place}`, 'pt'));
  return texts.length === 1
    ? `pelo ${texts[0]!}`
    : `pelos seguintes algarismos, da esquerda para a direita: ${texts.slice(0, -1).join(', ')} e ${texts.at(-1)}`;
}

/**
 * The regulation clause for the draw's rules, with a worked example: the example extraction, the
 * number it forms under these rules, and an approximation computed by drawWinners on a small set.
 */
export function renderDrawClause(ctx: Ctx, drawId: string): string {
  const draw = getDraw(ctx, drawId);
  const series = parseDigits(draw.series_digits, 'series');
  const element = parseDigits(draw.element_digits, 'element');
  const isDefaultElement = draw.element_digits === '1u,2u,3u,4u,5u';
  const last = draw.series_count - 1;
  const width = Math.max(1, String(last).length);
  const formed = formNumber([...EXAMPLE_PRIZES], series, element, draw.series_count);
  const fmt = (s: number, e: number): string => formatNumber(s, e, draw.series_count);
  const out: string[] = [];
  out.push(`CLÁUSULA — DA APURAÇÃO (${line(draw.name)})`, '');
  out.push(
    `1. Cada número da sorte é composto de ${draw.series_count === 1 ? 'série única 0' : `série, de ${'0'.padStart(width, '0')} a ${String(last).padStart(width, '0')},`} e de elemento sorteável de 5 (cinco) algarismos, de 00000 a 99999, e é representado como série/elemento.`,
    '',
    `2. O número contemplado será formado a partir dos cinco primeiros prêmios da extração da Loteria Federal${draw.extraction_date ? ` de ${brDate(draw.extraction_date)}` : ''}, lidos de cima para baixo. O elemento sorteável é formado ${isDefaultElement ? 'pelos algarismos da unidade do 1º ao 5º prêmio, nesta ordem' : describeList(element)}.`,
  );
  if (draw.series_count > 1) {
    // Only a series that can be read beyond the last one is brought back: with a fixed digit that
    // keeps it in range (=0 before two tens digits of 200 series), the clause says nothing of it.
    const read = seriesReadRange(series);
    const range =
      read.max > last
        ? `. Se o número assim formado for maior que ${last}, dele se subtrai ${draw.series_count} tantas vezes quantas necessárias para que fique entre 0 e ${last}.`
        : `, de ${read.min} a ${read.max}.`;
    out.push(`   A série é formada ${describeList(series)}${range}`);
  }
  out.push(
    '',
    '3. São elegíveis os números da sorte atribuídos até a data-limite de participação a participações aprovadas cujo titular não tenha tido seus dados anonimizados a seu pedido; os demais são considerados não distribuídos.' +
      (draw.one_win_per_document
        ? ' Cada CPF/CNPJ poderá ser contemplado uma única vez neste sorteio: o número de titular já contemplado é considerado não elegível.'
        : ''),
    '',
  );
  const [inSeries, ...emptySeries] = approximationParagraphs(draw.approximation, draw.empty_series, draw.series_count);
  out.push(`4. ${inSeries}`, ...emptySeries.map((p) => `   ${p}`));
  out.push(
    '',
    `5. ${draw.winners_count > 1 ? `Os demais ${draw.winners_count - 1} contemplados serão os números elegíveis imediatamente posteriores ao do 1º contemplado, em ordem crescente de série e elemento, recomeçando da primeira série após a última. ` : ''}Um mesmo número não será contemplado mais de uma vez. Se houver menos números elegíveis que prêmios, os prêmios restantes não serão distribuídos por este sorteio.`,
    '',
    '6. O contemplado desclassificado antes da divulgação do resultado terá seu número considerado não elegível, e sua posição será preenchida pelo próximo número elegível após o último contemplado.',
    '',
    '7. Se, por qualquer motivo, a extração da Loteria Federal não ocorrer na data prevista, será considerada a extração seguinte.',
    '',
  );
  // The worked example: the example extraction, and two eligible numbers around the formed one.
  const example = new NumberSet(draw.series_count);
  const below = formed.element >= 2 ? formed.element - 2 : null;
  const above = formed.element <= 99_996 ? formed.element + 3 : null;
  if (below !== null) example.add(formed.series, below);
  if (above !== null) example.add(formed.series, above);
  const result = drawWinners(
    example,
    formed,
    {
      approximation: draw.approximation,
      emptySeries: draw.empty_series,
      winnersCount: Math.min(2, draw.winners_count),
      oneWinPerDocument: draw.one_win_per_document,
    },
    (n) => ({ entry_id: fmt(n.series, n.element), enrollment_id: fmt(n.series, n.element) }),
  );
  out.push(
    `8. Exemplo. Se os cinco prêmios da extração forem ${EXAMPLE_PRIZES.slice(0, 4).map(formatPrize).join(', ')} e ${formatPrize(EXAMPLE_PRIZES[4])}:`,
    '',
    ...formed.series_digits.map(
      (d) => `   - série: ${d.digit}, ${describeDigitItem(d.item, 'pt')} (${d.ticket === null ? 'fixo' : formatPrize(d.ticket)});`,
    ),
    ...(formed.series_reductions > 0
      ? [
          `   - a série lida, ${formed.series_read}, excede ${last}: ${formed.series_read} − ${formed.series_reductions} × ${draw.series_count} = ${formed.series};`,
        ]
      : []),
    ...formed.element_digits.map(
      (d) => `   - elemento: ${d.digit}, ${describeDigitItem(d.item, 'pt')} (${d.ticket === null ? 'fixo' : formatPrize(d.ticket)});`,
    ),
    '',
    `   O número formado é ${fmt(formed.series, formed.element)}. Supondo que ele não tenha sido distribuído e que, na série ${formatSeries(formed.series, draw.series_count)}, os elegíveis mais próximos sejam ${[
      below,
      above,
    ]
      .filter((e) => e !== null)
      .map((e) => fmt(formed.series, e))
      .join(' e ')}:`,
    '',
    ...result.winners.map(
      (w) =>
        `   - ${w.position}º contemplado: ${fmt(w.series, w.element)} (${w.steps.map((s) => describeWinnerStep(s, draw.series_count, 'pt')).join('; ')}).`,
    ),
    '',
  );
  return out.join('\n');
}
