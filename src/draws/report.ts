// The apuração record (ata) of a draw, in Markdown or in printable HTML (report-model.ts says what
// it holds; report-markdown.ts and report-html.ts write it out). The clause for the plan is clause.ts.
import type { Ctx } from '../kernel/context.ts';
import { reportHtml } from './report-html.ts';
import { reportMarkdown } from './report-markdown.ts';
import { buildReportModel } from './report-model.ts';

export type ReportFormat = 'md' | 'html';

/**
 * The record of a draw that has run. `reproduce` is the command its reader types to write the
 * canonical list again, in the words of the edge that asks for the record (ReportModel).
 */
export function renderDrawReport(ctx: Ctx, drawId: string, format: ReportFormat, reproduce: string): string {
  const model = buildReportModel(ctx, drawId, reproduce);
  return format === 'md' ? reportMarkdown(model) : reportHtml(model).toString();
}
