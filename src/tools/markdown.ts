// Text that operators and participants wrote, put into a Markdown document (the apuração record,
// the prestação de contas) so that it reads as typed once rendered. Unescaped, a draw's name or a
// reason holding `<!--` opened an HTML comment that hid the rest of the record, signatures
// included; `<b>`, `*`, `_`, `[…](…)` restyled it or made it a link. Every character that
// CommonMark or GitHub's tables and strikethrough read as markup is backslash-escaped (CommonMark
// reads any escaped ASCII punctuation as itself), a line break becomes a space (it would start a
// line of the document: a heading, a list item, the end of a table row), and control and
// bidirectional characters are shown as \u202e, as everywhere a person reads what others wrote.
import { escapeControlCharacters } from '../kernel/control-characters.ts';

const MARKUP = /[\\`*_[\]<>&|~]/g;

/** `text` as one line of Markdown that renders as typed. */
export function markdownText(text: string): string {
  return escapeControlCharacters(text.replace(/[\r\n]+/g, ' ')).replace(MARKUP, '\\$&');
}
