// docs/integrating.md's path, run as its reader runs it: `ces demo`, `ces serve`, `ces webhook
// listen --forward-to http://localhost:PORT/webhooks` and the page's program
// (examples/first-webhook.ts, the same text as the page's), each a real process; the program must
// print its three events verified. The page's program and docs/api.md's verification snippets
// type-check under `tsc --strict`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../../../../test/support/harness.ts';
import { eventually, startCes, type Ces } from '../support/ces.ts';

const EXAMPLE = join(ROOT, 'clients/typescript/examples/first-webhook.ts');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The ```ts blocks of a Markdown text, in order. */
const tsBlocks = (markdown: string): string[] => [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

let ces: Ces;
before(async () => {
  ces = await startCes();
});
after(() => ces?.close());

test("docs/integrating.md's program is examples/first-webhook.ts, word for word", () => {
  const blocks = tsBlocks(read('docs/integrating.md'));
  assert.ok(
    blocks.some((b) => b === readFileSync(EXAMPLE, 'utf8')),
    'a ```ts block of docs/integrating.md equals clients/typescript/examples/first-webhook.ts',
  );
});

test("docs/api.md's verification snippets and docs/integrating.md's code compile under tsc --strict", () => {
  const api = read('docs/api.md');
  const section = api.slice(api.indexOf('## Verifying a signature (Node)'), api.indexOf('## Delivery, retries and failure'));
  const snippets = [...tsBlocks(section), ...tsBlocks(read('docs/integrating.md'))];
  assert.ok(tsBlocks(section).length >= 3, 'the standardwebhooks, @ces/client and by-hand snippets');
  const files = new Map(snippets.map((text, i) => [join(ROOT, `docs-snippet-${i}.ts`), text]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: ['node'],
    paths: { '@ces/client': [join(ROOT, 'clients/typescript/src/index.ts')] },
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.getSourceFile = (name, version, onError) =>
    files.has(name) ? ts.createSourceFile(name, files.get(name)!, version) : getSourceFile(name, version, onError);
  const program = ts.createProgram([...files.keys()], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.replace(ROOT, '')}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  assert.deepEqual(diagnostics, []);
});

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A process from the repository root, its output kept. */
function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out, exited };
}

test("the page's path: ces demo, ces serve, ces webhook listen, the program: three events, verified", async () => {
  const port = await freePort();
  const listen = run([
    'cli/ces.ts',
    'webhook',
    'listen',
    '--campaign',
    ces.demo.campaign.id,
    '--forward-to',
    `http://localhost:${port}/webhooks`,
    '--db',
    ces.dbPath,
  ]);
  try {
    await eventually('ces webhook listen to start', async () => (/forwarding new test events/.test(listen.out.stderr) ? true : undefined));
    const program = run([EXAMPLE], {
      CES_URL: ces.url,
      CES_KEY: ces.demo.key.key,
      CES_WEBHOOK_SECRET: ces.demo.webhook.hmac_secret,
      PORT: String(port),
    });
    const code = await program.exited;
    assert.equal(code, 0, program.out.stderr);
    const lines = program.out.stdout.trim().split('\n');
    const entryId = /^submitted ([0-9a-f-]{36}): PENDING$/m.exec(program.out.stdout)?.[1];
    assert.ok(entryId, program.out.stdout);
    assert.deepEqual(
      lines.filter((l) => l.startsWith('verified ')).map((l) => l.split(' ')[1]),
      ['entry.received', 'entry.completed', 'entry.evaluated'],
    );
    assert.match(program.out.stdout, /^lucky numbers: \d+\/\d{5}$/m);
    assert.equal(lines.at(-1), `all three events of ${entryId} verified: entry.received, entry.completed, entry.evaluated`);
    assert.equal(program.out.stderr, '');
    const forwards = listen.out.stdout.trim().split('\n');
    assert.equal(forwards.length, 3, listen.out.stdout);
    assert.ok(
      forwards.every((l) => l.includes(entryId) && / 204 {2}\d+ ms$/.test(l)),
      listen.out.stdout,
    );
  } finally {
    listen.child.kill('SIGINT');
  }
  assert.equal(await listen.exited, 0, listen.out.stderr);
});
