// Every export of src/ and cli/ is imported somewhere: an export nobody imports is either dead code
// or a name that should not be exported (used only inside its own file). oxlint has no rule for
// this, so this test reads the files with TypeScript's parser. An export counts as used when any
// file of src/, cli/, test/, bench/, scripts/ or clients/typescript/ (or build.mjs, bin/) imports
// it by name, re-exports it (`export { x } from`), names it through a type (`import('…').X`) or
// destructures it from a dynamic `import('…')`. A namespace import (`import * as ns`), `export *`
// and a dynamic import not destructured count as using every export of the file: following `ns.x`
// is not worth the code. Only relative specifiers are followed; they are written with their
// extension here, so a specifier resolves to a file without guessing.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A file to scan: its path from the repository's root (with `/`), and its text. */
interface SourceText {
  path: string;
  text: string;
}

/** The folders whose exports must be imported somewhere. */
const EXPORTING = ['src/', 'cli/'];
/** The folders (and files) whose imports count. */
const IMPORTING = ['src', 'cli', 'test', 'bench', 'scripts', 'clients/typescript', 'bin', 'build.mjs'];

/**
 * Exports used by a mechanism the scan cannot see, as `file: name`, each with why. Keep it short:
 * an entry here is an export the test no longer guards.
 */
const USED_UNSEEN = [
  // scripts/build-binary.mjs resolves the package name `better-sqlite3` to this file (an esbuild
  // plugin, by path), so its default export is what the executable's `import Database` gets.
  'src/binary/better-sqlite3.ts: default',
];

const ALLOWED = new Set(USED_UNSEEN);

/** The names a file exports: `default` for a default export. */
function exportsOf(source: ts.SourceFile): string[] {
  const names: string[] = [];
  const bindingNames = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.push(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isExportAssignment(statement)) {
      names.push('default');
      continue;
    }
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) for (const element of clause.elements) names.push(element.name.text);
      else if (clause && ts.isNamespaceExport(clause)) names.push(clause.name.text);
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) names.push('default');
    else if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) bindingNames(d.name);
    else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name &&
      ts.isIdentifier(statement.name)
    )
      names.push(statement.name.text);
  }
  return names;
}

/** The names a file takes from each file it imports: `*` for all of them. */
function importsOf(source: ts.SourceFile, paths: Set<string>): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  const use = (specifier: ts.Node | undefined, names: string[]): void => {
    if (!specifier || !ts.isStringLiteralLike(specifier) || !specifier.text.startsWith('.')) return;
    const target = posix.normalize(posix.join(posix.dirname(source.fileName), specifier.text));
    if (!paths.has(target)) return;
    if (!used.has(target)) used.set(target, new Set());
    for (const name of names) used.get(target)!.add(name);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const names: string[] = [];
      if (clause?.name) names.push('default');
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
      else if (bindings) for (const e of bindings.elements) names.push((e.propertyName ?? e.name).text);
      use(node.moduleSpecifier, names);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      if (clause && ts.isNamedExports(clause))
        use(
          node.moduleSpecifier,
          clause.elements.map((e) => (e.propertyName ?? e.name).text),
        );
      else use(node.moduleSpecifier, ['*']);
    } else if (ts.isImportTypeNode(node)) {
      const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      let first = node.qualifier;
      while (first && ts.isQualifiedName(first)) first = first.left;
      use(literal, [first ? first.text : '*']);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      // `const { a, b } = await import('…')` names what it takes; any other use takes everything.
      const awaited = ts.isAwaitExpression(node.parent) ? node.parent : undefined;
      const declaration = awaited && ts.isVariableDeclaration(awaited.parent) ? awaited.parent : undefined;
      const pattern = declaration && ts.isObjectBindingPattern(declaration.name) ? declaration.name : undefined;
      const names = pattern?.elements.map((e) => {
        const key = e.propertyName ?? e.name;
        return ts.isIdentifier(key) ? key.text : '*';
      });
      use(node.arguments[0], names ?? ['*']);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return used;
}

