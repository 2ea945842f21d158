// One sentence per step of a draw, in English for the CLI and the dashboard and in Portuguese for
// the apuração record: the same structured steps (formation.ts, winners.ts) read two ways.
import { formatPrize } from './formation.ts';
import type { FormationStep } from './model.ts';
import { formatNumber, formatSeries } from './number-set.ts';
import type { WinnerStep } from './winners.ts';

type Language = 'en' | 'pt';

const PLACE_NAMES: Record<Language, Record<string, string>> = {
  en: { u: 'units', d: 'tens', c: 'hundreds', m: 'thousands', dm: 'ten-thousands' },
  pt: { u: 'unidade', d: 'dezena', c: 'centena', m: 'unidade de milhar', dm: 'dezena de milhar' },
};

/** "the tens digit of the 1st prize" / "algarismo da dezena do 1º prêmio" for a DIGITS item. */
export function describeDigitItem(item: string, lang: Language): string {
  if (item.startsWith('=')) return lang === 'en' ? `the fixed digit ${item.slice(1)}` : `algarismo fixo ${item.slice(1)}`;
  const prize = Number(item[0]);
  const place = PLACE_NAMES[lang][item.slice(1)];
  return lang === 'en' ? `the ${place} digit of the ${ordinalEn(prize)} prize` : `algarismo da ${place} do ${prize}º prêmio`;
}

function ordinalEn(n: number): string {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

export function describeFormationStep(step: FormationStep, lang: Language): string {
  if (step.kind === 'digit') {
    const target = lang === 'en' ? step.target : step.target === 'series' ? 'série' : 'elemento';
    const source = describeDigitItem(step.item, lang);
    const ticket =
      step.ticket === null ? '' : lang === 'en' ? ` (ticket ${formatPrize(step.ticket)})` : ` (bilhete ${formatPrize(step.ticket)})`;
    return lang === 'en' ? `${target}: ${step.digit}, ${source}${ticket}` : `${target}: ${step.digit}, ${source}${ticket}`;
  }
  return lang === 'en'
    ? `series ${step.from} is beyond the ${step.series_count} series: ${step.from} − ${step.times} × ${step.series_count} = ${step.to}`
    : `a série ${step.from} excede as ${step.series_count} séries: ${step.from} − ${step.times} × ${step.series_count} = ${step.to}`;
}

export function describeWinnerStep(step: WinnerStep, seriesCount: number, lang: Language): string {
  const n = (series: number, element: number): string => formatNumber(series, element, seriesCount);
  const sr = (series: number): string => formatSeries(series, seriesCount);
  switch (step.kind) {
    case 'formed':
      if (lang === 'en')
        return `formed number ${n(step.series, step.element)}: ${step.eligible ? 'eligible' : 'not eligible (not distributed or not valid)'}`;
      return `número formado ${n(step.series, step.element)}: ${step.eligible ? 'elegível' : 'não elegível (não distribuído ou não válido)'}`;
    case 'series_search': {
      const above = step.above === null ? (lang === 'en' ? 'none' : 'nenhum') : n(step.series, step.above);
      const below = step.below === null ? (lang === 'en' ? 'none' : 'nenhum') : n(step.series, step.below);
      // Steps stored before there were two readings were all `nearest`.
      const firstAbove = step.rule === 'above-then-below';
      if (lang === 'en') {
        const chosen =
          step.chosen === null
            ? 'no eligible element'
            : firstAbove
              ? `${step.chosen === step.above ? 'above first' : 'none above, so below'}: ${n(step.series, step.chosen)}`
              : `nearest ${n(step.series, step.chosen)}`;
        return firstAbove
          ? `series ${sr(step.series)} from ${n(step.series, step.from)}: first eligible above ${above}, first below ${below}: ${chosen}`
          : `series ${sr(step.series)} from ${n(step.series, step.from)}: nearest eligible above ${above}, below ${below}: ${chosen}`;
      }
      const chosen =
        step.chosen === null
          ? 'nenhum elemento elegível'
          : firstAbove
            ? `${step.chosen === step.above ? 'o superior tem precedência' : 'não há superior, contempla-se o inferior'}: ${n(step.series, step.chosen)}`
            : `o mais próximo é ${n(step.series, step.chosen)}`;
      return firstAbove
        ? `série ${sr(step.series)} a partir de ${n(step.series, step.from)}: primeiro elegível acima ${above}, primeiro abaixo ${below}: ${chosen}`
        : `série ${sr(step.series)} a partir de ${n(step.series, step.from)}: elegível mais próximo acima ${above}, abaixo ${below}: ${chosen}`;
    }
    case 'series_empty': {
      const lowerFirst = step.empty_series === 'lower-first';
      if (lang === 'en')
        return `series ${step.series.map(sr).join(', ')}: no eligible number; the search passes on${lowerFirst ? ' (lower series first, then upwards)' : ''}`;
      return `série(s) ${step.series.map(sr).join(', ')}: nenhum número elegível; a busca passa adiante${lowerFirst ? ' (primeiro às séries inferiores, depois às superiores)' : ''}`;
    }
    case 'next_upwards': {
      const from = n(step.after.series, step.after.element);
      const to = n(step.series, step.element);
      if (lang === 'en')
        return `next eligible number upwards from ${from}${step.inclusive ? ' (inclusive)' : ''}${step.wrapped ? ', wrapping to the first series' : ''}: ${to}`;
      return `próximo número elegível acima de ${from}${step.inclusive ? ' (inclusive)' : ''}${step.wrapped ? ', recomeçando da primeira série' : ''}: ${to}`;
    }
    case 'skipped': {
      const reasons = {
        en: {
          already_won: 'already won in this draw',
          document_already_won: 'its participant already won in this draw',
          disqualified: 'disqualified',
        },
        pt: {
          already_won: 'já contemplado neste sorteio',
          document_already_won: 'o participante já foi contemplado neste sorteio',
          disqualified: 'desclassificado',
        },
      };
      return lang === 'en'
        ? `${n(step.series, step.element)} passed over: ${reasons.en[step.reason]}`
        : `${n(step.series, step.element)} desconsiderado: ${reasons.pt[step.reason]}`;
    }
    case 'exhausted':
      return lang === 'en' ? 'no eligible number left for this position' : 'não há número elegível restante para esta posição';
  }
}
