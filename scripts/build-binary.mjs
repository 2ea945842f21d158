// npm run build:binary: dist/ces, one executable for linux-x64 that runs every command on a machine
// without Node.js, plus dist/ces-VERSION-linux-x64.gz and dist/SHA256SUMS. It is a Node.js Single
// Executable Application: the runtime .node-version names (scripts/node-runtime.mjs), stripped of
// its symbols, with a blob injected by postject that holds
//   - the main script: cli/ces.ts bundled as one CommonJS file (the form the runtime runs as a main
//     script), `better-sqlite3` resolved to src/binary/better-sqlite3.ts;
//   - two assets: better-sqlite3's addon compiled for that runtime, and better-sqlite3's JavaScript
//     as one CommonJS file that loads the addon from beside it. src/binary/native-cache.ts writes
//     both to a folder of the user's on first use and checks them by the SHA-256 written here.
// docs/architecture.md ("The executable") explains the layout; docs/deploy.md is the operator's side.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { asciiOnly, schemaDefines } from '../build.mjs';
import { cacheRoot, NODE_VERSION, nodeRuntime } from './node-runtime.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
// postject's CLI, run as a child: the ELF library inside it writes a warning line per note section
// of a stripped binary ("Can't find string offset for section name '.note.100'"), harmless, and the
// build shows them only when the injection fails.
const POSTJECT_CLI = join(dirname(require.resolve('postject')), 'cli.js');

