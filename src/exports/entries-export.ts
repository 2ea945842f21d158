// The entries export: every entry of a campaign as CSV or JSON Lines, streamed from a cursor to a
// writable with backpressure, so memory stays flat whatever the number of rows. The columns are the
// entry, its enrollment, its consent record, its latest award and its lucky numbers (README, Exports).
// One use case, runExport, for the CLI and the dashboard alike: it records `entries.exported` before
// the first row is written, and the recording and the writing are not exported apart, so no caller
// can write an export the audit log does not show, or record one in other words.
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import { holdLongRead } from '../db/long-reads.ts';
import { openDatabase } from '../db/open.ts';
import { formatNumber } from '../draws/number-set.ts';
import type { Ctx } from '../kernel/context.ts';
import { storedTimestampInUtc } from '../input/timestamps.ts';
import { PROFILE_FIELDS } from '../entries/submission.ts';
import { csvRecord } from '../tools/csv.ts';
import { countExportRows, iterateExportRows, sumEntryCounts, type ExportFilter, type ExportRow } from './exports.repo.ts';

export type ExportFormat = 'csv' | 'jsonl';

/** The export's columns, in order: the CSV header and the keys of each JSON line. */
export const EXPORT_COLUMNS = [
  'entry_id',
  'livemode',
  'status',
  'rejection_reasons',
  'evidence_type',
  'access_key',
  'created_at',
  'processed_at',
  'evaluated_at',
  'enrollment_id',
  'document_type',
  'document_number',
  // every profile field a submission may carry, in its order: a new one is exported without a second list
  ...PROFILE_FIELDS,
  'anonymized_at',
  'consent_granted_at',
  'consent_term_version',
  'award_status',
  'award_prize_id',
  'lucky_numbers',
] as const satisfies ReadonlyArray<keyof ExportRow>;

/** What is exported: which entries, in which format. */
interface ExportRequest {
  filter: ExportFilter;
  format: ExportFormat;
}

/** Where the export is written, and how the writing reads its rows. */
interface ExportSink {
  out: NodeJS.WritableStream;
  /** Called with the rows written so far, after each row (the caller throttles). */
  onProgress?: (done: number) => void;
  /**
   * Read the rows on a read-only connection of its own, closed when the writing ends or fails. For
   * a sink that waits on a slow reader (an HTTP download): a better-sqlite3 connection runs no other
   * statement while a cursor is open, so on the caller's connection intake and the tick would wait
   * for the download. A read-only connection sees one snapshot (WAL) from its first row to its last.
   */
  ownConnection?: boolean;
}

/** An export under way. */
interface ExportRun {
  /** The rows the export holds as it starts, as recorded (its snapshot may differ by the rows written meanwhile). */
  rows: number;
  /** Resolves with the rows written once the last one is; rejects when a write or a read fails. */
  written: Promise<number>;
}

/**
 * Exports a campaign's entries to `sink`: the campaign must exist, the export is recorded as
 * `entries.exported` (every participant's personal data leaves the service: who took it, which
 * rows, in what format), and only then is the first row written. A refusal before (no such
 * campaign) records nothing; a failure of the writing after leaves the record, as the data may
 * have left.
 */
export function runExport(ctx: Ctx, request: ExportRequest, sink: ExportSink, actor: Actor): ExportRun {
  getCampaign(ctx, request.filter.campaignId);
  const rows = recordEntriesExport(ctx, request.filter, request.format, actor);
  if (!sink.ownConnection) return { rows, written: writeEntriesExport(ctx, request, sink) };
  const db = openDatabase(ctx.config.dbPath, { readonly: true });
  // Its read snapshot lasts as long as the download: an anonymisation's erasure waits for it and names it.
  const release = holdLongRead(ctx.config.dbPath, `entries export (campaign ${request.filter.campaignId}, this process)`);
  const written = writeEntriesExport({ ...ctx, db }, request, sink).finally(() => {
    db.close();
    release();
  });
  return { rows, written };
}

/** How many rows an export of `filter` holds, counted row by row: exact, for the CLI's progress bar. */
export function countEntriesToExport(ctx: Ctx, filter: ExportFilter): number {
  return countExportRows(ctx.db, filter);
}

