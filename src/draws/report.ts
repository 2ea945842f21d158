// The apuração record (ata) of a draw, in Markdown or in printable HTML (report-model.ts says what
// it holds; report-markdown.ts and report-html.ts write it out). The clause for the plan is clause.ts.
// A published draw's record is the one its publication stored (draw_records), byte for byte:
// nothing that happens later (an anonymisation, new entries, another version of ces) rewrites it,
// and its Markdown's SHA-256 is the draw's record_sha256.
import { createHash } from 'node:crypto';
import type { Ctx } from '../kernel/context.ts';
import { findDrawRecord } from './draws.repo.ts';
import { reportHtml } from './report-html.ts';
import { reportMarkdown } from './report-markdown.ts';
import { buildReportModel } from './report-model.ts';

export type ReportFormat = 'md' | 'html';

/**
 * The record of a draw that has run: as stored when it is published, else written now (a draft).
 * `reproduce` is the command its reader types to write the canonical list again, in the words of
 * the edge that asks for the record (ReportModel).
 */
export function renderDrawReport(ctx: Ctx, drawId: string, format: ReportFormat, reproduce: string): string {
  const stored = findDrawRecord(ctx.db, drawId);
  if (stored !== undefined) return (format === 'md' ? stored.md : stored.html).toString('utf8');
  return writeReport(buildReportModel(ctx, drawId, reproduce), format);
}

/** Both records as the publication stores them, and the Markdown's SHA-256 (call inside its transaction). */
export function publishedRecord(
  ctx: Ctx,
  drawId: string,
  reproduce: string,
  publisher: string,
): { md: Buffer; html: Buffer; sha256: string } {
  const model = buildReportModel(ctx, drawId, reproduce, publisher);
  const md = Buffer.from(writeReport(model, 'md'), 'utf8');
  const html = Buffer.from(writeReport(model, 'html'), 'utf8');
  return { md, html, sha256: createHash('sha256').update(md).digest('hex') };
}

/** Each format ends in one line break, so that what a command prints is the record's bytes. */
function writeReport(model: ReturnType<typeof buildReportModel>, format: ReportFormat): string {
  const text = format === 'md' ? reportMarkdown(model) : reportHtml(model);
  return text.endsWith('\n') ? text : `${text}\n`;
}
