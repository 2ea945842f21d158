// SQLite's native addon for the single executable. A Node addon is a shared library, and the
// system's loader opens shared libraries from files only, so the executable carries the addon (and
// better-sqlite3's JavaScript, which the worker threads load by path) as assets and writes them once
// to a folder of the user's, where every later start finds them. The folder is trusted as much as
// the executable itself: its content is checked by SHA-256 at every start and rewritten when it
// differs, and a folder another user owns or may write into is refused outright, since whoever can
// write there can run code as the service. Nothing here runs until the first database is opened:
// `ces --version` and `ces --help` write nothing. docs/deploy.md tells operators where the folder is.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { AppError } from '../kernel/errors.ts';

/** The files an executable carries, as its build wrote them: name (also the asset's key) and SHA-256. */
export interface NativeManifest {
  /** The version folder's name, unique to this content: `ces-VERSION-linux-x64-HASH`. */
  folder: string;
  /** The addon's file name, e.g. better_sqlite3.node. */
  addon: string;
  /** better-sqlite3's JavaScript as one CommonJS file that loads the addon beside it. */
  module: string;
  sha256: Record<string, string>;
}

export interface NativeFiles {
  /** The folder the files are in. */
  dir: string;
  /** The path a `require` of better-sqlite3 takes, in this process and in its worker threads. */
  module: string;
}

/** What the cache needs from the process, passed in so that tests can give other answers. */
export interface NativeCacheDeps {
  env: NodeJS.ProcessEnv;
  uid: number;
  /** The asset's bytes (node:sea's getRawAsset in the executable). */
  asset: (name: string) => Uint8Array;
  /** Loads a file as `require` does, and throws as it does (the addon on a noexec mount: "failed to map segment"). */
  load: (path: string) => unknown;
  /** Whether a process other than this one has a file of `dir` mapped (from /proc); null when /proc cannot tell. */
  inUse: (dir: string) => boolean | null;
  home: () => string;
  tmp: () => string;
}

/** Why a candidate folder was passed over: shown when none is usable. */
interface Skipped {
  base: string;
  reason: string;
}

const FOLDER_PATTERN = /^ces-[\w.+-]+-linux-[\w]+-[0-9a-f]{12}$/;

/**
 * The bases the version folder is made in, in order. CES_NATIVE_DIR alone when set: an operator who
 * names a folder wants that one or a clear failure. Otherwise the user's cache (XDG_CACHE_HOME, else
 * ~/.cache), the runtime folder systemd gives a logged-in user, and the system's temporary folder.
 */
export function candidateBases(deps: Pick<NativeCacheDeps, 'env' | 'uid' | 'home' | 'tmp'>): string[] {
  const { env } = deps;
  if (env.CES_NATIVE_DIR) return [env.CES_NATIVE_DIR];
  const bases: string[] = [];
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) bases.push(join(env.XDG_CACHE_HOME, 'ces'));
  try {
    const home = deps.home();
    if (home && isAbsolute(home)) bases.push(join(home, '.cache', 'ces'));
  } catch {
    // no home (a system user without one, a chroot without /etc/passwd): the next candidates
  }
  if (env.XDG_RUNTIME_DIR && isAbsolute(env.XDG_RUNTIME_DIR)) bases.push(join(env.XDG_RUNTIME_DIR, 'ces'));
  bases.push(join(deps.tmp(), `ces-${deps.uid}`));
  return [...new Set(bases)];
}

/**
 * The folder's files, ready to load: found, or written and checked, in the first candidate base
 * that can hold them. Throws an AppError naming every folder tried and CES_NATIVE_DIR.
 */
export function prepareNativeFiles(manifest: NativeManifest, deps: NativeCacheDeps): NativeFiles {
  const skipped: Skipped[] = [];
  for (const base of candidateBases(deps)) {
    const outcome = tryBase(base, manifest, deps);
    if ('dir' in outcome) {
      pruneOtherVersions(base, manifest.folder, deps);
      return outcome;
    }
    skipped.push({ base, reason: outcome.reason });
  }
  const tried = skipped.map((s) => `${s.base} (${s.reason})`).join('; ');
  throw new AppError(
    500,
    'native_module_unavailable',
    `cannot prepare SQLite's native module in any folder: ${tried}. Set CES_NATIVE_DIR to a folder that only this user can write, on a file system that allows running programs`,
  );
}

