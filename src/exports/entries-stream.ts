// The entries export as a stream for an HTTP answer (the dashboard's download): the same use case,
// rows, columns and CSV safety as `ces entries export` (runExport), read on a connection of its own
// (the export waits for a slow browser between rows), which is closed when the export ends, fails
// or the client goes away.
import { PassThrough, Readable } from 'node:stream';
import type { Actor } from '../audit/actor.ts';
import type { Ctx } from '../kernel/context.ts';
import { runExport, type ExportFormat } from './entries-export.ts';
import type { ExportFilter } from './exports.repo.ts';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

interface ExportDownload {
  /** The rows the export holds when it starts (its snapshot may differ by the rows written meanwhile). */
  rows: number;
  /** The export as a web stream of UTF-8 bytes; backpressure reaches the cursor (the next row waits). */
  stream: ReadableStream<Uint8Array>;
}

/** A download of a campaign's entries, recorded first as `entries.exported` (runExport), then streamed. */
export function downloadEntriesExport(ctx: Ctx, filter: ExportFilter, format: ExportFormat, actor: Actor): ExportDownload {
  const out = new PassThrough();
  const run = runExport(ctx, { filter, format }, { out, ownConnection: true }, actor);
  run.written
    .then(() => out.end())
    .catch((error: unknown) => {
      // The client went away (the stream was cancelled) or the read failed: either way the answer
      // is cut short, which a download shows as failed rather than as a complete file.
      if (!out.destroyed) {
        ctx.log.warn(`dashboard export stopped: ${(error as Error).message}`);
        out.destroy(error as Error);
      }
    });
  return { rows: run.rows, stream: Readable.toWeb(out) as ReadableStream<Uint8Array> };
}
