// The documentation checked against the code (issue 24): docs/api.md's error table lists exactly the
// problem codes of the OpenAPI document, every link of README.md, BENCHMARKS.md and docs/ reaches a
// file and, for an anchor, a heading of that file, each docs page starts with one title and a
// paragraph saying who it is for, and BENCHMARKS.md stays short. The code base stands alone: no
// file cites a document the repository does not hold, every file path the docs name exists, and
// every `docs/….md#anchor` a comment cites reaches a heading.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { documentedProblemCodes } from '../src/openapi/operations.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const PAGES = [
  'README.md',
  'BENCHMARKS.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Codes a client never receives, so the OpenAPI document has no response for them: the table says so. */
const LOG_ONLY_CODES = ['client_closed_request', 'request_timeout'];

test("docs/api.md's error table and the OpenAPI document name the same problem codes", () => {
  const api = read('docs/api.md');
  const start = api.indexOf('| status | `code` | endpoint | meaning |');
  assert.ok(start >= 0, 'the error table keeps its header');
  const rows = api
    .slice(start)
    .split('\n\n')[0]
    .split('\n')
    .slice(2)
    .map((row) => row.split(' | '));
  const documented = rows.map(([, code]) => /^`([a-z_]+)`$/.exec(code)?.[1]);
  assert.ok(
    documented.every((c) => c !== undefined),
    'every row names one code',
  );
  const inTable = new Set(documented as string[]);
  assert.equal(inTable.size, documented.length, 'each code has one row');
  for (const code of LOG_ONLY_CODES) {
    const row = rows.find(([, c]) => c === `\`${code}\``);
    assert.ok(row && row[3].startsWith('never seen by a client'), `${code} is documented as never seen by a client`);
  }
  const openapi = documentedProblemCodes();
  assert.deepEqual([...openapi].filter((c) => !inTable.has(c)).sort(), [], 'in the OpenAPI document, missing from docs/api.md');
  assert.deepEqual(
    [...inTable].filter((c) => !openapi.has(c) && !LOG_ONLY_CODES.includes(c)).sort(),
    [],
    'in docs/api.md, unknown to the OpenAPI document',
  );
});

/** GitHub's anchors: the heading lower-cased, punctuation but `-` and `_` dropped, spaces as `-`, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}
const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

test('every relative link of README.md, BENCHMARKS.md and docs/ reaches its file and heading', () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    for (const [, target] of withoutCode(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no file)`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(anchor))
        broken.push(`${page}: ${target} (no heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('each docs page starts with one title and a paragraph saying who it is for, and README.md stays short', () => {
  for (const page of PAGES.filter((p) => p.startsWith('docs/'))) {
    const text = read(page);
    assert.match(text, /^# [^\n]+\n\n[^#\n][^\n]*/, `${page} opens with a title and a paragraph`);
    assert.equal(withoutCode(text).match(/^# /gm)?.length, 1, `${page} has one title`);
  }
  assert.ok(read('README.md').split('\n').length <= 251, 'README.md is at most 250 lines');
});

/**
 * The text files under the folders whose comments and docs a maintainer reads, walked on disk (the
 * fast tier starts no process, so not `git ls-files`); none of these folders holds ignored files.
 */
const TRACKED = [
  'README.md',
  ...['src', 'cli', 'docs', 'test', 'bench', 'scripts'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`),
  ),
].filter((f) => /\.(ts|mjs|js|md|sql|html|css)$/.test(f));
const SELF = 'test/docs.test.ts';

test('no file cites a document outside the repository', () => {
  // Built from parts so that this file does not match itself.
  const outside = new RegExp(['CONTR' + 'ACT', 'SP' + 'EC\\.md', '\\bSP' + 'EC\\b', 'STY' + 'LE\\.md'].join('|'));
  const cited: string[] = [];
  for (const file of TRACKED.filter((f) => f !== SELF))
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (outside.test(line)) cited.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  assert.deepEqual(cited, []);
});

test('every src/, cli/, test/, docs/, bench/ and scripts/ path in README.md and docs/ exists', () => {
  const missing: string[] = [];
  for (const page of PAGES)
    for (const [, path] of read(page).matchAll(/(?<![\w./-])((?:src|cli|test|docs|bench|scripts)\/[\w./-]*\.[a-z]+)\b/g))
      if (!existsSync(join(ROOT, path))) missing.push(`${page}: ${path}`);
  assert.deepEqual(missing, []);
});

test('every README.md#… or docs/….md#… a file cites reaches a heading', () => {
  const broken: string[] = [];
  for (const file of TRACKED)
    for (const [, doc, anchor] of read(file).matchAll(/(?<![\w./-])((?:docs\/[\w-]+|README)\.md)#([\w-]+)/g)) {
      if (!existsSync(join(ROOT, doc))) broken.push(`${file}: ${doc} (no file)`);
      else if (!anchors(read(doc)).has(anchor)) broken.push(`${file}: ${doc}#${anchor} (no heading)`);
    }
  assert.deepEqual(broken, []);
});

// BENCHMARKS.md holds today's figures; the history of past runs lives in git (git log -p BENCHMARKS.md).
test("BENCHMARKS.md stays at most 200 lines: today's figures, not a history", () => {
  const lines = read('BENCHMARKS.md').split('\n');
  if (lines.at(-1) === '') lines.pop();
  assert.ok(lines.length <= 200, `BENCHMARKS.md has ${lines.length} lines, at most 200`);
});
