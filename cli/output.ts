// How every CLI command opens the database, prints, and fails
// (docs/operations.md#cli-reference-campaigns-keys-entries-demo): with --json exactly one JSON
// document on stdout; otherwise readable text. Failures: one line on stderr, exit 1 (and {"error":
// {code, message}} on stdout with --json). A reader that stops early ends the command quietly; a
// closed stderr only silences it.
import type { Command } from 'commander';
import { systemClock } from '../src/kernel/clock.ts';
import { ConfigError, loadCommandConfig } from '../src/kernel/config.ts';
import type { Ctx } from '../src/kernel/context.ts';
import { openDatabase, type OpenOptions } from '../src/db/open.ts';
import { AppError } from '../src/kernel/errors.ts';
import { createLogger } from '../src/kernel/log.ts';
import { cryptoRandom } from '../src/kernel/random.ts';
import { escapeCharacter, escapeControlCharacters } from '../src/kernel/control-characters.ts';
import { cliMessage } from './fields.ts';
import { cliIo } from './io.ts';

export { escapeControlCharacters };

export interface CommonOptions {
  db?: string;
  json?: boolean;
}

export function withCommonOptions(cmd: Command): Command {
  return cmd
    .option('--db <path>', 'database file (env CES_DB, default ./data/ces.db)')
    .option('--json', 'print one JSON document on stdout');
}

let stdoutWatched = false;

/**
 * A reader that stops early (`ces entries list … | head -1`) closes the pipe, and the next write to
 * stdout fails with EPIPE, an 'error' event that would otherwise crash the command with a stack
 * trace. The command ends there instead, quietly, with the status it already had (0 unless it had
 * failed), as Unix filters do. What it committed stays committed (a participant export's audit
 * record, say): transactions are synchronous, so none is open when the event arrives, and the exit
 * releases the database. Any other write error on stdout (a full disk behind `>`) is a failure.
 * Installed once, before any command's action (cli/program.ts); not for `ces serve`, whose stdout is its log.
 */
export function endQuietlyWhenReaderLeaves(): void {
  if (stdoutWatched) return;
  stdoutWatched = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit();
    process.stderr.write(`ces: cannot write to stdout: ${error.message}\n`);
    process.exit(1);
  });
}

let stderrWatched = false;

/**
 * stderr carries only diagnostics: a failure's one line, a summary, a warning. When its reader has
 * gone (`ces … 2>&1 | true`, a closed terminal), a write fails with EPIPE, an 'error' event that
 * would crash the command with a stack trace nobody can read, and turn a success into status 1.
 * The command carries on without stderr instead and ends with the status it would have had (1
 * for a failure): what it prints on stdout and what it commits do not depend on anyone reading its
 * diagnostics, and a command ended there could leave its work half done with status 0. Installed
 * once for every command (cli/ces.ts), `ces serve` included: its requests and webhooks matter more
 * than a warning.
 */
export function carryOnWithoutStderr(): void {
  if (stderrWatched) return;
  stderrWatched = true;
  // Once destroyed by the error, the stream fails later writes quietly (no second event).
  process.stderr.on('error', () => {});
}

/** Settings a command reads besides CES_DB (src/kernel/config.ts loadCommandConfig). */
type CommandSettings = Parameters<typeof loadCommandConfig>[2];

/**
 * The context of one command: its configuration, the database opened with `open`, the run's clock
 * (cli/io.ts) and the CLI's random source. The caller closes the database.
 */
export function openCommandContext(opts: CommonOptions, open: OpenOptions = {}, settings: CommandSettings = {}): Ctx {
  const io = cliIo();
  const config = loadCommandConfig({ db: opts.db }, io.env, settings);
  return {
    db: openDatabase(config.dbPath, { ...open, checkpoints: config.checkpoints }),
    clock: io.clock ?? systemClock,
    random: cryptoRandom,
    config,
    log: createLogger('pretty', io.stderr),
  };
}

/**
 * Opens a context for one command (the database opened with `open`: by default created if missing
 * and migrated), runs it, prints its result, closes the database. Only a command that `delivers`
 * a webhook reads the delivery settings (src/kernel/config.ts loadCommandConfig).
 */
export async function runCommand<T>(
  opts: CommonOptions,
  action: (ctx: Ctx) => T | Promise<T>,
  render: (result: T) => string,
  open: OpenOptions = {},
  settings: CommandSettings = {},
): Promise<void> {
  const io = cliIo();
  let ctx: Ctx | undefined;
  try {
    ctx = openCommandContext(opts, open, settings);
    const result = await action(ctx);
    io.stdout.write(opts.json ? `${toJsonDocument(result)}\n` : `${escapeControlCharacters(render(result), { keepLineBreaks: true })}\n`);
  } catch (error) {
    fail(opts, error);
  } finally {
    ctx?.db.close();
  }
}

export function fail(opts: CommonOptions, error: unknown): void {
  const { code, message } = describeError(error);
  const io = cliIo();
  const extra = error instanceof AppError ? error.extra : undefined;
  if (opts.json) io.stdout.write(`${JSON.stringify({ error: { code, message, ...extra } })}\n`);
  // One line (docs/operations.md#cli-reference-campaigns-keys-entries-demo), even when the message
  // quotes a value the operator typed with a line break, and no control character raw: a message
  // may quote a stored value that came from the API.
  io.stderr.write(`ces: ${escapeControlCharacters(message.replace(/\r\n|\r|\n/g, '\\n'))}\n`);
  io.exitCode = 1;
}

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof AppError) return { code: error.code, message: cliMessage(error) };
  if (error instanceof ConfigError) return { code: 'invalid_config', message: error.message };
  const sqliteCode = (error as { code?: unknown })?.code;
  if (typeof sqliteCode === 'string' && sqliteCode.startsWith('SQLITE_'))
    return { code: 'database_error', message: `database error: ${(error as Error).message}` };
  return { code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

/** A plain text table: a header row and aligned columns. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]): string =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

/** "key: value" lines for one object; nested values as compact JSON. */
export function details(obj: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(obj).map((k) => k.length));
  return Object.entries(obj)
    .map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`)
    .join('\n');
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  // A cell is one line: a line break in a value would forge a row or a field of its own.
  if (typeof value === 'object') return escapeControlCharacters(JSON.stringify(value));
  return escapeControlCharacters(String(value));
}

/**
 * The --json document. JSON.stringify escapes C0 but writes DEL and C1 raw; escaped here too, as
 * \u009b, which parses back to the same value (they can only occur inside strings).
 */
export function toJsonDocument(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, escapeCharacter);
}
