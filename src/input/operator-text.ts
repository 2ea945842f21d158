// What an operator types as a name, a label or a note (a campaign's or a prize's name, a key's
// label, a draw's name, a reason): shown in tables of the dashboard and the CLI, in audit records,
// in the apuração record. Bounded server-side, whatever the form's maxlength says (a hand-made
// POST ignores it), and kept to one line of printable text: a CR/LF would forge a row or a header
// line, a control or bidi character would reorder or hide what the next operator reads. Refused
// with a clear 422, never silently cut or cleaned.
import { hasControlCharacter } from '../kernel/control-characters.ts';
import type { FieldErrorCode } from '../kernel/errors.ts';

/** Names and labels: campaigns, prizes (name and type), API keys, draws. */
export const MAX_NAME_LENGTH = 200;
/** Notes: an anonymization's, an award revocation's or a disqualification's reason. */
export const MAX_NOTE_LENGTH = 1000;

/** Why an operator's text is refused, as a field error's code and words; null when it is fine. */
interface TextProblem {
  code: Extract<FieldErrorCode, 'too_long' | 'control_character'>;
  message: string;
}

/** `label` names the field as the operator knows it (`--name`, `name`); `value` is already trimmed. */
export function operatorTextProblem(label: string, value: string, max: number): TextProblem | null {
  // In characters (code points), as the entry fields' maxima are counted.
  const length = [...value].length;
  if (length > max) return { code: 'too_long', message: `${label} may have at most ${max} characters, got ${length}` };
  if (hasControlCharacter(value))
    return {
      code: 'control_character',
      message: `${label} must be one line of printable text: no line break, tab, control or bidirectional character`,
    };
  return null;
}
