// The domain's errors in the CLI's words: a field the domain names (src/kernel/errors.ts fieldName)
// becomes the flag that sets it, and a refusal that says what to do first gets the command that
// does it. The domain itself names neither, so the dashboard can show the same errors as a form.
import { AppError, renameFields, type NextStep } from '../src/kernel/errors.ts';
import { cesCommand } from '../src/tools/runtime.ts';

/** Fields whose flag is not the field in kebab-case. */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  series_digits: '--series',
  element_digits: '--element',
};

/** The flag that sets a field: `extraction_date` is --extraction-date. */
function flagOf(field: string): string {
  return FLAG_OF_FIELD[field] ?? `--${field.replaceAll('_', '-')}`;
}

/** The command that does what a refusal, by its code, says must be done first. */
const NEXT_COMMAND: Readonly<Record<string, string>> = {
  draw_not_frozen: 'draw freeze DRAW_ID',
  draw_not_run: 'draw run DRAW_ID',
  draw_results_missing: 'draw results DRAW_ID --extraction N --date DATE --prizes P1,P2,P3,P4,P5',
};

/** The command that does a next step the domain names (src/kernel/errors.ts NextStep). */
function commandOf(next: NextStep): string {
  switch (next.action) {
    case 'check':
      return `check ${flagOf('db')} ${next.dbPath}`;
  }
}

/** An AppError's message as the CLI prints it: flags for fields, and the next command to type. */
export function cliMessage(error: AppError): string {
  const message = renameFields(error.message, flagOf);
  const next = error.next === undefined ? NEXT_COMMAND[error.code] : commandOf(error.next);
  if (next === undefined) return message;
  // Inside the sentence that says what to do: "… until it passes (ces check --db PATH)."
  const period = message.endsWith('.') ? '.' : '';
  return `${message.slice(0, message.length - period.length)} (${cesCommand()} ${next})${period}`;
}
