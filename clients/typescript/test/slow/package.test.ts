// @ces/client as it would be published: its package.json says what npm needs (name, the version
// of ces, exports and types into dist/, only dist/ and README.md packed, one dependency); a build
// packed with `npm pack` and unpacked into a project's node_modules type-checks under a strict
// Node project that has only @types/node, and its JavaScript runs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ROOT } from '../../../../test/support/harness.ts';
import { signDelivery } from '../../../../src/webhooks/signing.ts';

const run = promisify(execFile);
const PACKAGE = join(ROOT, 'clients/typescript');
const pkg = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'ces-client-package-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('package.json: @ces/client at the version of ces, publishable, dist/ only, one dependency', () => {
  assert.equal(pkg.name, '@ces/client');
  assert.equal(pkg.version, root.version);
  assert.equal(pkg.license, 'MIT');
  assert.equal(pkg.private, undefined);
  assert.equal(pkg.type, 'module');
  assert.deepEqual(pkg.engines, root.engines);
  assert.deepEqual(pkg.exports, { '.': { types: './dist/index.d.ts', default: './dist/index.js' } });
  assert.deepEqual(pkg.files, ['dist', 'README.md']);
  assert.deepEqual(Object.keys(pkg.dependencies), ['openapi-fetch']);
  assert.equal(pkg.scripts.prepack, 'npm run build');
  assert.deepEqual(root.workspaces, ['clients/typescript'], 'installed by the root npm ci');
});

test('built, packed and installed: a strict Node project type-checks against it, and its JavaScript runs', async () => {
  // The build prepack runs, into a copy of the package, then npm pack of that copy.
  const copy = join(dir, 'package');
  mkdirSync(copy);
  for (const file of ['package.json', 'README.md']) cpSync(join(PACKAGE, file), join(copy, file));
  const tsc = join(ROOT, 'node_modules/.bin/tsc');
  await run(tsc, ['-p', join(PACKAGE, 'tsconfig.build.json'), '--outDir', join(copy, 'dist')]);
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: copy });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  assert.equal(packed!.filename, `ces-client-${root.version}.tgz`);
  const files = packed!.files.map((f) => f.path).sort();
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('README.md'), files.join(' '));
  assert.deepEqual(
    files.filter((f) => !/^dist\/[a-z-]+(\.generated)?\.(js|d\.ts)$/.test(f) && f !== 'README.md' && f !== 'package.json'),
    [],
    'nothing but dist/, README.md and package.json',
  );

  // A project with the tarball in node_modules/@ces/client and the dependency beside it.
  const project = join(dir, 'project');
  const installed = join(project, 'node_modules/@ces/client');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(dir, packed!.filename), '-C', installed, '--strip-components=1']);
  for (const dependency of ['openapi-fetch', 'openapi-typescript-helpers'])
    symlinkSync(join(ROOT, 'node_modules', dependency), join(project, 'node_modules', dependency));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        target: 'es2022',
        lib: ['es2022'],
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: ['use.ts'],
    }),
  );
  writeFileSync(
    join(project, 'use.ts'),
    [
      "import { createCesClient, generateEntry, verifyWebhook, type CesEvent, type SubmittedEntry } from '@ces/client';",
      "const client = createCesClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'service_test_x' });",
      'export const submitted: Promise<SubmittedEntry> = client.submitEntry(generateEntry());',
      "export async function handle(body: Buffer, headers: import('node:http').IncomingHttpHeaders): Promise<string> {",
      "  const event: CesEvent = await verifyWebhook(body, headers, 'whsec_x');",
      "  return event.event_type === 'entry.completed' ? event.data.status : event.event_type;",
      '}',
      '// @ts-expect-error the status of an entry is one of three words',
      "export const wrong: SubmittedEntry['status'] = 'DONE';",
      '',
    ].join('\n'),
  );
  await run(tsc, ['-p', project]).catch((error: { stdout: string }) => assert.fail(error.stdout));

  const client = (await import(pathToFileURL(join(installed, 'dist/index.js')).href)) as typeof import('../../src/index.ts');
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const body = JSON.stringify({ id: 'evt_0123456789abcdef0123456789abcdef', event_type: 'ping', data: { message: 'hi' } });
  const event = await client.verifyWebhook(body, signDelivery(secret, 'evt_0123456789abcdef0123456789abcdef', Date.now(), body), secret);
  assert.equal(event.event_type, 'ping');
  assert.match(client.generateCpf(), /^[0-9]{11}$/);
  assert.equal(client.accessKeyCheckDigit('3526111122233300018165001000000001112345678'), 7);
});
