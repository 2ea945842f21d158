// Child processes of the benchmark: the ces server, the echo ceiling and the webhook receiver each
// run in their own Node process (as they would in production), so the load generator in this
// process never shares an event loop with what it measures.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface Child {
  url: string;
  pid: number;
  process: ChildProcess;
  /** Peak resident set (VmHWM) of the child so far, in MiB. */
  peakRssMb(): number;
  /** CPU time (user + system) the child has used so far, in ms. */
  cpuMs(): number;
  /** CPU time of its main thread alone (the event loop that serves HTTP), in ms. */
  mainThreadCpuMs(): number;
  stop(): Promise<void>;
  /** Resolves with the first line the child has written to stderr (its log) matching `pattern`, or null after `timeoutMs`. */
  waitForLog(pattern: RegExp, timeoutMs: number): Promise<string | null>;
}

export interface SpawnOptions {
  script: string;
  args?: string[];
  env?: Record<string, string>;
  /** Extra `node` flags (e.g. --cpu-prof). */
  nodeFlags?: string[];
  ipc?: boolean;
  startTimeoutMs?: number;
}

/**
 * Starts `node <script>` (through tsx when it is TypeScript; a built .mjs bundle runs as it is) and
 * resolves once it prints `listening on <url>`.
 */
export function spawnChild(options: SpawnOptions): Promise<Child> {
  const loader = options.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...loader, options.script, ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  // The log for waitForLog, up to a megabyte, but for the line of every request (the access log).
  let log = '';
  let partial = '';
  const logListeners = new Set<() => void>();
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (!line.includes('"message":"request"') && log.length < 1_048_576) log += `${line}\n`;
    for (const listener of logListeners) listener();
  });
  const waitForLog = (pattern: RegExp, timeoutMs: number): Promise<string | null> =>
    new Promise((resolve) => {
      const check = (): void => {
        const line = log.split('\n').find((candidate) => pattern.test(candidate));
        if (line === undefined) return;
        finish(line);
      };
      const finish = (line: string | null): void => {
        clearTimeout(timer);
        logListeners.delete(check);
        resolve(line);
      };
      const timer = setTimeout(() => finish(null), timeoutMs);
      logListeners.add(check);
      check();
    });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.script} did not start within ${options.startTimeoutMs ?? 30_000} ms\n${stderr}`));
    }, options.startTimeoutMs ?? 30_000);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`${options.script} exited with ${code} before listening\n${stderr}`));
    };
    child.once('exit', onExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (https?:\/\/[^\s"]+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      resolve({
        url: match[1],
        pid: child.pid!,
        process: child,
        peakRssMb: () => readPeakRssMb(child.pid!),
        cpuMs: () => readCpuMs(`/proc/${child.pid!}/stat`),
        mainThreadCpuMs: () => readCpuMs(`/proc/${child.pid!}/task/${child.pid!}/stat`),
        waitForLog,
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}

function readPeakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/**
 * utime + stime of a /proc stat file (a process's, or one thread's under task/), in ms: fields 14
 * and 15, in clock ticks of 10 ms on Linux.
 */
function readCpuMs(statPath: string): number {
  try {
    const stat = readFileSync(statPath, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
