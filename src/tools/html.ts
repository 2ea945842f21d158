// HTML built from tagged templates: every interpolated value is escaped (`&<>"'`) unless it is
// itself Html (a fragment built here, or markup passed through raw() on purpose). Arrays are
// joined, null, undefined and false render nothing. Nothing reaches a dashboard page unescaped.
// Shared by the dashboard and the documents to print and sign (printablePage: the apuração record,
// src/draws/report-html.ts, and the prestação de contas, src/closing/report-text.ts).

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

/** What differs between the printable documents: the title (and first heading), the draft warning, the measures, the body. */
interface PrintablePage {
  title: string;
  /** The warning of a document that may still change (null: final), boxed under the title. */
  draft: string | null;
  /** How wide the text runs on screen; printed, it takes the page's width. */
  width: string;
  /** The size of ids and digests (<code>), against the text's. */
  codeSize: string;
  /** What follows the title and the warning. */
  body: Html;
}

const printCss = (page: PrintablePage): string => `
body { font: 11pt/1.45 Georgia, 'Times New Roman', serif; color: #000; max-width: ${page.width}; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 1.6rem; border-bottom: 1px solid #000; } h3 { font-size: 1rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; } th, td { border: 1px solid #555; padding: .2rem .4rem; text-align: left; vertical-align: top; }
code { font: ${page.codeSize} ui-monospace, monospace; word-break: break-all; } .draft { border: 2px solid #000; padding: .5rem; font-weight: bold; }
.signature { margin-top: 2.5rem; } .signature span { display: inline-block; border-top: 1px solid #000; min-width: 22rem; padding-top: .2rem; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } tr, li { break-inside: avoid; } }
`;

/**
 * A document in Portuguese to print and sign (the apuração record, the prestação de contas): one
 * standalone page with its own stylesheet and no script, ending in one line break. The dashboard
 * serves it under a policy that allows that stylesheet and nothing else (documentResponse).
 */
export function printablePage(page: PrintablePage): string {
  return `${
    html`<!doctype html>
      <html lang="pt-BR">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${page.title}</title>
          <style>
            ${raw(printCss(page))}
          </style>
        </head>
        <body>
          <main>
            <h1>${page.title}</h1>
            ${page.draft === null ? null : html`<p class="draft">${page.draft}</p>`} ${page.body}
          </main>
        </body>
      </html>`.value
  }\n`;
}
