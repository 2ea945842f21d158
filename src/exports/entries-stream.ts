// The entries export as a stream for an HTTP answer (the dashboard's download): the same rows,
// columns and CSV safety as `ces entries export` (writeEntriesExport), read on a connection of its
// own. A better-sqlite3 connection runs no other statement while a cursor is open, and the export
// waits for a slow browser between rows; on the server's connection that would stop intake and
// the tick for as long as the download lasts. A read-only connection sees one snapshot (WAL) from
// its first row to its last, and is closed when the export ends, fails or the client goes away.
import { PassThrough, Readable } from 'node:stream';
import type { Actor } from '../audit/actor.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { openDatabase } from '../db/open.ts';
import { recordEntriesExport, writeEntriesExport, type ExportFormat } from './entries-export.ts';
import type { ExportFilter } from './exports.repo.ts';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

export interface ExportDownload {
  /** The rows the export holds when it starts (its snapshot may differ by the rows written meanwhile). */
  rows: number;
  stream: ReadableStream<Uint8Array>;
}

/**
 * A download of a campaign's entries, recorded first as `entries.exported` (every participant's
 * personal data leaves the service: who took it, which rows, in what format), then streamed.
 */
export function downloadEntriesExport(ctx: Ctx, filter: ExportFilter, format: ExportFormat, actor: Actor): ExportDownload {
  getCampaign(ctx, filter.campaignId);
  const rows = recordEntriesExport(ctx, filter, format, actor);
  return { rows, stream: streamEntriesExport(ctx, filter, format) };
}

/** The export as a web stream of UTF-8 bytes; backpressure reaches the cursor (the next row waits). */
export function streamEntriesExport(ctx: Ctx, filter: ExportFilter, format: ExportFormat): ReadableStream<Uint8Array> {
  const db = openDatabase(ctx.config.dbPath, { readonly: true });
  const out = new PassThrough();
  const exportCtx: Ctx = { ...ctx, db };
  writeEntriesExport(exportCtx, { filter, format, out })
    .then(() => out.end())
    .catch((error: unknown) => {
      // The client went away (the stream was cancelled) or the read failed: either way the answer
      // is cut short, which a download shows as failed rather than as a complete file.
      if (!out.destroyed) {
        ctx.log.warn(`dashboard export stopped: ${(error as Error).message}`);
        out.destroy(error as Error);
      }
    })
    .finally(() => db.close());
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
