// consola set up for the two log formats: pretty for a person at a TTY, one JSON object per line
// for machines. Secrets never reach it: callers log ids and prefixes, never keys or HMAC secrets.
import { createConsola, LogLevels, type ConsolaInstance, type LogObject } from 'consola';

export function createLogger(format: 'pretty' | 'json', stream: NodeJS.WritableStream = process.stdout, level: number = LogLevels.info): ConsolaInstance {
  if (format === 'pretty') {
    return createConsola({ level, stdout: stream as NodeJS.WriteStream, stderr: stream as NodeJS.WriteStream, formatOptions: { date: true, colors: (stream as { isTTY?: boolean }).isTTY === true } });
  }
  return createConsola({
    level,
    reporters: [{ log: (obj: LogObject) => stream.write(`${JSON.stringify(toRecord(obj))}\n`) }],
  });
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
