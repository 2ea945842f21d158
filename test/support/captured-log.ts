// A JSON logger whose records a test reads back, parsed, with the text they were written as.
import { PassThrough } from 'node:stream';
import type { ConsolaInstance } from 'consola';
import { createLogger } from '../../src/kernel/log.ts';

export interface LogRecord {
  level: string;
  message: string;
  [field: string]: unknown;
}

export function capturedLog(): { log: ConsolaInstance; records: () => LogRecord[]; text: () => string } {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const records = (): LogRecord[] =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogRecord);
  return { log: createLogger('json', sink), records, text: () => text };
}
