// consola set up for the two log formats: pretty for a person at a TTY, one JSON object per line
// for machines. Secrets never reach it: callers log ids and prefixes, never keys or HMAC secrets.
import { createConsola, LogLevels, type ConsolaInstance, type ConsolaReporter, type LogObject } from 'consola';
import { escapeControlCharacters } from './control-characters.ts';

interface LoggerOptions {
  level?: number;
  /**
   * JSON lines are gathered and written once per event-loop turn instead of one write each. Writes
   * to a pipe or a file are synchronous in Node, so under load a write per request line costs as
   * much as the request's database work. Lines wait at most one turn; they are written before the
   * process exits normally, and a SIGKILL can lose that one turn's lines.
   */
  batched?: boolean;
}

/** What a logger writes to: a stream, or a LogOutput guarding one. */
interface LogTarget {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export function createLogger(format: 'pretty' | 'json', stream: LogTarget = process.stdout, options: LoggerOptions = {}): ConsolaInstance {
  const level = options.level ?? LogLevels.info;
  const logger =
    format === 'pretty'
      ? createConsola({
          level,
          stdout: stream as NodeJS.WriteStream,
          stderr: stream as NodeJS.WriteStream,
          formatOptions: { date: true, colors: stream.isTTY === true },
        })
      : createJsonLogger(level, options.batched ? batchedWriter(stream) : (text: string) => void stream.write(text));
  if (format === 'pretty') logger.setReporters(logger.options.reporters.map(escapingReporter));
  if (isLogOutput(stream)) (logger as unknown as Record<symbol, unknown>)[DROPPED_LINES] = stream.droppedLines;
  return logger;
}

/**
 * The pretty log is read in a terminal, and its lines carry text from outside (a request's path, a
 * receiver's error, a campaign's name): a raw ESC sequence would drive the operator's terminal, a
 * bidi control reorder the line, a line break forge a line of its own. Every string in a record is
 * shown escaped (\u001b), as the CLI shows them; an error's stack keeps its own line breaks. JSON
 * lines need none of this: JSON.stringify escapes C0, and a reader of JSON parses it.
 */
function escapingReporter(inner: ConsolaReporter): ConsolaReporter {
  return { log: (obj, ctx) => inner.log(escapeLogValue(obj) as LogObject, ctx) };
}

function escapeLogValue(value: unknown): unknown {
  if (typeof value === 'string') return escapeControlCharacters(value);
  if (value instanceof Error) {
    const error = new Error(escapeControlCharacters(value.message));
    error.stack = value.stack === undefined ? undefined : escapeControlCharacters(value.stack, { keepLineBreaks: true });
    return error;
  }
  if (Array.isArray(value)) return value.map(escapeLogValue);
  // Plain objects only (the record, its fields): a Date or a Buffer stays as it is.
  const proto = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null)
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, escapeLogValue(v)]));
  return value;
}

function createJsonLogger(level: number, write: (text: string) => void): ConsolaInstance {
  const logger = createConsola({
    level,
    reporters: [{ log: (obj: LogObject) => write(`${JSON.stringify(toRecord(obj))}\n`) }],
  });
  (logger as unknown as Record<symbol, unknown>)[JSON_LINE] = (record: Record<string, unknown>): boolean => {
    if (logger.level < LogLevels.info) return false;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', ...record })}\n`);
    return true;
  };
  return logger;
}

const JSON_LINE = Symbol('ces.jsonLine');
const DROPPED_LINES = Symbol('ces.droppedLines');

/**
 * Where `ces serve` logs: its stdout, until a write to it fails. The log's reader can leave while
 * the server runs (`ces serve | head -1`, a log shipper that dies) and the next write fails with
 * EPIPE, an 'error' event that, unhandled, would kill the server with its in-flight requests.
 * Accepted entries and webhooks matter more than log lines, so from that write on the lines are
 * dropped and counted (GET /metrics) and `onLost` is told once. A closed pipe cannot be reopened
 * and a full disk is not the log's to fix, so there is no retry: any write error counts as a loss.
 */
