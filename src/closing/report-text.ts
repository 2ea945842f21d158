// The prestação de contas written out (report-model.ts says what it holds): Markdown, to read,
// compare and keep, and printable HTML with its own stylesheet and no script, every value escaped
// (printablePage in src/tools/html.ts, as the apuração record), in Markdown as in HTML (src/tools/markdown.ts): a name or a note holding
// `<!--` or `<b>` reads as typed and hides nothing. Both walk the same sections, so they say the same.
import { html, printablePage, type Html } from '../tools/html.ts';
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

export function accountsHtml(doc: AccountsDocument): string {
  return printablePage({
    title: doc.title,
    draft: doc.draft,
    // Wider than the apuração record's, and its codes smaller: its tables run to ten columns.
    width: '60rem',
    codeSize: '.85em',
    body: html`${doc.sections.map(
        (section) =>
          html`<section>
            <h2>${section.title}</h2>
            ${section.blocks.map(htmlBlock)}
          </section>`,
      )}
      <section class="signature">
        <h2>Assinatura</h2>
        <p><span>Responsável pela promotora</span></p>
      </section>`,
  });
}
