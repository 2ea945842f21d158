// `ces serve` as a real child process (the production entry point through tsx), for the tests that
// must kill, signal or share the database with a running server: crash safety, graceful shutdown,
// concurrent operators, secrets in logs. Every wait is bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './harness.ts';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnServeOptions {
  dbPath: string;
  tickMs?: number;
  env?: Record<string, string>;
  /** How long to wait for the "listening on" line. */
  startTimeoutMs?: number;
  /** Start it the way an operator in a checkout does, `npm start -- …` (README.md#install-run-test): the child is then npm. */
  npmStart?: boolean;
  /** --log-format; default json. */
  logFormat?: 'json' | 'pretty';
  /** Flags for node itself, before the script (not with npmStart). */
  nodeFlags?: string[];
  /** A built bundle (dist/ces.mjs) to run instead of the sources through tsx: starts faster (bench/drill.ts). */
  bundle?: string;
  /** The words that run ces instead of node: the executable, maybe behind `chroot ROOT` (test/slow/binary.test.ts). */
  executable?: string[];
}

export function spawnServe(options: SpawnServeOptions): Promise<ServeProcess> {
  const serveArgs = [
    '--port',
    '0',
    '--db',
    options.dbPath,
    '--tick-ms',
    String(options.tickMs ?? 20),
    '--log-format',
    options.logFormat ?? 'json',
  ];
  const [command, args] = options.npmStart
    ? ['npm', ['start', '--silent', '--', ...serveArgs]]
    : options.executable
      ? [options.executable[0]!, [...options.executable.slice(1), 'serve', ...serveArgs]]
      : options.bundle
        ? [process.execPath, [...(options.nodeFlags ?? []), options.bundle, 'serve', ...serveArgs]]
        : [process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', join(ROOT, 'cli/ces.ts'), 'serve', ...serveArgs]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, CES_ALLOW_PRIVATE_WEBHOOKS: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ces serve did not start within ${options.startTimeoutMs ?? 60_000} ms:\n${out}`));
    }, options.startTimeoutMs ?? 60_000);
    const onData = (): void => {
      const match = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({ url: match[1], child, output: () => out, exited });
    };
    child.stdout!.on('data', onData);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`ces serve exited early (code ${code}, signal ${signal}):\n${out}`));
    });
  });
}

/** Stops a child for good (used in `after` hooks): SIGKILL unless it has already exited. */
export async function killServe(p: ServeProcess | undefined): Promise<void> {
  await killChild(p);
}

/** SIGKILL unless the child has already exited, then its pipes closed: `ces serve`, Litestream. */
export async function killChild(p: Pick<ServeProcess, 'child' | 'exited'> | undefined): Promise<void> {
  if (!p) return;
  if (p.child.exitCode === null && p.child.signalCode === null) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
  // A grandchild that outlived the child (npm start's server, when the signal did not reach it)
  // would hold the pipes open and keep the test process alive.
  p.child.stdout?.destroy();
  p.child.stderr?.destroy();
}

/**
 * A context on a database file with the real clock and randomness, for setting up the world of a
 * child server (same domain functions the CLI uses) and reading it back afterwards.
 */
export async function openFileCtx(dbPath: string): Promise<import('../../src/kernel/context.ts').Ctx> {
  const { openDatabase } = await import('../../src/db/open.ts');
  const { systemClock } = await import('../../src/kernel/clock.ts');
  const { cryptoRandom } = await import('../../src/kernel/random.ts');
  const { loadConfig } = await import('../../src/kernel/config.ts');
  const { createSilentLogger } = await import('../../src/kernel/log.ts');
  return {
    db: openDatabase(dbPath),
    clock: systemClock,
    random: cryptoRandom,
    config: loadConfig({ db: dbPath }, {}, false),
    log: createSilentLogger(),
  };
}
