// The single executable (npm run build:binary) where no Node.js is installed: the test builds it,
// makes a root file system that holds the executable, the system libraries it and SQLite's addon
// link (as ldd lists them), a CA file and nothing else, and runs every kind of command inside it
// through chroot: `ces demo`, `ces serve` answering the demo's own request with 202, a signed
// webhook delivered to a receiver outside, a draw frozen (a worker thread) and run, `ces check`, a
// backup restored. It needs Linux on x64 and root (chroot), and skips saying so elsewhere.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { ManualClock } from '../../src/kernel/clock.ts';
import { ROOT, runCli } from '../support/harness.ts';
import { findLitestream } from '../support/litestream.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { killServe, spawnServe, type ServeProcess } from '../support/serve-process.ts';
import { waitFor } from '../support/wait.ts';

const run = promisify(execFile);

interface BuildModule {
  buildBinary(options: { outDir: string }): Promise<{ executable: string; archive: string; sums: string; node: string }>;
}

function whyNot(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `the executable is built for linux-x64; this is ${process.platform}-${process.arch}`;
  if (process.getuid?.() !== 0) return 'chroot needs root';
  try {
    execFileSync('sh', ['-c', 'command -v chroot && command -v ldd && command -v strip && command -v mknod'], { stdio: 'ignore' });
  } catch {
    return 'chroot, ldd, strip or mknod is missing';
  }
  return null;
}

const skip = whyNot();
// By its path: inside the root PATH is only `/`, and the environment given to chroot is that one.
const CHROOT = skip ? 'chroot' : execFileSync('sh', ['-c', 'command -v chroot'], { encoding: 'utf8' }).trim();

/** The shared libraries `file` needs, as ldd resolves them: absolute paths on this machine. */
function linkedLibraries(file: string): string[] {
  const out = execFileSync('ldd', [file], { encoding: 'utf8' });
  return [...out.matchAll(/(\/[^\s]+\.so[^\s]*)/g)].map((m) => m[1]!);
}

/** A root file system with the executable as /ces and the libraries it links, at their own paths. */
function makeRoot(dir: string, executable: string, addon: string): string {
  const root = join(dir, 'root');
  for (const lib of new Set([...linkedLibraries(executable), ...linkedLibraries(addon)])) {
    mkdirSync(join(root, dirname(lib)), { recursive: true });
    copyFileSync(lib, join(root, lib)); // follows the link: the root holds the library itself
  }
  copyFileSync(executable, join(root, 'ces'));
  execFileSync('chmod', ['755', join(root, 'ces')]);
  for (const folder of ['tmp', 'home/operator', 'data']) mkdirSync(join(root, folder), { recursive: true, mode: 0o755 });
  execFileSync('chmod', ['1777', join(root, 'tmp')]);
  copyFileSync(join(ROOT, 'test/fixtures/tls/ca.pem'), join(root, 'ca.pem'));
  // /dev/null, which Litestream gives the command it runs as stdin (ces itself needs no device).
  mkdirSync(join(root, 'dev'));
  execFileSync('mknod', ['-m', '666', join(root, 'dev/null'), 'c', '1', '3']);
  return root;
}

