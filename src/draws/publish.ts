// The publication of a draw (docs/operations.md#the-steps): final, checked against the draw's
// status (status.ts), and in one transaction the record is stored (report.ts), the draw marked
// published, draw.published queued for the campaign's webhook and the step audited. A file of its
// own: the record is written from the run's outcome (run.ts), which freezes through lifecycle.ts.
import { actorName, type Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import { centsOfReais } from '../winners/model.ts';
import { openDrawWinners } from '../winners/winners.ts';
import { listWinnerRows, saveDrawRecord, savePublished, type DrawRow } from './draws.repo.ts';
import { findDraw, rowToDraw, type Draw } from './model.ts';
import { publishedRecord } from './report.ts';
import { assertTransition } from './status.ts';
import { getDraw } from './views.ts';

/**
 * Publishes the draw: final. Stores its record (Markdown and HTML, record_sha256 the Markdown's
 * SHA-256) in the same transaction, so a published draw always has the record it was published
 * with, and sends draw.published to the campaign's webhook. `reproduce` is the command the record
 * names to write the canonical list again (ReportModel), in the words of the edge that publishes.
 */
export function publishDraw(ctx: Ctx, id: string, actor: Actor, reproduce: string): Draw {
  return ctx.db
    .transaction(() => {
      const row = findDraw(ctx, id);
      assertTransition(row.status, 'published');
      const at = nowIso(ctx.clock);
      savePublished(ctx.db, id, at);
      openWinnersOfDraw(ctx, row);
      const record = publishedRecord(ctx, id, reproduce, actorName(actor));
      saveDrawRecord(ctx.db, id, record.md, record.html, record.sha256, at);
      const detail = getDraw(ctx, id);
      enqueueEvent(ctx, {
        campaignId: row.campaign_id,
        livemode: row.livemode === 1,
        entryId: null,
        eventType: 'draw.published',
        data: {
          draw_id: id,
          name: row.name,
          extraction: { number: detail.extraction!.number, date: detail.extraction!.date, prizes: detail.extraction!.prizes },
          winners: detail.winners.map((w) => ({ position: w.position, series: w.series, element: w.element, entry_id: w.entry_id })),
          record_sha256: record.sha256,
        },
      });
      recordAudit(ctx, {
        actor,
        action: 'draw.published',
        campaignId: row.campaign_id,
        details: { draw_id: id, winners: detail.winners.length, record_sha256: record.sha256 },
      });
      return rowToDraw(findDraw(ctx, id));
    })
    .immediate();
}

/**
 * Opens the winners of the draw being published (src/winners/winners.ts): every position with its
 * prize, a number disqualified before the publication as disqualified, with its reason. Their
 * deadlines run from the apuração, the run.
 */
function openWinnersOfDraw(ctx: Ctx, row: DrawRow): void {
  const prizes = rowToDraw(row).prizes;
  openDrawWinners(
    ctx,
    { id: row.id, campaign_id: row.campaign_id, livemode: row.livemode, drawn_at: row.drawn_at! },
    listWinnerRows(ctx.db, row.id).map((w) => {
      const prize = prizes?.find((p) => p.position === w.position);
      return {
        drawWinnerId: w.id,
        position: w.position,
        entryId: w.entry_id,
        prize: { description: prize?.description ?? null, valueCents: prize ? centsOfReais(prize.value) : null },
        disqualified: w.disqualified_at === null ? null : { at: w.disqualified_at, reason: w.disqualified_reason, actor: 'system' },
      };
    }),
  );
}
