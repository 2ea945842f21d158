// Layers point one way (docs/architecture.md#code-map): the folders of src/ import each other
// without a loop, and the direction the code map draws holds where it is cheap to say. Every
// relative import of src/ and cli/ counts, type-only imports and `export … from` included, as
// TypeScript's own pre-processor reads them. A folder is src/x/… (folder x); the files directly in
// src/ are one folder, ".", which every layer may import and which therefore imports no folder.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface ImportEdge {
  from: string;
  to: string;
  file: string;
  target: string;
}

type Graph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.isFile() && e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The folder a repository path belongs to: `x` for src/x/…, `.` for a file directly in src/, `cli` for cli/. */
function folderOf(path: string): string {
  const parts = path.split(sep);
  if (parts[0] === 'cli') return 'cli';
  if (parts[0] !== 'src') return parts[0];
  return parts.length === 2 ? '.' : parts[1];
}

/** Every relative import between two different folders, with the file that makes it. */
function importEdges(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of [...sourceFiles('src'), ...sourceFiles('cli')]) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = relative(ROOT, resolve(ROOT, dirname(file), fileName));
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) edges.push({ from, to, file, target });
    }
  }
  return edges;
}

function graphOf(edges: Array<{ from: string; to: string }>): Graph {
  const graph: Graph = new Map();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  return graph;
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

/** The cycle with, for each step, the first file that makes it: what a failing test should say. */
function describeCycle(cycle: string[], edges: ImportEdge[]): string {
  const steps = cycle.slice(1).map((to, i) => {
    const edge = edges.find((e) => e.from === cycle[i] && e.to === to)!;
    return `  ${cycle[i]} -> ${to}: ${edge.file} imports ${edge.target}`;
  });
  return `folder import cycle ${cycle.join(' -> ')}\n${steps.join('\n')}`;
}

const edges = importEdges();
const srcEdges = edges.filter((e) => e.from !== 'cli' && e.to !== 'cli');
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
    { from: 'db', to: '.' },
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
    { from: 'entries', to: '.' },
    { from: 'db', to: '.' },
  ]);
  assert.equal(findCycle(dag), null);
  assert.equal(findCycle(new Map()), null);
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

test('nothing under src/ imports cli/', () => {
  const up = edges.filter((e) => e.from !== 'cli' && e.to === 'cli');
  assert.deepEqual(up, [], offending(up));
});

test('the files directly in src/ import no folder, so that every layer may import them', () => {
  const out = edges.filter((e) => e.from === '.');
  assert.deepEqual(out, [], offending(out));
});

test('binary/ (what only the executable does) imports only the files directly in src/', () => {
  assert.deepEqual(importsOf('binary'), ['.']);
});

test('db/ and validation/ sit below the domain: they import only the files directly in src/ (db/ also binary/, for SQLite)', () => {
  assert.deepEqual(importsOf('db'), ['.', 'binary']);
  assert.deepEqual(importsOf('validation'), ['.']);
});

test('only the HTTP layer and the CLI import http/ and openapi/ (the document sits on top of the domain)', () => {
  const top = edges.filter((e) => (e.to === 'http' || e.to === 'openapi') && e.from !== 'http' && e.from !== 'cli');
  assert.deepEqual(top, [], offending(top));
});
