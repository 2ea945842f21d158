// npm run build: bundles cli/ces.ts and everything it imports into one ESM file, dist/ces.mjs,
// runnable as `node dist/ces.mjs …` with only better-sqlite3 (a native addon, which cannot be
// bundled) installed beside it. schema.generated.sql and the first schema
// (src/db/migrations/001-initial.sql) are embedded through the __CES_SCHEMA__ and
// __CES_INITIAL_SCHEMA__ defines that src/db/schema.ts reads. Importable: test/slow/build.test.ts
// calls buildBundle({ outfile }) so that it never overwrites the repository's dist/ while other
// tests run.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

// Bundled CommonJS dependencies call require(); an ESM file has none, so the banner gives them
// one bound to the bundle's own location (which is also how `better-sqlite3` is found at runtime).
// esbuild keeps the entry point's own `#!` line first; the banner adds one only if it has none.
const REQUIRE_SHIM = [
  "import { createRequire as __cesCreateRequire } from 'node:module';",
  'const require = __cesCreateRequire(import.meta.url);',
];

/** esbuild options: one ESM file for Node 24, better-sqlite3 left outside. */
const common = (minify) => ({
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  external: ['better-sqlite3'],
  minify,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});

/**
 * Builds the bundle; returns the output path and its size in bytes. `entry` defaults to the CLI;
 * the benchmark bundles its server and echo processes the same way, so it measures the code as
 * operators run it.
 */
export async function buildBundle({ outfile = `${ROOT}dist/ces.mjs`, minify = false, entry = `${ROOT}cli/ces.ts` } = {}) {
  const entryHasHashbang = readFileSync(entry, 'utf8').startsWith('#!');
  const banner = [...(entryHasHashbang ? [] : ['#!/usr/bin/env node']), ...REQUIRE_SHIM].join('\n');
  const result = await build({
    ...common(minify),
    entryPoints: [entry],
    outfile,
    banner: { js: banner },
    define: { ...schemaDefines(), __CES_BUILD__: JSON.stringify('bundle') },
    write: false,
  });
  const text = asciiOnly(result.outputFiles[0].text);
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, text);
  return { outfile, bytes: Buffer.byteLength(text) };
}

/** The schema texts src/db/schema.ts reads, embedded in a build so it needs no file beside it. */
export function schemaDefines() {
  return {
    __CES_SCHEMA__: JSON.stringify(readFileSync(`${ROOT}schema.generated.sql`, 'utf8')),
    __CES_INITIAL_SCHEMA__: JSON.stringify(readFileSync(`${ROOT}src/db/migrations/001-initial.sql`, 'utf8')),
  };
}

/**
 * The bundle with every character above U+007F written as a \u escape. V8 keeps a module's source
 * in memory as long as the process runs (it compiles functions lazily, from the source), at one
 * byte a character only if every character fits in one: esbuild escapes non-ASCII characters in
 * strings, but not in template literals (the dashboard's "–" and "…"), comments or regular
 * expressions, so the whole 1.9 MB bundle was held at two bytes a character. Those 1.9 MB more of
 * live heap cost some 10 MB of peak RSS under intake (V8 lets the old generation grow to several
 * times what is live before it collects). An escape means the same character in each of those
 * places: a comment, a cooked template string, a string, a regular expression. Not everywhere:
 * after a backslash (`\–` would become `\\u2013`, a backslash and five letters) the build stops
 * rather than guess; a template's raw strings (`String.raw`) keep an escape as six characters, and
 * no template of ces reads them (what the bundle's dependencies leave non-ASCII is a comment and a
 * regular expression); a character beyond U+FFFF becomes two escapes, valid everywhere but in an
 * identifier.
 */
export function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c, offset) => {
    if (text[offset - 1] === '\\') {
      const line = text.slice(0, offset).split('\n').length;
      throw new Error(
        `bundle line ${line}: a non-ASCII character right after a backslash cannot be escaped safely; write it as a \\u escape in the source`,
      );
    }
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { outfile, bytes } = await buildBundle();
  process.stdout.write(`built ${outfile.replace(ROOT, '')} (${(bytes / 1024).toFixed(0)} KiB)\n`);
}
