// Which processes have a database file open, read from /proc on Linux. A running `ces serve` keeps
// its database open for its whole life, so this is how the CLI tells that a server is up: restore
// and backup refuse to replace a file in use, a schema upgrade waits until no one else has the file
// open, and a second server refuses to start beside the first (src/db/server-claim.ts).
import { existsSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The absolute path with every symlink resolved (of the folder, when the file does not exist yet),
 * so that two spellings of one file compare equal, as they must before a backup or a restore
 * overwrites or moves it.
 */
export function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/** Whether this system lists open files under /proc (Linux); elsewhere the checks below see nothing. */
export function canSeeOpenFiles(): boolean {
  return existsSync('/proc/self/fd');
}

/** The names /proc shows for the database and its -wal (real paths: /proc resolves symlinks). */
function openFileNames(path: string): Set<string> {
  const real = realPath(path);
  return new Set([real, `${real}-wal`]);
}

function holdsAny(pid: number, names: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // gone, or not ours to look at
  }
  for (const fd of fds) {
    try {
      if (names.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

/** Processes other than `selfPid` that have the file (or its -wal) open; [] where /proc is absent. */
export function findProcessesUsingFile(path: string, selfPid: number): number[] {
  if (!canSeeOpenFiles()) return [];
  const names = openFileNames(path);
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid !== selfPid && holdsAny(pid, names)) pids.push(pid);
  }
  return pids;
}

/**
 * Whether process `pid` has the file (or its -wal) open. Where /proc is absent, whether the process
 * is alive at all: a recycled pid then reads as a user of the file, the safe side to err on.
 */
export function processUsesFile(pid: number, path: string): boolean {
  if (canSeeOpenFiles()) return holdsAny(pid, openFileNames(path));
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
