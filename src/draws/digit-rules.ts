// Digit rules that cannot fix the result (docs/operations.md#the-rules-as-ces-applies-them): the
// number must follow the extraction (Lei 5.768/1971 art. 1 §4; Decreto 70.951/1972 art. 16), so
// a DIGITS list that would let the operator choose it, or make most of it independent of the
// prizes, is refused when the draw is created. Three rules, each with its code:
//   - draw_element_literal: the element is five prize digits, none a literal `=D`;
//   - draw_digit_repeated: no (prize, place) pair is read twice, in the series and the element together;
//   - draw_series_fixed: a campaign with more than one series has at least one prize digit in its series.
// Literals stay allowed in the series, as real plans use them (a leading `=0` for a campaign of 50 series).
import { AppError, fieldName } from '../kernel/errors.ts';
import { formatDigitSource, type DigitSource } from './formation.ts';

type DigitsField = 'series_digits' | 'element_digits';

function refuse(code: string, field: DigitsField, message: string): AppError {
  return new AppError(422, code, message, [{ field, code: 'invalid_option', message }]);
}

/** Checks the three rules; throws 422 with the rule's code and the field it is about. */
export function checkDigitRules(series: readonly DigitSource[], element: readonly DigitSource[], seriesCount: number): void {
  const literal = element.findIndex((d) => d.kind === 'literal');
  if (literal >= 0)
    throw refuse(
      'draw_element_literal',
      'element_digits',
      `${fieldName('element_digits')} item ${literal + 1} (${formatDigitSource(element[literal]!)}) is a fixed digit: every digit of the element must come from a prize, so that the extraction decides the number`,
    );
  const seen = new Map<string, { field: DigitsField; item: number }>();
  const lists: Array<[DigitsField, readonly DigitSource[]]> = [
    ['series_digits', series],
    ['element_digits', element],
  ];
  for (const [field, list] of lists)
    list.forEach((d, i) => {
      if (d.kind === 'literal') return;
      const item = formatDigitSource(d);
      const first = seen.get(item);
      if (first !== undefined)
        throw refuse(
          'draw_digit_repeated',
          field,
          `${fieldName(field)} item ${i + 1} (${item}) reads the same digit of the same prize as ${fieldName(first.field)} item ${first.item}: each digit of a prize may be read once, in the series and the element together`,
        );
      seen.set(item, { field, item: i + 1 });
    });
  if (seriesCount > 1 && series.length > 0 && series.every((d) => d.kind === 'literal'))
    throw refuse(
      'draw_series_fixed',
      'series_digits',
      `${fieldName('series_digits')} has only fixed digits: with ${seriesCount} series, at least one digit of the series must come from a prize, so that the extraction decides the series`,
    );
}
