// Control characters shown escaped (\u001b) wherever a person reads text that others wrote: the
// CLI's human-readable output, `ces serve`'s pretty log, and refused in what operators type.
// Human-readable output never writes a control character raw
// (docs/operations.md#cli-reference-campaigns-keys-entries-demo): names, webhook URLs and
// receivers' answers come from the API, and an ESC sequence printed as is can clear the operator's
// screen, move the cursor, retitle the window or print a fake "webhook OK". C0 (U+0000-U+001F), DEL
// and C1 (U+0080-U+009F: U+009B is a one-character CSI to many terminals) are shown as \u001b.
// Every renderer goes through table()/details() (their cells) and runCommand (the whole text), so
// every command gets it.
// Bidirectional controls (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069) too: stored from
// integrator input, they reorder what an operator reads (a consent line shown reversed, a name
// shown as another's), and the line separators U+2028-U+2029. The bidi set is written once here:
// the dashboard's HTML escaping (src/tools/html.ts) shows them through escapeBidiControls.
const BIDI = String.raw`\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`;
const BIDI_CONTROLS = new RegExp(`[${BIDI}]`, 'g');
const CONTROL_CHARACTERS = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f\u2028\u2029${BIDI}]`, 'g');
// The same, but a renderer's own line breaks (LF, CRLF) stay: a lone CR would overwrite the line.
const CONTROL_CHARACTERS_BUT_LINE_BREAKS = new RegExp(
  String.raw`\r(?!\n)|[\u0000-\u0009\u000b-\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029${BIDI}]`,
  'g',
);

export const escapeCharacter = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control character shown as \u001b; with keepLineBreaks, LF and CRLF stay. */
export function escapeControlCharacters(text: string, options: { keepLineBreaks?: boolean } = {}): string {
  return text.replace(options.keepLineBreaks ? CONTROL_CHARACTERS_BUT_LINE_BREAKS : CONTROL_CHARACTERS, escapeCharacter);
}

/** `text` with only its bidirectional controls shown as \u202e (the dashboard's pages). */
export function escapeBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, escapeCharacter);
}

/** True when `text` holds a character escapeControlCharacters would escape (line breaks included). */
export function hasControlCharacter(text: string): boolean {
  return ANY_CONTROL_CHARACTER.test(text);
}

const ANY_CONTROL_CHARACTER = new RegExp(CONTROL_CHARACTERS.source);
