#!/usr/bin/env node
// The `ces` command. Runs the one-file bundle when it has been built (npm run build, or an
// installed package), else the TypeScript sources through tsx (a checkout after npm ci).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/ces.mjs', import.meta.url));
if (existsSync(bundle)) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/ces.ts');
}