/** Every export of the exporting folders that no file imports, as `file: name`, sorted. */
function unusedExports(files: SourceText[]): string[] {
  const paths = new Set(files.map((f) => f.path));
  const sources = files.map((f) => ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
  const used = new Map<string, Set<string>>();
  for (const source of sources)
    for (const [target, names] of importsOf(source, paths)) {
      if (!used.has(target)) used.set(target, new Set());
      for (const name of names) used.get(target)!.add(name);
    }
  const unused: string[] = [];
  for (const source of sources) {
    if (!EXPORTING.some((folder) => source.fileName.startsWith(folder))) continue;
    const taken = used.get(source.fileName);
    if (taken?.has('*')) continue;
    for (const name of new Set(exportsOf(source))) if (!taken?.has(name)) unused.push(`${source.fileName}: ${name}`);
  }
  return unused.sort();
}

/** The TypeScript and JavaScript files under a folder of the repository, skipping dependencies and builds. */
function sourceFiles(path: string): SourceText[] {
  if (/\.(ts|mts|mjs)$/.test(path)) return [{ path, text: readFileSync(join(ROOT, path), 'utf8') }];
  return readdirSync(join(ROOT, path), { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) return [];
    const child = posix.join(path, e.name);
    if (e.isDirectory()) return sourceFiles(child);
    return e.isFile() && /\.(ts|mts|mjs)$/.test(e.name) ? sourceFiles(child) : [];
  });
}

test('the scan reports an export nobody imports, and not one imported in any of the ways it reads', () => {
  const files: SourceText[] = [
    {
      path: 'src/a.ts',
      text: [
        'export function used() {}',
        'export function unused() {}',
        'export const [x, { y }] = [1, { y: 2 }];',
        'export interface Shape {}',
        'export type Kind = string;',
        'export enum Colour { Red }',
        'export class Thing {}',
        'const local = 1;',
        'export { local as renamed };',
        'export default 3;',
      ].join('\n'),
    },
    { path: 'src/b.ts', text: "export { Thing as Other } from './a.ts';\nexport * as all from './c.ts';\nexport * from './f.ts';" },
    { path: 'src/f.ts', text: 'export const g = 1;' },
    { path: 'src/c.ts', text: 'export const c = 1;' },
    { path: 'src/d.ts', text: 'export const d = 1;' },
    { path: 'src/e.ts', text: 'export const e = 1;\nexport const f = 2;' },
    {
      path: 'cli/main.ts',
      text: [
        "import three, { used, x as ex } from '../src/a.ts';",
        "import type { Shape } from '../src/a.ts';",
        "import * as everything from '../src/d.ts';",
        "import { Other, all } from '../src/b.ts';",
        "let k: import('../src/a.ts').Kind;",
        "import { somethingElse } from 'node:fs';",
      ].join('\n'),
    },
    {
      path: 'test/t.ts',
      text: [
        "const { y, Colour: C } = await import('../src/a.ts');",
        "const m = await import('../src/e.ts');",
        "import { renamed } from '../src/a.ts';",
      ].join('\n'),
    },
  ];
  assert.deepEqual(unusedExports(files), ['src/a.ts: unused']);
  // A test file's own exports are not checked; an export of cli/ is.
  files.push({ path: 'cli/other.ts', text: 'export const unusedToo = 1;' });
  assert.deepEqual(unusedExports(files), ['cli/other.ts: unusedToo', 'src/a.ts: unused']);
});

test('every export of src/ and cli/ is imported somewhere', () => {
  const files = IMPORTING.flatMap(sourceFiles);
  assert.ok(files.length > 300, `the scan found the files (${files.length})`);
  const found = unusedExports(files);
  const unused = found.filter((entry) => !ALLOWED.has(entry));
  assert.deepEqual(unused, [], `exports imported nowhere (delete them, or drop \`export\` if used in their file):\n${unused.join('\n')}`);
  const stale = [...ALLOWED].filter((entry) => !found.includes(entry));
  assert.deepEqual(stale, [], `allowed exports that are now imported, or gone (remove them from the list):\n${stale.join('\n')}`);
});
