// What operators and participants wrote, as the records show it (issue 43, security review): the
// masked initial of a name or an e-mail never passes a control or bidirectional character through
// (src/tools/masking.ts), and text put into a Markdown record renders as typed, markup and all
// (src/tools/markdown.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownText } from '../../src/tools/markdown.ts';
import { maskEmail, maskName } from '../../src/tools/masking.ts';

test('a masked initial shows a control or bidirectional character escaped; letters, accents and emoji stay', () => {
  assert.equal(maskName('\u202eairaM Silva'), '\\u202e*** S***');
  assert.equal(maskName('\u001b[2JMaria'), '\\u001b***');
  assert.equal(maskName('Ana \u2066Bia'), 'A*** \\u2066***');
  assert.equal(maskName('Élida da Conceição'), 'É*** d*** C***');
  assert.equal(maskName('👍 Ana'), '👍*** A***');
  assert.equal(maskEmail('\u202eana@example.com'), '\\u202e***@e***.com');
  assert.equal(maskEmail('ana@\u202eexample.com'), 'a***@\\u202e***.com');
  assert.equal(maskEmail('maria@example.com'), 'm***@e***.com');
});

/** What a CommonMark renderer shows of an escaped text: each backslash escape of ASCII punctuation is the character itself. */
const rendered = (markdown: string): string => markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1');

test('Markdown text renders as typed: HTML, comments, emphasis, links, code, tables and line breaks are escaped', () => {
  for (const typed of [
    'Sorteio <!-- de Natal',
    '<b>Natal</b> <script>alert(1)</script>',
    '*grátis* _agora_ ~~não~~ `código`',
    '[clique](https://evil.example) ![x](y)',
    'A | B \\ C &amp; &lt;',
    'Praça da Sé, 1 — São Paulo/SP',
  ]) {
    const md = markdownText(typed);
    assert.equal(rendered(md), typed, typed);
    assert.doesNotMatch(md, /(^|[^\\])[<>*_`[\]|~&]/, `${typed}: no markup character unescaped in ${md}`);
  }
  assert.equal(markdownText('Motivo:\n# título\r\n- item'), 'Motivo: # título - item', 'one line: no heading, no list item');
  assert.equal(markdownText('Ana\u202eMaria'), 'Ana\\\\u202eMaria', 'a bidirectional control shown as \\u202e once rendered');
  assert.equal(rendered(markdownText('Ana\u202eMaria')), 'Ana\\u202eMaria');
});
