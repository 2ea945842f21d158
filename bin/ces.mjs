#!/usr/bin/env node
// The `ces` command. In a checkout (cli/ces.ts present and tsx installed by `npm ci`) it runs the
// TypeScript sources, so an old `npm run build` can never shadow the code being edited. An
// installed package ships no sources, only the one-file bundle dist/ces.mjs, and runs that.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const source = fileURLToPath(new URL('../cli/ces.ts', import.meta.url));
const bundle = fileURLToPath(new URL('../dist/ces.mjs', import.meta.url));

async function loadTsx() {
  try {
    return await import('tsx/esm/api');
  } catch {
    return null; // a checkout installed without dev dependencies: use the bundle if there is one
  }
}

const tsx = existsSync(source) ? await loadTsx() : null;
if (tsx) {
  tsx.register();
  await import(pathToFileURL(source).href);
} else if (existsSync(bundle)) {
  await import(pathToFileURL(bundle).href);
} else {
  process.stderr.write('ces: neither the sources with tsx (npm ci) nor the bundle dist/ces.mjs (npm run build) are available\n');
  process.exitCode = 1;
}
