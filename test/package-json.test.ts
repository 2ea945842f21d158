// package.json as CONTRACT (install/run) describes it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

describe('CONTRACT install/run: package.json', () => {
  // CONTRACT: "The package's bin is ces", "Node >= 20.19 (the engines field says so)", npm start
  // runs `ces serve`, npm run build runs build.mjs.
  test('engines.node is >=20.19, the bin is ces, start serves and build runs build.mjs', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    assert.equal(pkg.engines.node, '>=20.19');
    assert.deepEqual(Object.keys(pkg.bin), ['ces']);
    assert.match(pkg.scripts.start, /\bserve$/);
    assert.match(pkg.scripts.build, /\bbuild\.mjs\b/);
  });
});
