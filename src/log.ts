// consola set up for the two log formats: pretty for a person at a TTY, one JSON object per line
// for machines. Secrets never reach it: callers log ids and prefixes, never keys or HMAC secrets.
import { createConsola, LogLevels, type ConsolaInstance, type LogObject } from 'consola';

export interface LoggerOptions {
  level?: number;
  /**
   * JSON lines are gathered and written once per event-loop turn instead of one write each. Writes
   * to a pipe or a file are synchronous in Node, so under load a write per request line costs as
   * much as the request's database work. Lines wait at most one turn; they are written before the
   * process exits normally, and a SIGKILL can lose that one turn's lines.
   */
  batched?: boolean;
}

export function createLogger(format: 'pretty' | 'json', stream: NodeJS.WritableStream = process.stdout, options: LoggerOptions = {}): ConsolaInstance {
  const level = options.level ?? LogLevels.info;
  if (format === 'pretty') {
    return createConsola({ level, stdout: stream as NodeJS.WriteStream, stderr: stream as NodeJS.WriteStream, formatOptions: { date: true, colors: (stream as { isTTY?: boolean }).isTTY === true } });
  }
  const write = options.batched ? batchedWriter(stream) : (text: string) => void stream.write(text);
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

function batchedWriter(stream: NodeJS.WritableStream): (text: string) => void {
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