interface LogOutput extends LogTarget {
  /** Log lines not written because the stream had failed, or failed while writing them. */
  droppedLines(): number;
}

export function guardLogStream(stream: NodeJS.WriteStream, onLost: (error: NodeJS.ErrnoException) => void): LogOutput {
  let lost = false;
  let dropped = 0;
  const lose = (error: NodeJS.ErrnoException): void => {
    if (lost) return;
    lost = true;
    onLost(error);
  };
  stream.on('error', lose);
  return {
    write(text: string): void {
      if (lost) {
        dropped += countLines(text);
        return;
      }
      // A write that fails reports to its callback (and then the 'error' event); the lines it held are lost too.
      stream.write(text, (error?: Error | null) => {
        if (!error) return;
        dropped += countLines(text);
        lose(error);
      });
    },
    get isTTY() {
      return stream.isTTY === true;
    },
    get columns() {
      return stream.columns;
    },
    droppedLines: () => dropped,
  };
}

function isLogOutput(target: LogTarget): target is LogOutput {
  return typeof (target as Partial<LogOutput>).droppedLines === 'function';
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return Math.max(lines, 1);
}

/** Log lines `log` has dropped since its output failed (0 for a logger not on a LogOutput). */
export function droppedLogLines(log: ConsolaInstance): number {
  const dropped = (log as unknown as Record<symbol, (() => number) | undefined>)[DROPPED_LINES];
  return dropped === undefined ? 0 : dropped();
}

/**
 * Writes one info record as a JSON line straight to a JSON logger's stream, the same line
 * `log.info(message, fields)` gives without consola's formatting pass (the request log writes one
 * per request). False when `log` is not a JSON logger (pretty, silent); the caller then uses log.info.
 */
export function writeInfoRecord(log: ConsolaInstance, record: Record<string, unknown>): boolean {
  const direct = (log as unknown as Record<symbol, ((r: Record<string, unknown>) => boolean) | undefined>)[JSON_LINE];
  return direct !== undefined && direct(record);
}

const BATCH_LIMIT = 64 * 1024;
const unflushed = new Set<() => void>();
let exitHookInstalled = false;

function batchedWriter(stream: LogTarget): (text: string) => void {
  let buffer = '';
  let timer: NodeJS.Immediate | null = null;
  const flush = (): void => {
    if (timer) clearImmediate(timer);
    timer = null;
    unflushed.delete(flush);
    if (buffer === '') return;
    const text = buffer;
    buffer = '';
    stream.write(text);
  };
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const pending of [...unflushed]) pending();
    });
  }
  return (text) => {
    buffer += text;
    if (buffer.length >= BATCH_LIMIT) return flush();
    if (timer) return;
    unflushed.add(flush);
    timer = setImmediate(flush);
    timer.unref();
  };
}

/** A logger that drops everything (tests, and CLI commands that print their own output). */
export function createSilentLogger(): ConsolaInstance {
  return createConsola({ level: LogLevels.silent, reporters: [] });
}

const LOG_OBJECT_KEYS = new Set(['date', 'args', 'type', 'level', 'tag', 'message', 'additional']);

function toRecord(obj: LogObject): Record<string, unknown> {
  const record: Record<string, unknown> = { time: obj.date.toISOString(), level: obj.type };
  // consola lifts the fields of a lone `{message, ...}` argument onto the log object itself.
  for (const [key, value] of Object.entries(obj)) {
    if (!LOG_OBJECT_KEYS.has(key)) record[key] = value;
  }
  const parts: string[] = [];
  for (const arg of obj.args) {
    if (arg instanceof Error) {
      record.error = arg.message;
      record.stack = arg.stack;
    } else if (arg !== null && typeof arg === 'object') {
      Object.assign(record, arg);
    } else {
      parts.push(String(arg));
    }
  }
  if (parts.length > 0) record.message = record.message ? `${parts.join(' ')} ${String(record.message)}` : parts.join(' ');
  return record;
}