/**
 * How many rows an export of `filter` holds now, from the totals the schema keeps (entry_counts):
 * a page view or an audit record never counts a campaign's million entries one by one.
 */
export function countEntriesFromTotals(ctx: Ctx, filter: ExportFilter): number {
  return sumEntryCounts(ctx.db, filter);
}

/**
 * Records `entries.exported` as an export starts. Returns the rows the export holds now, from the
 * counts the schema keeps, so a campaign's million entries are never counted one by one.
 */
function recordEntriesExport(ctx: Ctx, filter: ExportFilter, format: ExportFormat, actor: Actor): number {
  return ctx.db
    .transaction(() => {
      const rows = countEntriesFromTotals(ctx, filter);
      const mode = filter.livemode === undefined ? 'both' : filter.livemode === 1 ? 'live' : 'test';
      recordAudit(ctx, {
        actor,
        action: 'entries.exported',
        campaignId: filter.campaignId,
        details: { format, mode, status: filter.status ?? null, rows },
      });
      return rows;
    })
    .immediate();
}

/** Writes the header (CSV) and one record per entry; resolves with the number of rows written. */
async function writeEntriesExport(ctx: Ctx, request: ExportRequest, sink: ExportSink): Promise<number> {
  const { out } = sink;
  // The CSV is read by people: its lucky numbers are written S/EEEEE, as every other page and record writes them.
  const seriesCount = getCampaign(ctx, request.filter.campaignId).series_count;
  const encode = request.format === 'csv' ? (row: ExportRow) => toCsv(row, seriesCount) : toJsonLine;
  if (request.format === 'csv') await write(out, csvRecord([...EXPORT_COLUMNS]));
  let rows = 0;
  // for..of closes the cursor (iterator.return) if a write fails and the loop throws.
  for (const row of iterateExportRows(ctx.db, request.filter)) {
    const waiting = write(out, encode(row));
    if (waiting) await waiting;
    rows++;
    sink.onProgress?.(rows);
  }
  return rows;
}

/** The stored 'series-order' pairs, as numbers. */
function luckyPairs(row: ExportRow): Array<[series: string, orderNumber: string]> {
  return row.lucky_numbers === null ? [] : row.lucky_numbers.split(' ').map((pair) => pair.split('-') as [string, string]);
}

function toCsv(row: ExportRow, seriesCount: number): string {
  return csvRecord(
    EXPORT_COLUMNS.map((column) => {
      if (column === 'livemode') return row.livemode === 1 ? 'true' : 'false';
      if (column === 'rejection_reasons')
        return (JSON.parse(row.rejection_reasons) as Array<{ code: string }>).map((r) => r.code).join(';');
      if (column === 'consent_granted_at') return grantedAtUtc(row);
      if (column === 'lucky_numbers')
        return row.lucky_numbers === null
          ? null
          : luckyPairs(row)
              .map(([s, o]) => formatNumber(Number(s), Number(o), seriesCount))
              .join(' ');
      return row[column];
    }),
  );
}

function toJsonLine(row: ExportRow): string {
  const record: Record<string, unknown> = {};
  for (const column of EXPORT_COLUMNS) record[column] = row[column];
  record.livemode = row.livemode === 1;
  record.rejection_reasons = JSON.parse(row.rejection_reasons);
  record.consent_granted_at = grantedAtUtc(row);
  record.lucky_numbers = luckyPairs(row).map(([series, order_number]) => ({ series, order_number }));
  return `${JSON.stringify(record)}\n`;
}

/** The consent's granted_at (stored with the integrator's offset) in UTC, like every other timestamp of the export. */
function grantedAtUtc(row: ExportRow): string | null {
  return row.consent_granted_at === null ? null : storedTimestampInUtc(row.consent_granted_at);
}

/** Writes a chunk and, when the stream's buffer is full, waits for it to drain (or fail). */
function write(out: NodeJS.WritableStream, chunk: string): Promise<void> | void {
  if (out.write(chunk)) return;
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error): void => {
      out.off('drain', onDrain);
      out.off('error', onError);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = (): void => settle();
    const onError = (error: Error): void => settle(error);
    out.on('drain', onDrain);
    out.on('error', onError);
  });
}
