// Winners (docs/operations.md#winners-ces-winners): one prize won, from the apuração to its delivery.
// A winner is opened by the rules that award the prize, in their own transaction: a draw's
// publication (every position, a disqualified one as disqualified) and an instant prize's
// confirmation; an instant prize revoked or voided afterwards disqualifies its winner. The operator
// records each step after that (record.ts); the 180 days of Lei 5.768/1971 art. 6 prescribe a prize
// not delivered (prescribeDue, run by the server's tick and before every read of the winners).
// Every step recorded and every prescription is sent as winner.updated, the winner as listings
// show it: how the prize was won is told by entry.evaluated and draw.published already, and how it
// was taken back by what took it (disqualifyWinnerOfAward).
import { getCampaign } from '../campaigns/campaigns.ts';
import { findCampaignById } from '../campaigns/campaigns.repo.ts';
import { findEntryById } from '../entries/entries.repo.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { notFound } from '../kernel/errors.ts';
import { toStatusFilter } from '../input/status-filter.ts';
import { brasiliaDate } from '../tools/brazil-calendar.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import { deadlinesOf } from './deadlines.ts';
import { toWinnerView, type WinnerRow, type WinnerView } from './model.ts';
import { WINNER_STATUSES, isOpen, type WinnerEventKind, type WinnerStatus } from './status.ts';
import {
  findWinner,
  findWinnerOfAward,
  findWinnerParticipants,
  hasWinnerOfDrawWinner,
  insertWinner,
  insertWinnerEvent,
  listAttachmentMetaOfWinners,
  listPrescribable,
  listEventsOfWinners,
  listWinnerRows,
  setWinnerStatus,
} from './winners.repo.ts';

/** The actor of the steps the rules take (an opening, a prescription, a revoked prize's disqualification). */
const SYSTEM = 'system';

/** A prize as the rule that awards it knows it: the regulation's words and its value in cents (null: not given). */
interface WonPrize {
  description: string | null;
  valueCents: number | null;
}

function today(ctx: Ctx): string {
  return brasiliaDate(ctx.clock.now());
}

/** The winner as listings and winner.updated show it. */
export function winnerView(ctx: Ctx, row: WinnerRow): WinnerView {
  return winnerViews(ctx, [row])[0]!;
}

/** Winners as listings show them: their participants, events and files read for the whole list at once. */
export function winnerViews(ctx: Ctx, rows: readonly WinnerRow[]): WinnerView[] {
  const ids = rows.map((r) => r.id);
  const people = findWinnerParticipants(
    ctx.db,
    rows.map((r) => r.enrollment_id),
  );
  const events = listEventsOfWinners(ctx.db, ids);
  const attachments = listAttachmentMetaOfWinners(ctx.db, ids);
  const day = today(ctx);
  return rows.map((r) => toWinnerView(r, people.get(r.enrollment_id), events.get(r.id) ?? [], attachments.get(r.id) ?? [], day));
}

/** Queues winner.updated with the winner as it is now; inside the change's transaction. */
export function sendWinnerUpdated(ctx: Ctx, winnerId: string): void {
  const row = findWinner(ctx.db, winnerId)!;
  enqueueEvent(ctx, {
    campaignId: row.campaign_id,
    livemode: row.livemode === 1,
    entryId: row.entry_id,
    eventType: 'winner.updated',
    data: winnerView(ctx, row) as unknown as Record<string, unknown>,
  });
}

/** Moves a winner to `to` with the event that says why; the caller sends winner.updated when it should. */
export function moveWinner(
  ctx: Ctx,
  row: WinnerRow,
  event: WinnerEventKind,
  to: WinnerStatus,
  note: string | null,
  actor: string,
  at: string,
): number {
  if (to !== row.status) setWinnerStatus(ctx.db, row.id, to, at);
  return insertWinnerEvent(ctx.db, { winner_id: row.id, event, note, from_status: row.status, to_status: to, actor, at });
}

interface Opening {
  campaignId: string;
  livemode: number;
  entryId: string;
  prize: WonPrize;
  /** The apuração: when the draw ran, when the instant prize was confirmed. */
  awardedAt: string;
}

function openWinner(
  ctx: Ctx,
  o: Opening,
  source: Pick<WinnerRow, 'source' | 'draw_id' | 'position' | 'draw_winner_id' | 'award_id'>,
): WinnerRow {
  const campaign = findCampaignById(ctx.db, o.campaignId)!;
  const entry = findEntryById(ctx.db, o.entryId)!;
  const at = nowIso(ctx.clock);
  const row: WinnerRow = {
    id: source.award_id ?? ctx.random.uuid(),
    campaign_id: o.campaignId,
    livemode: o.livemode,
    ...source,
    entry_id: o.entryId,
    enrollment_id: entry.enrollment_id,
    prize_description: o.prize.description,
    prize_value_cents: o.prize.valueCents,
    status: 'awarded',
    awarded_at: o.awardedAt,
    ...deadlinesOf(campaign, o.awardedAt),
    created_at: at,
    updated_at: at,
  };
  insertWinner(ctx.db, row);
  insertWinnerEvent(ctx.db, {
    winner_id: row.id,
    event: 'awarded',
    note: null,
    from_status: null,
    to_status: 'awarded',
    actor: SYSTEM,
    at,
  });
  return row;
}

