// Layers point one way (docs/architecture.md#code-map): the folders of src/ import each other without a loop, no files of src/ or
// cli/ import each other in a circle, inside one folder included (a circle of files is the same
// tangle, only smaller: none of its files can be read, tested or moved without the others), and the
// direction the code map draws holds where it is cheap to say. Every relative import of src/ and
// cli/ counts, type-only imports and `export … from` included, as TypeScript's own pre-processor
// reads them. A type-only import is erased from the JavaScript, so a circle of them cannot misorder
// a module's initialisation; it counts all the same, and that is the choice this test wants: what
// it guards is the design, and a file that names another's types depends on it as much as one that
// calls it (changing the type changes both). A folder is src/x/… (folder x). No file sits directly in
// src/: the bottom layers are three folders, named for what they are, each importing only those below
// it: kernel/ (what every layer receives or throws: context, clock, random, config, log, errors),
// tools/ (domain-free helpers) and input/ (the policy for what an operator types). Every other folder
// may import them; they import no other folder.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A relative import: the file that makes it and the file it names, both from the repository's root. */
interface FileImport {
  file: string;
  target: string;
}

/** An import between two different folders. */
interface ImportEdge extends FileImport {
  from: string;
  to: string;
}

type Graph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.isFile() && e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The folder a repository path belongs to: `x` for src/x/…, `.` for a file directly in src/ (there is none), `cli` for cli/. */
function folderOf(path: string): string {
  const parts = path.split(sep);
  if (parts[0] === 'cli') return 'cli';
  if (parts[0] !== 'src') return parts[0];
  return parts.length === 2 ? '.' : parts[1];
}

/** Every relative import of src/ and cli/. */
function fileImports(): FileImport[] {
  const imports: FileImport[] = [];
  for (const file of [...sourceFiles('src'), ...sourceFiles('cli')]) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      imports.push({ file, target: relative(ROOT, resolve(ROOT, dirname(file), fileName)) });
    }
  }
  return imports;
}

/** The imports between two different folders, with the file that makes each. */
function folderEdges(imports: FileImport[]): ImportEdge[] {
  return imports.flatMap(({ file, target }) => {
    const from = folderOf(file);
    const to = folderOf(target);
    return from === to ? [] : [{ from, to, file, target }];
  });
}

function graphOf(edges: Array<{ from: string; to: string }>): Graph {
  const graph: Graph = new Map();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  return graph;
}

/** The graph of files: an edge from each file to each file it imports. */
function fileGraph(imports: FileImport[]): Graph {
  return graphOf(imports.map(({ file, target }) => ({ from: file, to: target })));
}

