// package.json as README.md's install, run and test steps describe it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

describe('package.json: install and run', () => {
  // The bin is ces; the engines field names the LTS line the suite runs on in CI, the line of the
  // runtime inside the executable (.node-version); npm start runs `ces serve`; npm run build runs
  // build.mjs and npm run build:binary the executable's build.
  test('engines.node is the line of .node-version, the bin is ces, start serves and the builds run their scripts', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    const runtime = readFileSync(new URL('../.node-version', import.meta.url), 'utf8').trim();
    assert.match(runtime, /^\d+\.\d+\.\d+$/);
    assert.match(pkg.engines.node, new RegExp(`^\\^${runtime.split('.')[0]}\\.\\d+\\.\\d+$`));
    assert.match(pkg.scripts['build:binary'], /\bscripts\/build-binary\.mjs\b/);
    assert.deepEqual(Object.keys(pkg.bin), ['ces']);
    assert.match(pkg.scripts.start, /\bserve$/);
    assert.match(pkg.scripts.build, /\bbuild\.mjs\b/);
  });

  // npm asks for install scripts to be approved (allowScripts): the day it stops running the ones
  // not listed, better-sqlite3 would install without its addon, and ces without SQLite.
  test('install scripts: better-sqlite3 and esbuild approved, the telemetry one denied', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { allowScripts: Record<string, boolean> };
    assert.deepEqual(pkg.allowScripts, { 'better-sqlite3': true, esbuild: true, '@scarf/scarf': false });
  });

  // The disaster-recovery drill's Litestream (test/slow/litestream-drill.test.ts): an optional dependency,
  // so that `npm ci` passes where the linux-x64 binary cannot install, pinned (the drill asserts
  // the SQLite inside it), and never the @flydotio/litestream wrapper, which exits 0 on a failed
  // restore and does not pass SIGTERM on.
  test('Litestream for the drill is an optional, pinned linux-x64 binary, and the npm wrapper is nowhere', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, string>>;
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { optional?: boolean; dev?: boolean; os?: string[]; cpu?: string[] }>;
    };
    assert.deepEqual(pkg.optionalDependencies, { '@flydotio/litestream-linux-x64': '1.0.1' });
    for (const field of ['dependencies', 'devDependencies']) assert.equal(pkg[field]['@flydotio/litestream-linux-x64'], undefined, field);
    const entry = lock.packages['node_modules/@flydotio/litestream-linux-x64'];
    assert.deepEqual([entry.optional, entry.os, entry.cpu], [true, ['linux'], ['x64']]);
    assert.equal(lock.packages['node_modules/@flydotio/litestream'], undefined);
  });
});
