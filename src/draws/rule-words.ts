// The approximation rule of a draw written out in Portuguese, for the clause (clause.ts) and the
// apuração record (report-model.ts): the whole rule of the draw's reading, in words a reader can
// follow without the program, never a label that invites another reading. docs/operations.md
// (#the-rules-as-ces-applies-them) says the same in English; test/draws-property.test.ts follows it.
import type { Approximation, EmptySeriesRule } from './winners.ts';

const IN_SERIES: Record<Exclude<Approximation, 'up-wrap'>, string> = {
  nearest:
    'Se o número formado não for elegível, será contemplado, na mesma série, o elemento elegível mais próximo do formado: verifica-se o elemento imediatamente superior (+1), depois o imediatamente inferior (−1), depois +2, −2, e assim sucessivamente, alternadamente; havendo dois elegíveis à mesma distância, contempla-se o superior. No primeiro ou no último elemento da série (00000 ou 99999), a busca prossegue somente no sentido restante, sem recomeçar a série.',
  'above-then-below':
    'Se o número formado não for elegível, será contemplado, na mesma série, o elemento elegível imediatamente superior ao formado: o primeiro elegível acima dele, em ordem crescente (+1, +2, +3, … até 99999), por mais distante que esteja. Somente se não houver nenhum elegível acima será contemplado o imediatamente inferior: o primeiro elegível abaixo do formado, em ordem decrescente (−1, −2, … até 00000). A busca não recomeça a série.',
};

const EMPTY: Record<EmptySeriesRule, string> = {
  alternate:
    'Se a série não tiver nenhum número elegível, a mesma busca, a partir do mesmo elemento (que nela também pode ser contemplado), passa à série imediatamente superior e, na falta de elegível nesta, à imediatamente inferior, alternadamente (+1, −1, +2, −2, …), somente entre as séries existentes, sem recomeçar da primeira série.',
  'lower-first':
    'Se a série não tiver nenhum número elegível, a mesma busca, a partir do mesmo elemento (que nela também pode ser contemplado), passa à série imediatamente inferior dentre as que têm números elegíveis (−1, −2, … até a série 0) e, não havendo nenhuma abaixo, às séries superiores, em ordem crescente (+1, +2, …).',
};

const UP_WRAP =
  'Se o número formado não for elegível, será contemplado o próximo número elegível em ordem crescente de série e elemento: o elemento seguinte da mesma série e, após o último elemento desta, o primeiro elegível das séries seguintes; após o último número da última série, segue-se o primeiro número elegível da série 0.';

/** The rule for winner 1 in Portuguese, one paragraph per part (in the series; a series with none). */
export function approximationParagraphs(approximation: Approximation, emptySeries: EmptySeriesRule, seriesCount: number): string[] {
  if (approximation === 'up-wrap') return [UP_WRAP];
  return seriesCount > 1 ? [IN_SERIES[approximation], EMPTY[emptySeries]] : [IN_SERIES[approximation]];
}