const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const ADDON = 'better_sqlite3.node';
const MODULE = 'better-sqlite3.cjs';
// The fuse Node looks for to know that a blob was injected: fixed for every Node release.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Builds the executable into `outDir`; returns the paths written and the sizes the docs report. */
export async function buildBinary({ outDir = join(ROOT, 'dist'), log = () => {} } = {}) {
  const runtime = nodeRuntime();
  const work = mkdtempSync(join(tmpdir(), 'ces-binary-'));
  try {
    log(`runtime: Node ${NODE_VERSION} (${runtime})`);
    const addon = join(work, ADDON);
    // Stripped: the symbols are for debuggers, and a tenth of the file.
    execFileSync('strip', ['--strip-unneeded', '-o', addon, addonFor(runtime, log)]);
    const module = join(work, MODULE);
    await bundleSqliteModule(module);
    const manifest = nativeManifest({ [ADDON]: readFileSync(addon), [MODULE]: readFileSync(module) });
    const main = join(work, 'main.cjs');
    await bundleMain(main, manifest);

    const blob = join(work, 'sea.blob');
    // Paths relative to the work folder, whose name is random: the blob records the main script's
    // path (its name in stack traces), and an absolute one would name a folder of the machine that
    // built it and make every build's bytes differ.
    const config = {
      main: 'main.cjs',
      output: 'sea.blob',
      disableExperimentalSEAWarning: true,
      // A snapshot or a code cache would start faster, but neither is the same bytes from one build
      // to the next, and two builds of one commit must be (docs/architecture.md).
      useSnapshot: false,
      useCodeCache: false,
      assets: { [ADDON]: ADDON, [MODULE]: MODULE },
    };
    writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config));
    execFileSync(join(runtime, 'bin', 'node'), ['--experimental-sea-config', 'sea-config.json'], { cwd: work, stdio: 'pipe' });

    const executable = join(work, 'ces');
    execFileSync('strip', ['--strip-all', '-o', executable, join(runtime, 'bin', 'node')]);
    const injected = spawnSync(process.execPath, [POSTJECT_CLI, executable, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], {
      encoding: 'utf8',
    });
    if (injected.status !== 0) throw new Error(`postject failed (status ${injected.status}):\n${injected.stdout}${injected.stderr}`);
    chmodSync(executable, 0o755);

    mkdirSync(outDir, { recursive: true });
    const out = join(outDir, 'ces');
    const gzName = `ces-${VERSION}-linux-x64.gz`;
    const bytes = readFileSync(executable);
    // gzip's header has no name and a zero time, so the archive is the same bytes every build.
    const gz = gzipSync(bytes, { level: 9 });
    writeAtomically(join(outDir, gzName), gz);
    copyFileSync(executable, `${out}.tmp`);
    chmodSync(`${out}.tmp`, 0o755);
    renameSync(`${out}.tmp`, out);
    writeAtomically(join(outDir, 'SHA256SUMS'), `${sha256(bytes)}  ces\n${sha256(gz)}  ${gzName}\n`);
    return {
      executable: out,
      archive: join(outDir, gzName),
      sums: join(outDir, 'SHA256SUMS'),
      node: NODE_VERSION,
      sizes: { executable: bytes.length, gzipped: gz.length },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function writeAtomically(path, data) {
  writeFileSync(`${path}.tmp`, data);
  renameSync(`${path}.tmp`, path);
}

/**
 * better-sqlite3's addon for the runtime. The one `npm ci` compiled is it when this very Node release
 * runs the build (CI does, .ci/run); otherwise it is compiled from the installed package's sources
 * against the runtime's own headers, once, into the build cache.
 */
function addonFor(runtime, log) {
  const pkg = dirname(require.resolve('better-sqlite3/package.json'));
  const installed = join(pkg, 'build', 'Release', ADDON);
  if (process.version === `v${NODE_VERSION}` && existsSync(installed)) return installed;
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  const dir = join(cacheRoot(), `better-sqlite3-${version}-node-v${NODE_VERSION}`);
  const built = join(dir, 'build', 'Release', ADDON);
  if (existsSync(built)) return built;
  log(`compiling better-sqlite3 ${version} for Node ${NODE_VERSION} (a few minutes)`);
  const staging = `${dir}.staging`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(pkg, staging, {
    recursive: true,
    filter: (src) => !src.startsWith(join(pkg, 'build')) && !src.startsWith(join(pkg, 'node_modules')),
  });
  execFileSync(join(runtime, 'bin', 'node'), [nodeGyp(), 'rebuild', '--release', `--nodedir=${runtime}`, '--jobs=max'], {
    cwd: staging,
    // npm's own configuration (npm_config_nodedir, set by some distributions' npm) would win over
    // --nodedir and compile against the headers of the Node that runs npm.
    env: { ...withoutNpmConfig(process.env), npm_config_nodedir: runtime },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return built;
}

function withoutNpmConfig(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_config_/i.test(name)));
}

/** node-gyp as npm carries it (npm compiles addons with it): the npm running this script, else the one on PATH. */
function nodeGyp() {
  const candidates = [];
  if (process.env.npm_execpath)
    candidates.push(join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  try {
    const npm = execFileSync('sh', ['-c', 'readlink -f "$(command -v npm)"'], { encoding: 'utf8' }).trim();
    if (npm) candidates.push(join(dirname(npm), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  } catch {
    // no npm on PATH
  }
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error('node-gyp not found (it comes with npm); it compiles better-sqlite3 for the runtime');
  return found;
}

/** better-sqlite3's JavaScript as one CommonJS file that loads the addon from its own folder. */
async function bundleSqliteModule(outfile) {
  const bindings = {
    name: 'addon-beside-the-module',
    setup(b) {
      b.onResolve({ filter: /^bindings$/ }, () => ({ path: 'bindings', namespace: 'ces-bindings' }));
      b.onLoad({ filter: /.*/, namespace: 'ces-bindings' }, () => ({
        contents: "module.exports = (name) => require(require('node:path').join(__dirname, name));",
        loader: 'js',
      }));
    },
  };
  await build({
    entryPoints: [require.resolve('better-sqlite3')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: `node${NODE_VERSION.split('.')[0]}`,
    plugins: [bindings],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

/** The files the executable carries, their SHA-256, and the folder name that is unique to them. */
function nativeManifest(files) {
  const sums = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, sha256(bytes)]));
  const folder = `ces-${VERSION}-linux-x64-${sha256(Object.values(sums).join('\n')).slice(0, 12)}`;
  return { folder, addon: ADDON, module: MODULE, sha256: sums };
}

/** cli/ces.ts as one CommonJS file, with the defines src/tools/runtime.ts, src/db/schema.ts and src/binary/native.ts read. */
async function bundleMain(outfile, manifest) {
  const sqlite = {
    name: 'sqlite-from-the-executable',
    setup(b) {
      b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: join(ROOT, 'src', 'binary', 'better-sqlite3.ts') }));
    },
  };
  const result = await build({
    entryPoints: [join(ROOT, 'cli', 'ces.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: `node${NODE_VERSION.split('.')[0]}`,
    plugins: [sqlite],
    define: {
      ...schemaDefines(),
      __CES_BUILD__: JSON.stringify('binary'),
      __CES_NATIVE__: JSON.stringify(manifest),
      // No code of ces reads its own location inside the executable (src/db/sqlite-module.ts asks
      // the executable's copy first): a path that cannot exist makes a slip fail at once.
      'import.meta.url': JSON.stringify('file:///ces-executable/'),
    },
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // The entry's `#!` line is no use to a main script inside an executable.
  writeFileSync(outfile, asciiOnly(result.outputFiles[0].text.replace(/^#!.*\n/, '')));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const result = await buildBinary({ log: (line) => process.stdout.write(`${line}\n`) });
  const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  process.stdout.write(
    `built dist/ces (${mib(result.sizes.executable)}), dist/ces-${VERSION}-linux-x64.gz (${mib(result.sizes.gzipped)}) and dist/SHA256SUMS in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
}
