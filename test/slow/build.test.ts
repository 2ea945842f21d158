// The one-file build (docs/operations.md#one-file-build-and-installing-with-npm; issue 7 "One
// file"): build.mjs bundles the CLI into one ESM file that runs every command with only
// better-sqlite3 beside it, and `npm pack` ships that bundle so that an installed `ces` needs no
// sources and no tsx. The bundle is built into a temp folder whose node_modules holds
// better-sqlite3 and nothing else: any other package the bundle still required at run time would
// fail these tests.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { formatNumber } from '../../src/draws/number-set.ts';
import { listLuckyNumbersForEntry } from '../../src/mechanics/lucky-numbers.repo.ts';
import { makeCampaign, ROOT, startTestServer } from '../support/harness.ts';
import { settle, submitEntry } from '../support/mechanics.ts';

const run = promisify(execFile);

/** `ces --version` through `bin` prints package.json's version, and `ces demo` creates a campaign in a database under `cwd`. */
async function assertBinRunsCommands(bin: string, cwd: string): Promise<void> {
  const { stdout: version } = await run(process.execPath, [bin, '--version'], { cwd });
  assert.equal(version.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  const { stdout } = await run(process.execPath, [bin, 'demo', '--json', '--db', join(cwd, 'ces.db')], { cwd });
  assert.match(JSON.parse(stdout).campaign.id, /^[0-9a-f-]{36}$/);
}

interface BuildModule {
  buildBundle(options: { outfile: string }): Promise<{ outfile: string; bytes: number }>;
  asciiOnly(text: string): string;
}

/** A folder with node_modules/better-sqlite3 only (linked to the checkout's, as npm would install it). */
function makeRuntimeDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules/better-sqlite3'), join(dir, 'node_modules/better-sqlite3'), 'dir');
  return dir;
}

/** Starts `node <file> serve --port 0` and resolves with its URL once it prints "listening on". */
function startBundledServer(
  file: string,
  dbPath: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [file, 'serve', '--port', '0', '--db', dbPath, '--log-format', 'json', '--tick-ms', '50'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (match) resolve({ child, url: match[1], output: () => out });
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
}

function waitForExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code))));
}

