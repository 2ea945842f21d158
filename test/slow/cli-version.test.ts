// `ces version [--json]` through the real program: the release, Node, SQLite, platform, CPU and
// whether this is the executable, as one JSON document or aligned lines; `ces --version` the
// release alone. Asking for versions never creates or opens a database, neither at --db nor at the
// default ./data/ces.db of the folder it runs in.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { VERSION } from '../../src/kernel/version.ts';
import { ROOT, runCli } from '../support/harness.ts';
import { expectedVersions as expected } from '../support/versions.ts';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ces-cli-version-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('ces version --json prints exactly ces, node, sqlite, platform, arch and binary, and nothing else', async () => {
  const r = await runCli(['version', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(Object.keys(r.json), ['ces', 'node', 'sqlite', 'platform', 'arch', 'binary']);
  assert.deepEqual(r.json, expected());
  assert.match(r.json.sqlite, /^3\.\d+\.\d+$/);
});

test('ces version prints one aligned "name  value" line a fact', async () => {
  const r = await runCli(['version']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const lines = r.stdout.trimEnd().split('\n');
  const facts = expected();
  assert.deepEqual(
    lines.map((line) => line.split(/\s+/)),
    Object.entries(facts).map(([name, value]) => [name, String(value)]),
  );
  // Aligned: every value starts in the same column.
  const valueColumns = new Set(lines.map((line) => line.length - line.split(/\s+/)[1].length));
  assert.equal(valueColumns.size, 1, r.stdout);
});

test('ces --version prints the release alone', async () => {
  const r = await runCli(['--version']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `${VERSION}\n`);
});

test('ces version --db PATH creates no database there, nor its folder', async () => {
  const dbPath = join(dir, 'missing', 'ces.db');
  for (const args of [['version', '--json'], ['version']]) {
    const r = await runCli(args, { dbPath });
    assert.equal(r.code, 0, r.stderr);
  }
  assert.equal(existsSync(join(dir, 'missing')), false, 'neither the folder nor the file is created');
});

test('ces version, the real binary in an empty folder, leaves no ./data/ces.db there', async () => {
  const cwd = mkdtempSync(join(dir, 'cwd-'));
  const env = { ...process.env };
  // The default database, ./data/ces.db of the folder it runs in, is the one that must not appear.
  delete env.CES_DB;
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
    // tsx by its resolved path: a bare `--import tsx` is looked up from the empty folder and not found.
    const tsx = import.meta.resolve('tsx');
    execFile(process.execPath, ['--import', tsx, join(ROOT, 'cli/ces.ts'), 'version', '--json'], { cwd, env }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out }),
    );
  });
  assert.deepEqual(JSON.parse(stdout), expected());
  assert.deepEqual(readdirSync(cwd), [], 'nothing is created in the folder it runs in');
});
