// The domain speaks of fields and actions, never of the CLI's flags or commands: a message in src/
// that says "--db" or "run ces check" has put the CLI's wording in the wrong room, and reads wrong on
// the dashboard or in an API answer. The CLI renders fields as flags and next steps as commands
// (cli/fields.ts). This test reads every string and template literal of src/ with TypeScript's
// parser (comments are not literals, so they may say anything) and fails on a flag or a command.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const FLAG = /(^|\s|`)--[a-z][a-z-]+/;
const COMMAND =
  /\bces (serve|check|draw|campaign|key|prize|window|entries|export|webhook|award|participant|backup|restore|dashboard|audit|stats|demo|openapi|version)\b/;

/** Paths under src/ (a folder ends with `/`) whose literals may name flags or commands. */
const SKIPPED: readonly string[] = [
  // the dashboard edge may point the operator to the CLI equivalent of a page
  'src/dashboard/pages/',
  // the dashboard's layout is an edge too, and its title names the product's dashboard
  'src/dashboard/layout.ts',
  // its stylesheet's custom properties (`--fg`) are CSS, not flags
  'src/dashboard/assets.ts',
  // builds the real command lines an operator is told to type
  'src/tools/runtime.ts',
  // sets V8's own flags (--heap-growing-percent)
  'src/tools/heap-growth.ts',
  // starts Node for the full integrity check with V8's own flags (--max-old-space-size)
  'src/db/integrity-child.ts',
  // historic migrations keep the SQL (and its comments) they ran with
  'src/db/migrations/',
];

/** Literals that look like a command but are not words shown to anyone, as `path: literal`, each with why. */
const NOT_WORDS: readonly string[] = [
  // the CSRF digest's domain-separation prefix: changing it would void every signed-in session's token
  'src/dashboard/sessions.ts: ces dashboard csrf\0${}',
];

/** A literal found by the scan: its line (1-based) and its text (a template's parts joined by `${}`). */
interface Finding {
  line: number;
  text: string;
}

/** The string and template literals of a TypeScript source that name a flag or a CES command. */
function findCliWords(fileName: string, source: string): Finding[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Finding[] = [];
  const check = (node: ts.Node, text: string): void => {
    if (FLAG.test(text) || COMMAND.test(text)) {
      found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) check(node, node.text);
    else if (ts.isTemplateExpression(node)) {
      check(node, [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('${}'));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

test('no literal of src/ names a CLI flag or a ces command', () => {
  const offending: string[] = [];
  for (const absolute of sourceFiles(join(ROOT, 'src'))) {
    const path = relative(ROOT, absolute).split('\\').join('/');
    if (SKIPPED.some((skip) => (skip.endsWith('/') ? path.startsWith(skip) : path === skip))) continue;
    for (const finding of findCliWords(path, readFileSync(absolute, 'utf8'))) {
      if (NOT_WORDS.includes(`${path}: ${finding.text}`)) continue;
      offending.push(`${path}:${finding.line}: ${JSON.stringify(finding.text)}`);
    }
  }
  assert.deepEqual(offending, [], 'name the field or the action; the CLI (cli/fields.ts) renders it as a flag or a command');
});

test('the scan flags a planted flag and a planted command, and not a comment', () => {
  const planted = [
    '// run `ces check --db PATH` in a comment is fine',
    '/* so is --db here, and ces serve */',
    "const a = 'give this one another --db';",
    'const b = `run ces check until ${x} passes`;',
    "const c = 'the --- rule, a -- b, and a process (ces) serving';",
    'const d = `--db ${path}`;',
  ].join('\n');
  assert.deepEqual(
    findCliWords('planted.ts', planted).map((f) => f.line),
    [3, 4, 6],
  );
});
