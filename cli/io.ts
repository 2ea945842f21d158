// Where a command prints, what environment it reads and the status it ends with. For the `ces`
// binary (cli/ces.ts) these are the process's stdout, stderr, env and exitCode; a test that runs the
// program in process (runProgram in cli/program.ts) gives buffers, an env of its own and a status
// that is only returned. Held per run in AsyncLocalStorage rather than passed down every command,
// so two commands run at once in one process (a test's Promise.all) each print to their own
// buffers, and a command reads it only where it touches the process's edge.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../src/kernel/clock.ts';

/** A stream a command prints to: write, end, events (an export streams into it), maybe a TTY. */
export type CliOutput = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** Where a command reads the operator's answer to a question (`ces draw results --fetch`), maybe a TTY. */
export type CliInput = NodeJS.ReadableStream & { readonly isTTY?: boolean };

export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** The environment configuration is read from (src/kernel/config.ts loadCommandConfig). */
  readonly env: NodeJS.ProcessEnv;
  /** The operator's side; none for a test that asks nothing (then nothing is a terminal). */
  readonly stdin?: CliInput;
  /**
   * The time the command's ctx runs on: the system clock for the binary; a test's ManualClock, so
   * that a rule of time (a draw's cut-off) is crossed by advancing it rather than by waiting.
   */
  readonly clock?: Clock;
  /**
   * Ends a command that runs until it is stopped (`ces webhook listen`): the binary's is SIGINT or
   * SIGTERM; a test that runs the program in process aborts its own.
   */
  readonly stop?: AbortSignal;
  /** The status the command ends with: 1 once it has failed, else what commander set (help: 0). */
  exitCode: number;
}

/** The real process's edge: what the `ces` binary prints to, reads and exits with. */
export const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  // Read only when a command asks: process.stdin opens the descriptor on first use.
  get stdin(): CliInput {
    return process.stdin;
  },
  get exitCode(): number {
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  },
  set exitCode(code: number) {
    process.exitCode = code;
  },
};

const current = new AsyncLocalStorage<CliIo>();

/** The io of the command running now: the process's, unless runProgram was given another. */
export function cliIo(): CliIo {
  return current.getStore() ?? processIo;
}

/** Runs `fn` (a whole program run) with `io` as what its commands print to and read. */
export function withCliIo<T>(io: CliIo, fn: () => T): T {
  return current.run(io, fn);
}
