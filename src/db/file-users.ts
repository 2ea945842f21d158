// Which processes have a database file open, read from /proc on Linux. A running `ces serve` keeps
// its database open for its whole life, so this is how the CLI tells that a server is up: restore
// and backup refuse to replace a file in use, a schema upgrade waits until no one else has the file
// open, and a second server refuses to start beside the first (src/db/server-claim.ts). A refusal
// names each holder as /proc does ("litestream (pid 1234)", "ces serve (pid 99)"), so that the
// operator stops the right process: beside Litestream, the holder is not always an older ces.
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
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

/**
 * The names /proc shows for the database, its -wal and its -shm (real paths: /proc resolves
 * symlinks). The -shm too: SQLite maps it, and a replicator may hold it while it reopens the rest.
 */
function openFileNames(path: string): Set<string> {
  const real = realPath(path);
  return new Set([real, `${real}-wal`, `${real}-shm`]);
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

/** Processes other than `selfPid` that have the file (or its -wal or -shm) open; [] where /proc is absent. */
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
 * Whether process `pid` has the file (or its -wal or -shm) open. Where /proc is absent, whether the process
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

/** Litestream's binary (the npm wrapper runs it as a child: the child is what opens the file). */
const LITESTREAM_COMM = 'litestream';

/** A process that has the file open, as a refusal names it. */
export interface FileHolder {
  pid: number;
  /** What the process is: `/proc/PID/comm` ("litestream"), or "ces serve" for a node running ces. */
  name: string;
  litestream: boolean;
}

/**
 * Node 24 names its main thread "MainThread", and a process's comm is its main thread's name: for
 * such a process the name of the file it runs (/proc/PID/exe: "node", or the single executable's)
 * stands in, as it is what comm said before. A title the process set still shows in comm.
 */
function readComm(pid: number): string {
  const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  if (comm !== 'MainThread') return comm;
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, ''));
  } catch {
    return comm; // gone meanwhile, or not ours to read
  }
}

/**
 * What process `pid` is, from /proc: its comm (the executable's name, or the title it set), except
 * for a node process whose command line runs ces (bin/ces.mjs, dist/ces.mjs, cli/ces.ts), named
 * `ces` and its command ("ces serve"). A process gone meanwhile, or not ours to read, is "process".
 */
export function describeProcess(pid: number): FileHolder {
  let comm = '';
  try {
    comm = readComm(pid);
  } catch {
    return { pid, name: 'process', litestream: false };
  }
  let name = comm === '' ? 'process' : comm;
  if (comm === 'node' || comm.startsWith('node-')) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const at = argv.findIndex((arg, i) => i > 0 && /(^|\/)ces(\.mjs|\.ts|\.js)?$/.test(arg));
      if (at > 0) name = /^[a-z][a-z-]*$/.test(argv[at + 1] ?? '') ? `ces ${argv[at + 1]}` : 'ces';
    } catch {
      // gone meanwhile: its comm will do
    }
  }
  return { pid, name, litestream: comm === LITESTREAM_COMM };
}

/** The holders of the file other than `selfPid`, named; [] where /proc is absent. */
export function findFileHolders(path: string, selfPid: number): FileHolder[] {
  return findProcessesUsingFile(path, selfPid).map(describeProcess);
}

/** "litestream (pid 1234), ces serve (pid 99)": the holders as a refusal names them. */
export function formatHolders(holders: readonly FileHolder[]): string {
  return holders.map((h) => `${h.name} (pid ${h.pid})`).join(', ');
}
