// HTML built from tagged templates: every interpolated value is escaped (`&<>"'`) unless it is
// itself Html (a fragment built here, or markup passed through raw() on purpose). Arrays are
// joined, null, undefined and false render nothing. Nothing reaches a dashboard page unescaped.
// Shared by the dashboard and the printable apuração record (src/draws/report.ts).

import { escapeBidiControls } from '../kernel/control-characters.ts';

/** Markup that is already safe to place in a page. */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Bidirectional controls in stored text would reorder what an operator reads (a name shown as
 * another's): they are shown as the visible `\u202e`, as the CLI shows them (one set, in
 * src/kernel/control-characters.ts).
 */
export function escapeHtml(text: string): string {
  return escapeBidiControls(text.replace(/[&<>"']/g, (c) => ESCAPES[c]));
}

/** Trusted markup, placed as it is: only for strings this code wrote (an SVG path, a constant). */
export function raw(markup: string): Html {
  return new Html(markup);
}

type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map((v: HtmlValue) => render(v)).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}
