// What an extraction's results must be before they decide a draw, beyond their form (formation.ts
// parsePrizes): five different tickets, since the Loteria Federal draws each ticket once per
// extraction, and an extraction that no other draw of the campaign and mode uses (one result per
// extraction: drawing again on the same result would let the outcome be chosen after it is public).
import { AppError, fieldName } from '../kernel/errors.ts';

/** 422 duplicate_prizes when two of the five prizes are the same ticket, naming both positions. */
export function checkDistinctPrizes(prizes: readonly string[]): void {
  for (let i = 0; i < prizes.length; i++) {
    const j = prizes.indexOf(prizes[i], i + 1);
    if (j === -1) continue;
    const message = `prizes ${i + 1} and ${j + 1} are both ${prizes[i]}: an extraction draws five different tickets`;
    throw new AppError(422, 'duplicate_prizes', message, [{ field: 'prizes', code: 'duplicate', message }]);
  }
}

/** 409 draw_extraction_taken: another draw, not voided, of the campaign and mode uses or plans that extraction. */
export function extractionTaken(other: { id: string; name: string }, what: { number: number } | { date: string }): AppError {
  const which = 'number' in what ? `Extraction ${what.number}` : `The extraction of ${what.date} (${fieldName('extraction_date')})`;
  return new AppError(
    409,
    'draw_extraction_taken',
    `${which} is already used by draw ${other.id} ("${other.name}") of this campaign and mode: one extraction decides one draw. Void that draw first if it must not stand.`,
    undefined,
    undefined,
    undefined,
    { draw_id: other.id },
  );
}