function tryBase(base: string, manifest: NativeManifest, deps: NativeCacheDeps): NativeFiles | { reason: string } {
  const dir = join(base, manifest.folder);
  for (const folder of [base, dir]) {
    const made = ensurePrivateFolder(folder, deps.uid);
    if (made !== null) return { reason: made };
  }
  try {
    for (const name of [manifest.addon, manifest.module]) placeFile(dir, name, manifest.sha256[name], deps);
  } catch (error) {
    return { reason: `cannot write: ${describe(error)}` };
  }
  const modulePath = join(dir, manifest.module);
  try {
    // The addon first, by the path the module's own require takes: loaded once, and now, so that a
    // noexec mount shows here rather than at the first query.
    deps.load(join(dir, manifest.addon));
    deps.load(modulePath);
  } catch (error) {
    const message = describe(error);
    // The loader maps the addon executable; a noexec mount refuses that. Any other failure (a
    // system library too old) is the same in every folder: say it rather than try the next.
    if (/failed to map segment|operation not permitted|EPERM|EACCES/i.test(message)) return { reason: 'mounted noexec' };
    throw new AppError(500, 'native_module_unavailable', `cannot load SQLite's native module from ${dir}: ${message}`);
  }
  return { dir, module: modulePath };
}

/**
 * Makes `folder` (mode 0700) if missing and checks it is a real folder of this user that no one
 * else may write into; null when it is, else why not. A folder that fails the ownership check is a
 * refusal, not a reason to try elsewhere quietly: someone else could have put code there.
 */
function ensurePrivateFolder(folder: string, uid: number): string | null {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    return `cannot create: ${describe(error)}`;
  }
  const stat = lstatSync(folder);
  if (!stat.isDirectory()) {
    throw refused(folder, 'it is not a folder (a link or a file)');
  }
  if (stat.uid !== uid) throw refused(folder, `it belongs to user ${stat.uid}, not to this user (${uid})`);
  if ((stat.mode & 0o022) !== 0) throw refused(folder, `others may write into it (mode ${(stat.mode & 0o777).toString(8)})`);
  return null;
}

function refused(folder: string, why: string): AppError {
  return new AppError(
    500,
    'native_module_unavailable',
    `refusing ${folder} for SQLite's native module: ${why}. Remove it, or set CES_NATIVE_DIR to a folder that only this user can write`,
  );
}

/** Leaves the file when its SHA-256 is the expected one; else writes it anew, atomically. */
function placeFile(dir: string, name: string, sha256: string | undefined, deps: NativeCacheDeps): void {
  if (!sha256) throw new Error(`the executable names no SHA-256 for ${name}`);
  const path = join(dir, name);
  if (sha256Of(path) === sha256) return;
  const bytes = deps.asset(name);
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new Error(`the executable's copy of ${name} is damaged`);
  // A temporary name of this process's own, then a rename: a reader sees the old file or the whole
  // new one, and two processes that start together both succeed.
  const temporary = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}`);
  const fd = openSync(temporary, 'wx', 0o500);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  if (sha256Of(path) !== sha256) throw new Error(`${path} changed while it was written`);
}

function sha256Of(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

/**
 * Removes the folders of other versions of ces from `base`, each only when no running process has
 * one of its files mapped: an older `ces serve` still running during an upgrade keeps its folder,
 * which its worker threads load from. Best effort: nothing here fails the start.
 */
function pruneOtherVersions(base: string, keep: string, deps: NativeCacheDeps): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === keep || !FOLDER_PATTERN.test(name)) continue;
    const dir = join(base, name);
    try {
      if (deps.inUse(dir) !== false) continue;
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // another process pruned it first, or it is not ours to remove
    }
  }
}

/** Whether a process other than this one maps a file of `dir`, from /proc/PID/maps; null without /proc. */
function mappedByAnotherProcess(dir: string): boolean | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  } catch {
    return null;
  }
  const prefix = `${dir}/`;
  for (const pid of pids) {
    let maps: string;
    try {
      maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
    } catch {
      continue; // gone, or another user's: a process of another user cannot have loaded our folder
    }
    if (maps.includes(prefix)) return true;
  }
  return false;
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message.split('\n')[0]}` : String(e?.message ?? error).split('\n')[0];
}

/** The process's own answers, for the executable. */
export function processDeps(asset: (name: string) => Uint8Array, load: (path: string) => unknown): NativeCacheDeps {
  return {
    env: process.env,
    uid: process.getuid?.() ?? 0,
    asset,
    load,
    inUse: mappedByAnotherProcess,
    home: homedir,
    tmp: tmpdir,
  };
}
