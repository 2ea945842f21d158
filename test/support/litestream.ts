// Litestream for the disaster-recovery drill: the static binary the optional dependency
// @flydotio/litestream-linux-x64 ships (v0.3.13), called directly. Not the @flydotio/litestream
// wrapper: it exits 0 when a restore fails and does not pass SIGTERM on. A `file` replica in a
// temp folder stands in for the S3 bucket of docs/deploy.md; everything stays on this machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.ts';
import { killChild } from './serve-process.ts';

export const LITESTREAM_PACKAGE = '@flydotio/litestream-linux-x64';

/** The binary to call, or why there is none here (the drill is then skipped with that reason). */
export function findLitestream(): { path: string } | { skip: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { skip: `Litestream's npm binary is for linux-x64 only; this is ${process.platform}-${process.arch}` };
  const path = join(ROOT, 'node_modules', LITESTREAM_PACKAGE, 'litestream');
  if (!existsSync(path))
    return { skip: `${LITESTREAM_PACKAGE} is not installed (an optional dependency: npm ci installs it on linux-x64)` };
  return { path };
}

/** litestream.yml for one database replicated to a folder, syncing every second (Litestream's default). */
export function writeLitestreamConfig(configPath: string, dbPath: string, replicaDir: string): void {
  writeFileSync(
    configPath,
    [
      'dbs:',
      `  - path: ${dbPath}`,
      '    replicas:',
      '      - type: file',
      `        path: ${replicaDir}`,
      '        sync-interval: 1s',
      '',
    ].join('\n'),
  );
}

export interface LitestreamProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `litestream replicate -config …`, resolved once it has written the generation's first snapshot
 * (before that a restore has nothing to restore). Every wait is bounded.
 */
export function startLitestream(binary: string, configPath: string, timeoutMs = 30_000): Promise<LitestreamProcess> {
  const child = spawn(binary, ['replicate', '-config', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`litestream wrote no snapshot within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer): void => {
      out += d.toString('utf8');
      if (!out.includes('snapshot written')) return;
      clearTimeout(timer);
      resolve({ child, output: () => out, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`litestream exited early (code ${code}, signal ${signal}):\n${out}`));
    });
  });
}

/** SIGKILL unless it has already exited (the drill's kill, and `after` hooks). */
export async function killLitestream(p: LitestreamProcess | undefined): Promise<void> {
  await killChild(p);
}

/** `litestream restore -config … -o OUT DB`: the latest state of the replica into OUT. Throws on a non-zero exit. */
export function restoreLitestream(
  binary: string,
  configPath: string,
  dbPath: string,
  outPath: string,
): Promise<{ ms: number; output: string }> {
  const started = performance.now();
  const child = spawn(binary, ['restore', '-config', configPath, '-o', outPath, dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ms: performance.now() - started, output: out });
      else reject(new Error(`litestream restore failed (code ${code}, signal ${signal}):\n${out}`));
    });
  });
}

/** The first SQLite release with the fix of the WAL-reset bug (present from 3.7.0 to 3.51.2). */
export const WAL_RESET_FIX = [3, 51, 3] as const;

export interface EmbeddedSqlite {
  /** "3.42.0" */
  version: string;
  /** SQLITE_SOURCE_ID: the check-in date and hash. */
  sourceId: string;
  hasWalResetFix: boolean;
}

/**
 * The SQLite compiled into a binary, read from its bytes: SQLITE_VERSION and SQLITE_SOURCE_ID are
 * NUL-terminated C strings in it, the version after a byte that is not text (Go symbol names such
 * as "func3.1.1" are text before it); Litestream has no command that prints them. Throws unless
 * exactly one version string and one source id are found.
 */
export function readEmbeddedSqlite(binaryPath: string): EmbeddedSqlite {
  const text = readFileSync(binaryPath).toString('latin1');
  const versions = [...text.matchAll(/(?<![\x20-\x7e])3\.(\d{1,2})\.(\d{1,2})\0/g)];
  const sourceIds = [...text.matchAll(/\0(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [0-9a-f]{64})\0/g)];
  if (versions.length !== 1) throw new Error(`expected one SQLite version string in ${binaryPath}, found ${versions.length}`);
  if (sourceIds.length !== 1) throw new Error(`expected one SQLite source id in ${binaryPath}, found ${sourceIds.length}`);
  const parts = [3, Number(versions[0][1]), Number(versions[0][2])];
  return { version: parts.join('.'), sourceId: sourceIds[0][1], hasWalResetFix: compareVersions(parts, WAL_RESET_FIX) >= 0 };
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
