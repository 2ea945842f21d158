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
function findProcessesUsingFile(path: string, selfPid: number): number[] {
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
interface FileHolder {
  pid: number;
  /** What the process is: `/proc/PID/comm` ("litestream"), or "ces serve" for a process running ces. */
  name: string;
  litestream: boolean;
}

/**
 * What process `pid` is, from /proc (see nameProcess). A process gone meanwhile, or not ours to
 * read, is "process".
 */
export function describeProcess(pid: number): FileHolder {
  let comm: string;
  try {
    comm = readFileSync(`/proc/${pid}/comm`, 'utf8');
  } catch {
    return { pid, name: 'process', litestream: false };
  }
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // gone meanwhile: its comm will do
  }
  return { pid, ...nameProcess(comm, cmdline) };
}

/**
 * A process's name from its /proc/PID/comm and /proc/PID/cmdline (arguments ending in NUL): "ces"
 * and its command ("ces serve") for a process running ces, else its comm (the executable's name,
 * or the title it set). Running ces is the executable, whose comm says nothing (its file name,
 * maybe renamed and cut at 15 characters, or "MainThread", the name newer Node releases such as 24
 * give their main thread), so its argv[0] is what tells (`./ces`, `/usr/local/bin/ces`); or a node
 * running a ces script: the installed `ces` or dist/ces.mjs, bin/ces.mjs or cli/ces.ts.
 */
export function nameProcess(comm: string, cmdline: string): Omit<FileHolder, 'pid'> {
  const name = comm.trim();
  const argv = cmdline.split('\0');
  if (basename(argv[0]).startsWith('ces')) return { name: withCommand(argv.slice(1)), litestream: false };
  if (!isNode(name, argv[0])) return { name: name === '' ? 'process' : name, litestream: name === LITESTREAM_COMM };
  const script = argv.findIndex((arg, i) => i > 0 && isCesScript(arg));
  if (script > 0) return { name: withCommand(argv.slice(script + 1)), litestream: false };
  // "MainThread" names no program the operator started.
  return { name: name === 'MainThread' ? 'node' : name, litestream: false };
}

/**
 * Whether the process is a node: comm "node" (or "node-…", a renamed binary), or "MainThread" with
 * a node's argv[0]. A node that set its title has that title as comm instead, and is named by it.
 */
function isNode(comm: string, argv0: string): boolean {
  if (comm === 'MainThread') return basename(argv0).startsWith('node');
  return comm === 'node' || comm.startsWith('node-');
}

function isCesScript(arg: string): boolean {
  return /(^|\/)ces(\.mjs|\.ts|\.js)?$/.test(arg);
}

/** "ces serve": the command is the first argument that is not an option; "ces" if it is no command word. */
function withCommand(args: readonly string[]): string {
  const command = args.find((arg) => !arg.startsWith('-')) ?? '';
  return /^[a-z][a-z-]*$/.test(command) ? `ces ${command}` : 'ces';
}

/** The holders of the file other than `selfPid`, named; [] where /proc is absent. */
export function findFileHolders(path: string, selfPid: number): FileHolder[] {
  return findProcessesUsingFile(path, selfPid).map(describeProcess);
}

/** "litestream (pid 1234), ces serve (pid 99)": the holders as a refusal names them. */
export function formatHolders(holders: readonly FileHolder[]): string {
  return holders.map((h) => `${h.name} (pid ${h.pid})`).join(', ');
}
