// What pages and commands read of draws: a campaign's draws, one draw with its winners current
// and disqualified, and what may be shown of who won (masked documents and names).
import { getCampaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { maskDocument, maskName } from '../tools/masking.ts';
import { findEntryParticipant, listDrawRows, listResultsRecords, listWinnerRows, type DrawRow } from './draws.repo.ts';
import { findDraw, rowToDraw, rowToWinner, storedFormation, type Draw, type DrawDetail } from './model.ts';

export function listDraws(ctx: Ctx, campaignId: string): Draw[] {
  getCampaign(ctx, campaignId);
  return listDrawRows(ctx.db, campaignId).map(rowToDraw);
}

export function getDraw(ctx: Ctx, id: string): DrawDetail {
  return drawDetailOf(ctx, findDraw(ctx, id));
}

export function drawDetailOf(ctx: Ctx, row: DrawRow): DrawDetail {
  const rows = listWinnerRows(ctx.db, row.id);
  const stored = storedFormation(row);
  const filled = new Set(rows.filter((r) => r.disqualified_at === null).map((r) => r.position));
  return {
    ...rowToDraw(row),
    winners: rows
      .filter((r) => r.disqualified_at === null)
      .map((r) => rowToWinner(r, row.series_count))
      .sort((a, b) => a.position - b.position),
    disqualified: rows
      .filter((r) => r.disqualified_at !== null)
      .map((r) => ({ ...rowToWinner(r, row.series_count), disqualified_at: r.disqualified_at!, reason: r.disqualified_reason! })),
    unfilled_positions: stored === null ? [] : Array.from({ length: row.winners_count }, (_, i) => i + 1).filter((p) => !filled.has(p)),
    results_history: listResultsRecords(ctx.db, row.id).map((r) => ({
      number: r.extraction_number,
      date: r.held_on,
      prizes: JSON.parse(r.prizes) as string[],
      source: r.source,
      reason: r.reason,
      recorded_by: r.recorded_by,
      recorded_at: r.recorded_at,
    })),
  };
}

/** A winner's participant as a page or the record may show it: masked, or null once anonymised. */
export function maskedWinner(ctx: Ctx, entryId: string): { document: string; name: string | null } | null {
  const p = findEntryParticipant(ctx.db, entryId);
  if (p === undefined || p.anonymized_at !== null) return null;
  return { document: maskDocument(p.document_type, p.document_number), name: maskName(p.full_name) };
}

/**
 * The masked document of every winner's participant, current and disqualified, by entry id
 * ("anonymized" once the participant was): what a page may show of who won.
 */
export function listWinnerDocuments(ctx: Ctx, id: string): Map<string, string> {
  findDraw(ctx, id);
  const out = new Map<string, string>();
  for (const row of listWinnerRows(ctx.db, id)) out.set(row.entry_id, maskedWinner(ctx, row.entry_id)?.document ?? 'anonymized');
  return out;
}
