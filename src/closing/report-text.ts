// The prestação de contas written out (report-model.ts says what it holds): Markdown, to read,
// compare and keep, and printable HTML with its own stylesheet and no script, every value escaped
// (src/tools/html.ts), in Markdown as in HTML (src/tools/markdown.ts): a name or a note holding
// `<!--` or `<b>` reads as typed and hides nothing. Both walk the same sections, so they say the same.
import { html, raw, type Html } from '../tools/html.ts';
import { markdownText } from '../tools/markdown.ts';
import type { AccountsDocument, Block, Text } from './report-model.ts';

const spans = (text: Text): ReadonlyArray<string | { code: string }> => (typeof text === 'string' ? [text] : text);

/** Text as Markdown, one line: the words escaped, ids and digests as code spans. */
function markdown(text: Text): string {
  return spans(text)
    .map((span) => (typeof span === 'string' ? markdownText(span) : `\`${span.code}\``))
    .join('');
}

function markdownBlock(block: Block): string[] {
  switch (block.kind) {
    case 'paragraph':
      return [markdown(block.text), ''];
    case 'list':
      return [...block.items.map((item) => `- ${markdown(item)}`), ''];
    case 'table':
      return [
        `| ${block.headers.map(markdown).join(' | ')} |`,
        `|${block.headers.map(() => '---').join('|')}|`,
        ...block.rows.map((row) => `| ${row.map(markdown).join(' | ')} |`),
        '',
      ];
  }
}

export function accountsMarkdown(doc: AccountsDocument): string {
  const out = [`# ${markdownText(doc.title)}`, ''];
  if (doc.draft) out.push(`**${doc.draft}**`, '');
  for (const section of doc.sections) {
    out.push(`## ${section.title}`, '');
    for (const block of section.blocks) out.push(...markdownBlock(block));
  }
  out.push('## Assinatura', '', 'Responsável pela promotora: ______________________________________', '');
  return `${out.join('\n').trimEnd()}\n`;
}

/** Text as HTML: the words escaped, ids and digests as <code>. */
function inline(text: Text): Html {
  return html`${spans(text).map((span) => (typeof span === 'string' ? span : html`<code>${span.code}</code>`))}`;
}

function htmlBlock(block: Block): Html {
  switch (block.kind) {
    case 'paragraph':
      return html`<p>${inline(block.text)}</p>`;
    case 'list':
      return html`<ul>
        ${block.items.map((item) => html`<li>${inline(item)}</li>`)}
      </ul>`;
    case 'table':
      return html`<table>
        <thead>
          <tr>
            ${block.headers.map((h) => html`<th scope="col">${h}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${block.rows.map(
            (row) =>
              html`<tr>
                ${row.map((c) => html`<td>${inline(c)}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>`;
  }
}

const PRINT_CSS = `
body { font: 11pt/1.45 Georgia, 'Times New Roman', serif; color: #000; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 1.6rem; border-bottom: 1px solid #000; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; } th, td { border: 1px solid #555; padding: .2rem .4rem; text-align: left; vertical-align: top; }
code { font: .85em ui-monospace, monospace; word-break: break-all; } .draft { border: 2px solid #000; padding: .5rem; font-weight: bold; }
.signature { margin-top: 2.5rem; } .signature span { display: inline-block; border-top: 1px solid #000; min-width: 22rem; padding-top: .2rem; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } tr, li { break-inside: avoid; } }
`;

export function accountsHtml(doc: AccountsDocument): string {
  const page = html`<!doctype html>
    <html lang="pt-BR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${doc.title}</title>
        <style>
          ${raw(PRINT_CSS)}
        </style>
      </head>
      <body>
        <main>
          <h1>${doc.title}</h1>
          ${doc.draft ? html`<p class="draft">${doc.draft}</p>` : null}
          ${doc.sections.map(
            (section) =>
              html`<section>
                <h2>${section.title}</h2>
                ${section.blocks.map(htmlBlock)}
              </section>`,
          )}
          <section class="signature">
            <h2>Assinatura</h2>
            <p><span>Responsável pela promotora</span></p>
          </section>
        </main>
      </body>
    </html>`.toString();
  return page.endsWith('\n') ? page : `${page}\n`;
}