describe('one-file bundle', () => {
  let dir: string;
  let bundle: string;

  before(async () => {
    dir = makeRuntimeDir('ces-bundle-');
    const { buildBundle } = (await import(join(ROOT, 'build.mjs') as string)) as BuildModule;
    const built = await buildBundle({ outfile: join(dir, 'ces.mjs') });
    bundle = built.outfile;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('is one ESM file with a #! line, schema.generated.sql embedded and better-sqlite3 as its only package import', () => {
    const text = readFileSync(bundle, 'utf8');
    assert.ok(text.startsWith('#!/usr/bin/env node\n'), 'first line is the hashbang');
    assert.equal(text.match(/^#!/gm)?.length, 1, 'exactly one hashbang');
    assert.ok(text.includes('CREATE TABLE campaigns'), 'schema.generated.sql text is embedded');
    const bareImports = [...text.matchAll(/(?:^import .* from |\bimport\(|\brequire\()\s*["']([^"']+)["']/gm)]
      .map((m) => m[1])
      .filter(
        (spec) =>
          !spec.startsWith('node:') &&
          ![
            'crypto',
            'http',
            'https',
            'fs',
            'path',
            'os',
            'url',
            'util',
            'stream',
            'events',
            'net',
            'tls',
            'zlib',
            'child_process',
            'tty',
            'readline',
          ].includes(spec),
      );
    assert.deepEqual([...new Set(bareImports)], ['better-sqlite3']);
  });

  test('holds no path of the checkout it was built from, which a message could otherwise print', () => {
    // esbuild names modules by their path relative to the checkout; an absolute one would be ours.
    assert.ok(!readFileSync(bundle, 'utf8').includes(ROOT.replace(/\/$/, '')), `the bundle names ${ROOT}`);
  });

  test('is ASCII only, so that V8 holds its source at one byte a character', () => {
    const text = readFileSync(bundle, 'utf8');
    const others = [...new Set(text.match(/[^\x00-\x7f]/g) ?? [])];
    assert.deepEqual(others, []);
  });

  test('asciiOnly escapes a character to the same meaning in a template, a string, a regular expression and a comment', async () => {
    const { asciiOnly } = (await import(join(ROOT, 'build.mjs') as string)) as BuildModule;
    const source = [
      'const tag = (strings, ...values) => strings.map((s, i) => s + (values[i] ?? "")).join("");',
      '// a comment with a dash – and an ellipsis …',
      'const name = "São Paulo ’";',
      'return [tag`<td>–</td>${name}…`, /^[\\w$\\x80-\ufffc]+$/.test("ação"), `${name.length} 😀`];',
    ].join('\n');
    const escaped = asciiOnly(source);
    assert.match(escaped, /^[\x00-\x7f]*$/);
    assert.deepEqual(new Function(escaped)(), new Function(source)());
    assert.deepEqual(new Function(source)(), ['<td>–</td>São Paulo ’…', true, '11 😀']);
    // After a backslash an escape would mean something else: the build stops instead.
    assert.throws(() => asciiOnly('const s = `a\\–b`;'), /line 1: a non-ASCII character right after a backslash/);
  });

  test('node <bundle> demo --json prints one JSON document and creates the campaign in a new database', async () => {
    const dbPath = join(dir, 'demo.db');
    const { stdout } = await run(process.execPath, [bundle, 'demo', '--json', '--db', dbPath], { cwd: dir });
    const demo = JSON.parse(stdout);
    assert.match(demo.campaign.id, /^[0-9a-f-]{36}$/);
    assert.match(demo.key.key, /_test_/);
    const { stdout: list } = await run(process.execPath, [bundle, 'campaign', 'list', '--json', '--db', dbPath], { cwd: dir });
    assert.deepEqual(
      JSON.parse(list).map((c: { id: string }) => c.id),
      [demo.campaign.id],
    );
  });

  test("node <bundle> demo tells its user the installed commands, ces serve and ces webhook listen, not the checkout's", async () => {
    const dbPath = join(dir, 'demo-text.db');
    const { stdout } = await run(process.execPath, [bundle, 'demo', '--db', dbPath], { cwd: dir });
    assert.ok(stdout.includes(`\nStart the server (ces serve --db ${dbPath}), then submit an entry:\n`), stdout);
    assert.match(stdout, /^ces webhook listen --campaign [0-9a-f-]{36} /m);
    assert.doesNotMatch(stdout, /npm|npx/);
  });

  test("node <bundle> serve answers the demo's curl command with 202 and stops with exit 0 on SIGTERM", async () => {
    const dbPath = join(dir, 'serve.db');
    const server = await startBundledServer(bundle, dbPath);
    try {
      const { stdout } = await run(process.execPath, [bundle, 'demo', '--json', '--db', dbPath, '--url', server.url], { cwd: dir });
      const demo = JSON.parse(stdout);
      assert.ok(demo.curl.startsWith(`curl -i -X POST ${server.url}/v1/entries`));
      const curl = await run('sh', ['-c', demo.curl], { cwd: dir });
      assert.match(curl.stdout, /^HTTP\/1\.1 202/);
      const body = JSON.parse(curl.stdout.slice(curl.stdout.indexOf('\r\n\r\n') + 4));
      assert.equal(body.status, 'PENDING');
      const { stdout: shown } = await run(process.execPath, [bundle, 'entries', 'show', body.entry_id, '--json', '--db', dbPath], {
        cwd: dir,
      });
      assert.equal(JSON.parse(shown).entry_id, body.entry_id);
    } finally {
      server.child.kill('SIGTERM');
    }
    assert.equal(await waitForExit(server.child), 0, server.output());
  });

  test("node <bundle> draw freeze scans on its worker thread from the bundle and freezes every approved entry's numbers", async () => {
    const s = await startTestServer();
    try {
      const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 3, seriesCount: 2 });
      const entries = [await submitEntry(s, w.liveKey), await submitEntry(s, w.liveKey)];
      await settle(s);
      const held = entries.flatMap((id) => listLuckyNumbersForEntry(s.ctx.db, id).map((n) => formatNumber(n.series, n.order_number, 2)));
      assert.equal(held.length, 6);
      const ces = async (args: string[]): Promise<Record<string, unknown>> =>
        JSON.parse((await run(process.execPath, [bundle, ...args, '--json', '--db', s.dbPath], { cwd: dir })).stdout);
      // The server's clock stands at 2026-11-22T12:00Z; the bundle's is the system's, past this cut-off
      // and before the extraction, planned a month from now (a draw is frozen before its extraction).
      const draw = await ces([
        'draw',
        'create',
        '--campaign',
        w.campaign.id,
        '--mode',
        'live',
        '--name',
        'Sorteio',
        '--cutoff',
        '2026-11-23T00:00:00Z',
        '--extraction-date',
        new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      ]);
      const frozen = await ces(['draw', 'freeze', String(draw.id)]);
      assert.equal(frozen.eligible_count, 6);
      const { stdout: list } = await run(process.execPath, [bundle, 'draw', 'numbers', String(draw.id), '--db', s.dbPath], { cwd: dir });
      assert.deepEqual(
        list.split('\n').filter((line) => line !== ''),
        held.sort(),
      );
      // The thread hashed the list with canonicalSeriesChunks' source, as the bundle carries it.
      assert.equal(createHash('sha256').update(list).digest('hex'), frozen.numbers_sha256);
    } finally {
      await s.close();
    }
  });
});

describe('npm pack', () => {
  let stage: string;
  let install: string;
  let packed: { files: Array<{ path: string }>; filename: string };

  // The tarball is packed from a staging copy of the package (package.json, bin, schema.generated.sql,
  // README.md, CHANGELOG.md, docs/ and a freshly built dist/) with --ignore-scripts, so that the test neither runs the
  // prepack build over the checkout's dist/ nor depends on a stale one.
  before(async () => {
    stage = mkdtempSync(join(tmpdir(), 'ces-pack-'));
    for (const f of ['package.json', 'schema.generated.sql', 'README.md', 'CHANGELOG.md', 'docs'])
      cpSync(join(ROOT, f), join(stage, f), { recursive: true });
    cpSync(join(ROOT, 'bin'), join(stage, 'bin'), { recursive: true });
    mkdirSync(join(stage, 'cli'));
    writeFileSync(join(stage, 'cli/ces.ts'), '// must not be packed: `files` leaves sources out\n');
    const { buildBundle } = (await import(join(ROOT, 'build.mjs') as string)) as BuildModule;
    await buildBundle({ outfile: join(stage, 'dist/ces.mjs') });
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', stage], { cwd: stage });
    packed = JSON.parse(stdout)[0];
    install = makeRuntimeDir('ces-install-');
    await run('tar', ['-xzf', join(stage, packed.filename), '-C', install]);
  });
  after(() => {
    rmSync(stage, { recursive: true, force: true });
    rmSync(install, { recursive: true, force: true });
  });

  test('the tarball holds the bin, the bundle, schema.generated.sql, README and package.json, and no sources', () => {
    assert.deepEqual(packed.files.map((f) => f.path).sort(), [
      'CHANGELOG.md',
      'README.md',
      'bin/ces.mjs',
      'dist/ces.mjs',
      'docs/api.md',
      'docs/architecture.md',
      'docs/deploy.md',
      // The dashboard's screenshots, which README.md and docs/operations.md show.
      'docs/img/campaign.png',
      'docs/img/draw-before-run.png',
      'docs/img/draw-record.png',
      'docs/img/draw.png',
      'docs/img/entries.png',
      'docs/img/entry.png',
      'docs/img/keys.png',
      'docs/img/overview.png',
      'docs/img/webhook.png',
      'docs/img/winners.png',
      'docs/integrating.md',
      'docs/operations.md',
      'package.json',
      'schema.generated.sql',
    ]);
  });

  test('the packed package.json needs only better-sqlite3 at run time and keeps the ces bin', () => {
    const pkg = JSON.parse(readFileSync(join(install, 'package/package.json'), 'utf8'));
    assert.deepEqual(Object.keys(pkg.dependencies), ['better-sqlite3']);
    assert.deepEqual(pkg.bin, { ces: 'bin/ces.mjs' });
    assert.equal(pkg.scripts.prepack, 'node build.mjs', 'npm pack builds the bundle first');
  });

  test('the unpacked bin runs commands through the bundle with only better-sqlite3 installed', async () => {
    // node_modules sits above package/, as for a package installed under a prefix's lib/node_modules.
    await assertBinRunsCommands(join(install, 'package/bin/ces.mjs'), install);
  });
});

describe('the ces bin in a checkout', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ces-bin-checkout-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // `npx ces` / `npm exec ces` in the repository: bin/ces.mjs registers tsx and runs cli/ces.ts, so
  // the code being edited is what runs, whatever an old dist/ces.mjs holds (in a clean clone, as in
  // CI, there is no dist/ at all, so only the sources can answer).
  test('bin/ces.mjs runs the sources through tsx: --version, and a command on a database', async () => {
    const bin = join(ROOT, 'bin/ces.mjs');
    await assertBinRunsCommands(bin, dir);
    // A failing command keeps the CLI's rules through the bin: exit 1 and one `ces:` line.
    const failed = await run(process.execPath, [bin, 'entries', 'show', 'not-an-id', '--db', join(dir, 'ces.db')], { cwd: dir }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed?.code, 1);
    assert.match(failed!.stderr, /^ces: Entry not found\.$/m);
  });
});
