// A draw's files. The frozen canonical list (GET /dashboard/draws/:drawId/numbers), as
// `ces draw numbers` writes it: text/plain, one `S/EEEEE` a line, ascending, the exact bytes
// numbers_sha256 is the SHA-256 of, streamed a series at a time from the frozen set
// (frozenNumbersText), so a draw of millions of numbers is never one string in memory. The
// apuração record (`ces draw report`, src/draws/report.ts) in Markdown and HTML to download, and
// printable (…/print): the record's own HTML document, without the dashboard around it, under a
// policy that allows its inline print stylesheet and nothing else; the record names the command
// that writes the list again as this server runs ces. The regulation clause (`ces draw clause`) as
// text. None holds personal data in full (documents are masked) and none
// changes anything: GETs, not recorded.
import type { Ctx } from '../../kernel/context.ts';
import { renderDrawClause } from '../../draws/clause.ts';
import { frozenNumbersText } from '../../draws/frozen-set.ts';
import type { Draw } from '../../draws/model.ts';
import { renderDrawReport, type ReportFormat } from '../../draws/report.ts';
import { isPublished } from '../../draws/status.ts';
import { getDraw } from '../../draws/views.ts';
import { html, type Html } from '../../tools/html.ts';
import { cesCommand } from '../../tools/runtime.ts';
import { documentResponse, download, page, routeParam, type DashboardRouter } from '../kit.ts';
import { drawPath } from './draws.ts';

/** The record, telling its reader the command that writes the canonical list again, as this server runs ces. */
function report(ctx: Ctx, id: string, format: ReportFormat): string {
  return renderDrawReport(ctx, id, format, `${cesCommand()} draw numbers ${id}`);
}

export function registerDrawFileRoutes(router: DashboardRouter): void {
  router.get(
    '/draws/:drawId/numbers',
    page(({ event, service }) => {
      const id = routeParam(event, 'drawId');
      const chunks = frozenNumbersText(service.ctx, id);
      const draw = getDraw(service.ctx, id);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      });
      return download(body, 'text/plain; charset=utf-8', `draw-${id}-numbers.txt`, { 'x-numbers-sha256': draw.numbers_sha256 ?? '' });
    }),
  );
  router.get(
    '/draws/:drawId/report.md',
    page(({ event, service }) => {
      const id = routeParam(event, 'drawId');
      return download(report(service.ctx, id, 'md'), 'text/markdown; charset=utf-8', `draw-${id}-ata.md`);
    }),
  );
  router.get(
    '/draws/:drawId/report.html',
    page(({ event, service }) => {
      const id = routeParam(event, 'drawId');
      return documentResponse(report(service.ctx, id, 'html'), `draw-${id}-ata.html`);
    }),
  );
  router.get(
    '/draws/:drawId/print',
    page(({ event, service }) => documentResponse(report(service.ctx, routeParam(event, 'drawId'), 'html'))),
  );
  router.get(
    '/draws/:drawId/clause.txt',
    page(({ event, service }) => {
      const id = routeParam(event, 'drawId');
      return download(renderDrawClause(service.ctx, id), 'text/plain; charset=utf-8', `draw-${id}-clausula.txt`);
    }),
  );
}

/** The record's links, once the draw has run (a draft until it is published, as the record itself says). */
export function reportLinks(draw: Draw): Html {
  return html`<h2>Apuração record</h2>
    <p>
      The record (ata) in Portuguese, to be signed by the person responsible and two witnesses: the extraction, the formation and every
      step, the winners with masked documents, the disqualifications.
      ${isPublished(draw.status) ? null : 'Until the draw is published it is marked as a draft.'}
    </p>
    ${
      draw.record_sha256 === null
        ? null
        : html`<p>
            The record as published, stored and never rewritten; SHA-256 of its Markdown (<code>record_sha256</code>):
            <code class="mono" id="record-sha256">${draw.record_sha256}</code>
          </p>`
    }
    <ul>
      <li>
        <a href="${drawPath(draw.id, '/print')}">Print the record</a>
        <span class="muted">(a page of its own; print it from the browser)</span>
      </li>
      <li><a href="${drawPath(draw.id, '/report.md')}" download>Download the record (Markdown)</a></li>
      <li><a href="${drawPath(draw.id, '/report.html')}" download>Download the record (HTML)</a></li>
    </ul>`;
}

/** The regulation clause for this draw's rules, with its worked example, as the plan would carry it. */
export function clauseSection(ctx: Ctx, draw: Draw): Html {
  return html`<h2>Regulation clause</h2>
    <details>
      <summary>The clause for these rules, in Portuguese, with a worked example</summary>
      <pre class="clause">${renderDrawClause(ctx, draw.id)}</pre>
    </details>
    <p><a href="${drawPath(draw.id, '/clause.txt')}" download>Download the clause (text)</a></p>`;
}
