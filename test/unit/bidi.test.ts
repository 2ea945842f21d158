// Issue 32: bidirectional control characters in integrator data reordered what operators read (a
// consent line shown reversed, a name shown as another's). The dashboard's escaping and the CLI's
// human output show each as a visible \u202e; everything else is left as it is. The set is written
// once, in escapeBidiControls, which the dashboard's escaping calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeControlCharacters } from '../../cli/output.ts';
import { escapeBidiControls } from '../../src/kernel/control-characters.ts';
import { escapeHtml, html } from '../../src/tools/html.ts';

const BIDI = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

test('every bidirectional control is shown escaped in the dashboard and in CLI output', () => {
  for (const c of BIDI) {
    const shown = `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    assert.equal(escapeBidiControls(`Ana${c}Maria`), `Ana${shown}Maria`);
    assert.equal(escapeHtml(`Ana${c}Maria`), `Ana${shown}Maria`);
    assert.equal(html`<td>${`Ana${c}Maria`}</td>`.toString(), `<td>Ana${shown}Maria</td>`);
    assert.equal(escapeControlCharacters(`Ana${c}Maria`), `Ana${shown}Maria`);
    assert.equal(escapeControlCharacters(`Ana${c}Maria\nok`, { keepLineBreaks: true }), `Ana${shown}Maria\nok`);
  }
});

test('right-to-left text itself, accents and other Unicode stay as they are', () => {
  for (const text of ['محمد', 'שלום', 'João Conceição', '名前', '👍']) {
    assert.equal(escapeBidiControls(text), text);
    assert.equal(escapeHtml(text), text);
    assert.equal(escapeControlCharacters(text), text);
  }
});

test('escapeBidiControls leaves other control characters and markup to its callers', () => {
  assert.equal(escapeBidiControls('a\u001bb<i>\n'), 'a\u001bb<i>\n');
});