/** A cycle of the graph as the list of its nodes, the first repeated at the end; null if there is none. */
function findCycle(graph: Graph): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * Every circle of the graph: its strongly connected components (Tarjan's algorithm) of more than
 * one node, and a node that imports itself. Each lists its nodes sorted, the list sorted by its
 * first node; empty when the graph has no cycle. Unlike findCycle, which stops at the first loop,
 * it names every circle at once, and every file of each.
 */
function circles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** What a failing test says of a circle of files: its files, and one loop through them. */
function describeCircle(files: string[], graph: Graph): string {
  const inside: Graph = new Map(files.map((f) => [f, new Set([...(graph.get(f) ?? [])].filter((t) => files.includes(t)))]));
  return `file import circle of ${files.length} files:\n${files.map((f) => `  ${f}`).join('\n')}\n  for one: ${findCycle(inside)!.join(' -> ')}`;
}

/** The cycle with, for each step, the first file that makes it: what a failing test should say. */
function describeCycle(cycle: string[], edges: ImportEdge[]): string {
  const steps = cycle.slice(1).map((to, i) => {
    const edge = edges.find((e) => e.from === cycle[i] && e.to === to)!;
    return `  ${cycle[i]} -> ${to}: ${edge.file} imports ${edge.target}`;
  });
  return `folder import cycle ${cycle.join(' -> ')}\n${steps.join('\n')}`;
}

const imports = fileImports();
const edges = folderEdges(imports);
const srcEdges = edges.filter((e) => e.from !== 'cli' && e.to !== 'cli');
/** The bottom layers, lowest first: each may import only those before it; every other folder may import them. */
const BOTTOM = ['kernel', 'tools', 'input'];
const importsOf = (folder: string): string[] => [...new Set(edges.filter((e) => e.from === folder).map((e) => e.to))].sort();
const offending = (list: ImportEdge[]): string =>
  list
    .map((e) => `${e.file} imports ${e.target}`)
    .slice(0, 10)
    .join('\n');

test('findCycle finds a loop in a small graph, whichever node it starts from, and none in a DAG', () => {
  const loop = graphOf([
    { from: 'http', to: 'entries' },
    { from: 'entries', to: 'db' },
    { from: 'db', to: 'entries' },
    { from: 'db', to: 'kernel' },
  ]);
  assert.deepEqual(findCycle(loop), ['db', 'entries', 'db']);
  assert.deepEqual(findCycle(graphOf([{ from: 'a', to: 'a' }])), ['a', 'a']);
  const long = graphOf([
    { from: 'x', to: 'y' },
    { from: 'y', to: 'z' },
    { from: 'z', to: 'x' },
  ]);
  assert.deepEqual(findCycle(long), ['x', 'y', 'z', 'x']);
  const dag = graphOf([
    { from: 'http', to: 'entries' },
    { from: 'http', to: 'db' },
    { from: 'entries', to: 'db' },
    { from: 'entries', to: 'kernel' },
    { from: 'db', to: 'kernel' },
  ]);
  assert.equal(findCycle(dag), null);
  assert.equal(findCycle(new Map()), null);
});

test('circles names every circle of files, one inside a folder included, and none in an acyclic graph', () => {
  // a.ts and b.ts import each other inside one folder: no import crosses a folder, so the folder
  // check cannot see it; the file check must.
  const inFolder: FileImport[] = [
    { file: 'src/dashboard/a.ts', target: 'src/dashboard/b.ts' },
    { file: 'src/dashboard/b.ts', target: 'src/dashboard/a.ts' },
    { file: 'src/dashboard/b.ts', target: 'src/tools/html.ts' },
  ];
  assert.equal(findCycle(graphOf(folderEdges(inFolder))), null);
  assert.deepEqual(circles(fileGraph(inFolder)), [['src/dashboard/a.ts', 'src/dashboard/b.ts']]);
  assert.match(
    describeCircle(['src/dashboard/a.ts', 'src/dashboard/b.ts'], fileGraph(inFolder)),
    /src\/dashboard\/a\.ts -> src\/dashboard\/b\.ts -> src\/dashboard\/a\.ts/,
  );
  // Two separate circles, one of three files, and a file that imports itself: all named.
  const several = graphOf([
    { from: 'x', to: 'y' },
    { from: 'y', to: 'z' },
    { from: 'z', to: 'x' },
    { from: 'z', to: 'p' },
    { from: 'p', to: 'q' },
    { from: 'q', to: 'p' },
    { from: 's', to: 's' },
  ]);
  // The dashboard as it was: routes.ts imports a page, the page imports its helpers back.
  const before = fileGraph([
    { file: 'src/http/app.ts', target: 'src/dashboard/routes.ts' },
    { file: 'src/dashboard/routes.ts', target: 'src/dashboard/pages/a.ts' },
    { file: 'src/dashboard/pages/a.ts', target: 'src/dashboard/routes.ts' },
  ]);
  assert.deepEqual(circles(before), [['src/dashboard/pages/a.ts', 'src/dashboard/routes.ts']]);
  assert.deepEqual(circles(several), [['p', 'q'], ['s'], ['x', 'y', 'z']]);
  const acyclic = fileGraph([
    { file: 'src/dashboard/routes.ts', target: 'src/dashboard/pages/a.ts' },
    { file: 'src/dashboard/routes.ts', target: 'src/dashboard/kit.ts' },
    { file: 'src/dashboard/pages/a.ts', target: 'src/dashboard/kit.ts' },
    { file: 'src/dashboard/kit.ts', target: 'src/tools/html.ts' },
  ]);
  assert.deepEqual(circles(acyclic), []);
  assert.deepEqual(circles(new Map()), []);
});

test('the import reader sees type-only imports, `export … from` and multi-line imports', () => {
  const source = [
    "import type { Ctx } from '../context.ts';",
    "export { toMode } from '../keys/keys.ts';",
    'import {',
    '  a,',
    '  b,',
    "} from './sibling.ts';",
    "import { ofetch } from 'ofetch';",
    "// import { nothing } from '../comment.ts';",
  ].join('\n');
  assert.deepEqual(
    ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName),
    ['../context.ts', '../keys/keys.ts', './sibling.ts', 'ofetch'],
  );
});

test('the folders of src/ import each other without a cycle', () => {
  assert.ok(srcEdges.length > 50, `the reader found imports between folders (${srcEdges.length})`);
  const cycle = findCycle(graphOf(srcEdges));
  assert.equal(cycle, null, cycle ? describeCycle(cycle, srcEdges) : '');
});

test('no files of src/ or cli/ import each other in a circle, inside a folder or across folders', () => {
  assert.ok(imports.length > 500, `the reader found the imports between files (${imports.length})`);
  const graph = fileGraph(imports);
  const found = circles(graph);
  assert.deepEqual(found, [], found.map((c) => describeCircle(c, graph)).join('\n'));
});

test('nothing under src/ imports cli/', () => {
  const up = edges.filter((e) => e.from !== 'cli' && e.to === 'cli');
  assert.deepEqual(up, [], offending(up));
});

test('no file sits directly in src/: each belongs to a folder named for what it is', () => {
  const loose = sourceFiles('src').filter((f) => folderOf(f) === '.');
  assert.deepEqual(loose, []);
});

test('the bottom layers point one way: kernel/ imports no folder, tools/ only kernel/, input/ only tools/ and kernel/', () => {
  BOTTOM.forEach((layer, i) => {
    const below = BOTTOM.slice(0, i);
    const out = edges.filter((e) => e.from === layer && !below.includes(e.to));
    assert.deepEqual(out, [], offending(out));
  });
  assert.deepEqual(importsOf('tools'), ['kernel']);
  assert.deepEqual(importsOf('input'), ['kernel']);
});

test('binary/ (what only the executable does) imports only the kernel', () => {
  assert.deepEqual(importsOf('binary'), ['kernel']);
});

test('db/ and validation/ sit below the domain: they import only the bottom layers (db/ also binary/, for SQLite)', () => {
  assert.deepEqual(importsOf('db'), ['binary', 'kernel', 'tools']);
  assert.deepEqual(importsOf('validation'), ['kernel']);
});

test('only the HTTP layer and the CLI import http/ and openapi/ (the document sits on top of the domain)', () => {
  const top = edges.filter((e) => (e.to === 'http' || e.to === 'openapi') && e.from !== 'http' && e.from !== 'cli');
  assert.deepEqual(top, [], offending(top));
});
