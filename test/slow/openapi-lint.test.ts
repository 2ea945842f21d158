// The document `ces openapi` prints passes Redocly CLI (`recommended`) and Spectral
// (`spectral:oas`) with no error, no warning and nothing else either: both run here as an
// integrator would run them, on the printed file, with the repository's redocly.yaml and
// .spectral.yaml (which say why each rule they turn off does not fit this API). Both also check
// every example against its schema. Neither needs the network (Redocly's telemetry is off).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { ROOT, runCli } from '../support/harness.ts';

const run = promisify(execFile);

/** The path of a package's command, from its package.json's `bin`. */
function binOf(pkg: string, name: string): string {
  const dir = join(ROOT, 'node_modules', pkg);
  const bin = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).bin as Record<string, string>;
  return join(dir, bin[name]);
}

let dir: string;
let file: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ces-openapi-lint-'));
  file = join(dir, 'ces.openapi.json');
  const printed = await runCli(['openapi']);
  assert.equal(printed.code, 0, printed.stderr);
  writeFileSync(file, printed.stdout);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

test('Redocly CLI lint: no error, no warning', async () => {
  const { stdout } = await run(
    process.execPath,
    [binOf('@redocly/cli', 'redocly'), 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'],
    { cwd: ROOT, env, maxBuffer: 16 << 20 },
  );
  const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: unknown[] };
  assert.deepEqual(report.problems, []);
  assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
});

test('Spectral lint (spectral:oas): no result of any severity', async () => {
  const { stdout } = await run(
    process.execPath,
    [
      binOf('@stoplight/spectral-cli', 'spectral'),
      'lint',
      file,
      '--ruleset',
      join(ROOT, '.spectral.yaml'),
      '--format',
      'json',
      '--fail-severity',
      'hint',
      '--quiet',
    ],
    { cwd: ROOT, env, maxBuffer: 16 << 20 },
  );
  assert.deepEqual(JSON.parse(stdout), []);
});