describe('the executable, in a root file system without Node.js', { skip: skip ?? false, timeout: 20 * 60_000 }, () => {
  let dir: string;
  let root: string;
  let built: Awaited<ReturnType<BuildModule['buildBinary']>>;
  let receiver: Receiver;
  let server: ServeProcess | undefined;
  let demoBody = '';
  const env = {
    HOME: '/home/operator',
    PATH: '/',
    NODE_EXTRA_CA_CERTS: '/ca.pem',
    CES_ALLOW_PRIVATE_WEBHOOKS: '1',
    CES_LOG_FORMAT: 'json',
  };

  /** `ces ARGS… --json` inside the root; the parsed document, after asserting exit 0. */
  async function ces(args: string[]): Promise<any> {
    const { stdout } = await run(CHROOT, [root, '/ces', ...args, '--db', '/data/ces.db', '--json'], { env, maxBuffer: 16 << 20 }).catch(
      (error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`ces ${args.join(' ')} failed: ${error.stderr ?? ''}${error.stdout ?? ''}${error.message}`);
      },
    );
    return JSON.parse(stdout);
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ces-binary-test-'));
    const { buildBinary } = (await import(join(ROOT, 'scripts/build-binary.mjs') as string)) as BuildModule;
    built = await buildBinary({ outDir: join(dir, 'dist') });
    // The addon as the executable writes it: run once outside to find it, in a folder of the test's.
    const native = join(dir, 'native');
    execFileSync(built.executable, ['version', '--json'], { env: { ...process.env, CES_NATIVE_DIR: native } });
    const folder = readdirSync(native).find((name) => name.startsWith('ces-'))!;
    root = makeRoot(dir, built.executable, join(native, folder, 'better_sqlite3.node'));
    receiver = await startReceiver();
  });

  after(async () => {
    await killServe(server);
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the root holds no Node.js: only the executable, libraries and the CA', () => {
    const files = execFileSync('find', [root, '-type', 'f'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    assert.ok(
      files.every((f) => f === join(root, 'ces') || f === join(root, 'ca.pem') || /\.so(\.\d+)*$/.test(f)),
      files.join('\n'),
    );
    assert.ok(!files.some((f) => /(^|\/)node$/.test(f)));
  });

  test('the archive and the sums match the executable', () => {
    const bytes = readFileSync(built.executable);
    assert.deepEqual(gunzipSync(readFileSync(built.archive)), bytes);
    const sums = readFileSync(built.sums, 'utf8');
    assert.match(sums, new RegExp(`^${createHash('sha256').update(bytes).digest('hex')}  ces$`, 'm'));
    assert.match(
      sums,
      new RegExp(`^${createHash('sha256').update(readFileSync(built.archive)).digest('hex')}  ces-[\\d.]+-linux-x64\\.gz$`, 'm'),
    );
  });

  test('a second build of the same commit is the same bytes', async () => {
    const { buildBinary } = (await import(join(ROOT, 'scripts/build-binary.mjs') as string)) as BuildModule;
    const again = await buildBinary({ outDir: join(dir, 'again') });
    assert.equal(readFileSync(again.sums, 'utf8'), readFileSync(built.sums, 'utf8'));
  });

  test('--version and --help write nothing; version --json names the executable and its Node', async () => {
    const before = readdirSync(join(root, 'tmp')).length + readdirSync(join(root, 'home/operator')).length;
    const { stdout: v } = await run(CHROOT, [root, '/ces', '--version'], { env });
    assert.match(v, /^\d+\.\d+\.\d+\n$/);
    await run(CHROOT, [root, '/ces', '--help'], { env });
    assert.equal(readdirSync(join(root, 'tmp')).length + readdirSync(join(root, 'home/operator')).length, before);
    const version = await ces(['version']);
    assert.equal(version.binary, true);
    assert.equal(version.node, built.node);
    assert.match(version.node, /^24\./);
    assert.match(version.sqlite, /^3\.\d+\.\d+$/);
    // The addon went to the operator's own cache folder, private to them.
    const cache = join(root, 'home/operator/.cache/ces');
    const folder = readdirSync(cache).find((name) => name.startsWith('ces-'))!;
    assert.equal(statSync(join(cache, folder)).mode & 0o777, 0o700);
  });

  test('a home on a noexec mount is passed over for the next folder, /tmp/ces-UID', async (t) => {
    const home = join(root, 'home/noexec');
    mkdirSync(home, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'noexec,size=16m', 'tmpfs', home], { stdio: 'ignore' });
    } catch {
      return t.skip('cannot mount a tmpfs here');
    }
    try {
      const { stdout } = await run(CHROOT, [root, '/ces', 'version', '--json'], { env: { ...env, HOME: '/home/noexec' } });
      assert.equal(JSON.parse(stdout).binary, true);
      const fallback = join(root, 'tmp', `ces-${process.getuid!()}`);
      assert.ok(
        readdirSync(fallback).some((name) => name.startsWith('ces-')),
        'the addon went to /tmp/ces-UID',
      );
    } finally {
      execFileSync('umount', [home]);
    }
  });

  test('demo, serve answering the demo request with 202, and a signed webhook delivered', async () => {
    const demo = await ces(['demo']);
    assert.match(demo.listen, /^\/ces webhook listen /, 'the binary tells its own name, not npx');
    const url = `${receiver.url}`;
    await ces(['webhook', 'set', '--campaign', demo.campaign.id, '--url', url, '--active']);
    receiver.setSecret(demo.webhook.hmac_secret);
    server = await spawnServe({ dbPath: '/data/ces.db', executable: [CHROOT, root, '/ces'], env: { ...env, PATH: '/' } });
    const body = /-d '(.*)'$/s.exec(demo.curl)![1]!;
    demoBody = body;
    const idempotencyKey = /Idempotency-Key: ([\w-]+)/.exec(demo.curl)![1]!;
    const res = await fetch(`${server.url}/v1/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.key.key}`, 'idempotency-key': idempotencyKey, 'content-type': 'application/json' },
      body,
    });
    assert.equal(res.status, 202, await res.text());
    await receiver.waitFor((reqs) => reqs.some((r) => r.json?.event_type === 'entry.completed'), 60_000);
    assert.ok(
      receiver.requests.every((r) => r.verified === true),
      'every delivery is signed with the campaign secret',
    );
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { status: string; versions: { binary: boolean } };
    assert.equal(health.status, 'ok');
    assert.equal(health.versions.binary, true);
    // The full check of the demo's file, new to the server, in the executable started again for it
    // (a process, so that a stop can kill it; src/db/integrity-child.ts).
    await waitFor(
      () => /full integrity check passed/.test(server!.output()),
      60_000,
      () => server!.output().slice(-2000),
    );
    const checked = (await (await fetch(`${server.url}/healthz`)).json()) as { integrity: { state: string } };
    assert.equal(checked.integrity.state, 'ok');
    // The dashboard's stylesheet and script are strings inside the executable.
    for (const asset of ['dashboard.css', 'dashboard.js']) {
      const r: Response = await fetch(`${server.url}/dashboard/assets/${asset}`);
      assert.equal(r.status, 200, asset);
      assert.ok((await r.text()).length > 100, asset);
    }
    const { stdout: csv } = await run(CHROOT, [root, '/ces', 'entries', 'export', '--campaign', demo.campaign.id, '--db', '/data/ces.db'], {
      env,
    });
    assert.equal(csv.trim().split('\n').length, 2, `a header and the demo's entry:\n${csv}`);
  });

  test('webhook listen forwards new events, signed, to a local receiver', async () => {
    const [campaign] = await ces(['campaign', 'list']);
    const listen = spawn(
      CHROOT,
      [
        root,
        '/ces',
        'webhook',
        'listen',
        '--campaign',
        campaign.id,
        '--forward-to',
        receiver.url.replace(/\/hooks$/, '/listen'),
        '--db',
        '/data/ces.db',
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    listen.stdout.on('data', (d: Buffer) => (out += d));
    listen.stderr.on('data', (d: Buffer) => (out += d));
    try {
      await waitFor(
        () => /forwarding/.test(out),
        30_000,
        () => out,
      );
      const [key] = await ces(['key', 'issue', '--campaign', campaign.id, '--mode', 'test']).then((k) => [k.key as string]);
      const res = await fetch(`${server!.url}/v1/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID(), 'content-type': 'application/json' },
        body: demoBody,
      });
      assert.equal(res.status, 202, await res.text());
      await receiver.waitFor((reqs) => reqs.some((r) => r.path === '/listen' && r.json?.event_type === 'entry.received'), 60_000);
      assert.ok(receiver.requests.filter((r) => r.path === '/listen').every((r) => r.verified === true));
    } finally {
      listen.kill('SIGINT');
    }
  });

  test('a draw frozen (on a worker thread) and run, then ces check, with the server still running', async () => {
    const [campaign] = await ces(['campaign', 'list']);
    const cutoff = new Date(Date.now() + 1500).toISOString();
    // A draw is created and frozen before its extraction, and its results are dated on or after it
    // and never after today: the extraction is planned two days ahead, and its results are typed by
    // the CLI in this process on a clock standing that evening (the executable's clock is the
    // system's). The executable creates, freezes (its worker thread) and runs.
    const planned = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const draw = await ces([
      'draw',
      'create',
      '--campaign',
      campaign.id,
      '--mode',
      'test',
      '--name',
      'Sorteio',
      '--cutoff',
      cutoff,
      '--extraction-date',
      planned,
    ]);
    while (Date.now() <= Date.parse(cutoff)) await new Promise((resolve) => setTimeout(resolve, 100));
    const frozen = await ces(['draw', 'freeze', draw.id]);
    assert.equal(frozen.eligible_count, 1, JSON.stringify(frozen));
    const results = await runCli(
      ['draw', 'results', draw.id, '--extraction', '5787', '--date', planned, '--prizes', '12345,23456,34567,45678,56789', '--json'],
      {
        dbPath: join(root, 'data/ces.db'),
        clock: new ManualClock(`${planned}T23:30:00.000Z`),
      },
    );
    assert.equal(results.code, 0, results.stderr);
    const ran = await ces(['draw', 'run', draw.id]);
    assert.equal(ran.winners.length, 1, JSON.stringify(ran));
    const check = await ces(['check']);
    assert.deepEqual([check.ok, check.integrity_check], [true, ['ok']], JSON.stringify(check));
  });

  test('a backup restored into a new file, and the restored file checked', async () => {
    await killServe(server);
    server = undefined;
    await ces(['backup', '/data/backup.db']);
    const { stdout } = await run(CHROOT, [root, '/ces', 'restore', '/data/backup.db', '--db', '/data/restored.db', '--json'], { env });
    assert.ok(JSON.parse(stdout));
    const { stdout: list } = await run(CHROOT, [root, '/ces', 'campaign', 'list', '--db', '/data/restored.db', '--json'], { env });
    assert.equal(JSON.parse(list).length, 1);
    assert.ok(existsSync(join(root, 'data/restored.db')));
  });

  test('under `litestream replicate -exec "/ces serve"`: serves, stops on SIGTERM with Litestream, and the replica restores', async (t) => {
    const litestream = findLitestream();
    if ('skip' in litestream) return t.skip(litestream.skip);
    for (const lib of linkedLibrariesOrNone(litestream.path)) {
      mkdirSync(join(root, dirname(lib)), { recursive: true });
      if (!existsSync(join(root, lib))) copyFileSync(lib, join(root, lib));
    }
    copyFileSync(litestream.path, join(root, 'litestream'));
    execFileSync('chmod', ['755', join(root, 'litestream')]);
    writeFileSync(
      join(root, 'litestream.yml'),
      'dbs:\n  - path: /data/ces.db\n    replicas:\n      - type: file\n        path: /replica\n        sync-interval: 1s\n',
    );
    const child = spawn(
      CHROOT,
      [root, '/litestream', 'replicate', '-config', '/litestream.yml', '-exec', '/ces serve --db /data/ces.db --port 0 --log-format json'],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await waitFor(
        () => /listening on (http:\/\/[^\s"]+)/.exec(out)?.[1],
        60_000,
        () => out,
      );
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      await waitFor(
        () => out.includes('snapshot written'),
        60_000,
        () => out,
      );
      child.kill('SIGTERM');
      assert.equal(await exited, 0, out);
    } finally {
      child.kill('SIGKILL');
    }
    await run(CHROOT, [root, '/litestream', 'restore', '-config', '/litestream.yml', '-o', '/data/from-replica.db', '/data/ces.db'], {
      env,
    });
    const { stdout } = await run(CHROOT, [root, '/ces', 'check', '--db', '/data/from-replica.db', '--json'], { env });
    assert.equal(JSON.parse(stdout).ok, true, stdout);
  });
});

/** ldd's libraries, or none for a static binary (ldd then exits non-zero). */
function linkedLibrariesOrNone(file: string): string[] {
  try {
    return linkedLibraries(file);
  } catch {
    return [];
  }
}