/** A position of a published draw, as the publication hands it over. */
interface DrawPosition {
  drawWinnerId: number;
  position: number;
  entryId: string;
  prize: WonPrize;
  /** The disqualification before the publication, when there was one: the winner opens disqualified. */
  disqualified: { at: string; reason: string | null; actor: string } | null;
}

/**
 * Opens the winners of a draw being published, in the publication's transaction: one per position
 * (and per disqualified number, disqualified with its reason). A position opened already (a
 * database upgraded from before winners were kept, reconciled) is left as it is.
 */
export function openDrawWinners(
  ctx: Ctx,
  draw: { id: string; campaign_id: string; livemode: number; drawn_at: string },
  positions: readonly DrawPosition[],
): void {
  for (const p of positions) {
    if (hasWinnerOfDrawWinner(ctx.db, p.drawWinnerId)) continue;
    const row = openWinner(
      ctx,
      { campaignId: draw.campaign_id, livemode: draw.livemode, entryId: p.entryId, prize: p.prize, awardedAt: draw.drawn_at },
      { source: 'draw', draw_id: draw.id, position: p.position, draw_winner_id: p.drawWinnerId, award_id: null },
    );
    if (p.disqualified)
      moveWinner(ctx, row, 'disqualified', 'disqualified', p.disqualified.reason, p.disqualified.actor, p.disqualified.at);
  }
}

/** An instant prize confirmed (`awarded`), in the transaction that confirms it: its winner opens. */
export function openInstantWinner(
  ctx: Ctx,
  award: { id: string; entry_id: string; campaign_id: string; livemode: number },
  prize: WonPrize,
  awardedAt: string,
): void {
  if (findWinnerOfAward(ctx.db, award.id)) return;
  openWinner(
    ctx,
    { campaignId: award.campaign_id, livemode: award.livemode, entryId: award.entry_id, prize, awardedAt },
    { source: 'instant', draw_id: null, position: null, draw_winner_id: null, award_id: award.id },
  );
}

/**
 * An instant prize revoked or voided: its winner, while the prize is still to be delivered, is
 * disqualified with the reason. A delivered prize's story is over. No winner.updated: what takes
 * the prize back tells it (award.updated for an operator's revoke, entry.completed for a rejected
 * entry), and the API's own revoke and reassign emit no webhook at all.
 */
export function disqualifyWinnerOfAward(ctx: Ctx, awardId: string, reason: string | null, actor: string, at: string): void {
  const row = findWinnerOfAward(ctx.db, awardId);
  if (!row || !isOpen(row.status)) return;
  moveWinner(ctx, row, 'disqualified', 'disqualified', reason, actor, at);
}

/**
 * Prescribes the prizes whose 180 days have passed without delivery (of one campaign, or of all):
 * each becomes `prescribed`, with winner.updated. How many. Looked for first without the write
 * lock: on almost every call there is none.
 */
export function prescribeDue(ctx: Ctx, campaignId: string | null = null): number {
  const day = today(ctx);
  if (listPrescribable(ctx.db, day, campaignId).length === 0) return 0;
  return ctx.db
    .transaction(() => {
      const due = listPrescribable(ctx.db, day, campaignId);
      const at = nowIso(ctx.clock);
      for (const row of due) {
        moveWinner(
          ctx,
          row,
          'prescribed',
          'prescribed',
          `180 dias após a apuração sem entrega (o último foi ${row.prescribes_at})`,
          SYSTEM,
          at,
        );
        sendWinnerUpdated(ctx, row.id);
      }
      return due.length;
    })
    .immediate();
}

interface WinnersOf {
  campaignId: string;
  livemode?: number;
  status?: string;
}

/**
 * The campaign's winners as stored, prescriptions brought up to date first: what the listing
 * (winnerViews) and the taxes (taxesOf) are made of, so that what shows both reads them once.
 */
export function currentWinnerRows(ctx: Ctx, input: WinnersOf): WinnerRow[] {
  getCampaign(ctx, input.campaignId);
  const status = toStatusFilter(input.status, WINNER_STATUSES);
  prescribeDue(ctx, input.campaignId);
  return listWinnerRows(ctx.db, { campaignId: input.campaignId, livemode: input.livemode, status });
}

/** `ces winners list`: the campaign's winners, prescriptions brought up to date first. */
export function listWinners(ctx: Ctx, input: WinnersOf): WinnerView[] {
  return winnerViews(ctx, currentWinnerRows(ctx, input));
}

export function getWinner(ctx: Ctx, id: string): WinnerView {
  const row = findWinner(ctx.db, id);
  if (!row) throw notFound('Winner');
  prescribeDue(ctx, row.campaign_id);
  return winnerView(ctx, findWinner(ctx.db, id)!);
}
