// The operator's steps on a winner (docs/operations.md#winners-ces-winners): notified, a failed
// contact, documents received, delivered, declined, each with a note and any files, in one
// transaction with its audit record (winner.recorded) and winner.updated. A campaign closed, or
// a winner whose story is over (status.ts), takes no step; a prize past its prescription date is
// prescribed first, and then takes none either.
import { actorName, type Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { assertCampaignOpen, getCampaign } from '../campaigns/campaigns.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, notFound } from '../kernel/errors.ts';
import { MAX_NOTE_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import { checkAttachments, type IncomingFile } from './attachments.ts';
import type { WinnerView } from './model.ts';
import { RECORDABLE_EVENTS, statusAfter, type RecordableEvent } from './status.ts';
import { findAttachment, findWinner, insertAttachment } from './winners.repo.ts';
import { moveWinner, prescribeDue, sendWinnerUpdated, winnerView } from './winners.ts';

interface WinnerStep {
  event: string;
  note: string;
  attachments?: readonly IncomingFile[];
}

function checkEvent(value: string): RecordableEvent {
  const event = RECORDABLE_EVENTS.find((e) => e === value);
  if (event !== undefined) return event;
  const message = `${fieldName('event')} must be one of ${RECORDABLE_EVENTS.join(', ')}, got "${value}"`;
  throw new AppError(422, 'invalid_option', message, [{ field: 'event', code: 'invalid_option', message }]);
}

function checkNote(value: string): string {
  const note = value.trim();
  const problem = note === '' ? null : operatorTextProblem(fieldName('note'), note, MAX_NOTE_LENGTH);
  if (note === '') {
    const message = `${fieldName('note')} says what was done (how the winner was reached, what was handed over)`;
    throw new AppError(422, 'invalid_option', message, [{ field: 'note', code: 'required', message }]);
  }
  if (problem) throw new AppError(422, 'invalid_option', problem.message, [{ field: 'note', ...problem }]);
  return note;
}

/** Records one step on a winner; the winner as it is now. */
export function recordWinnerStep(ctx: Ctx, winnerId: string, step: WinnerStep, actor: Actor): WinnerView {
  const event = checkEvent(step.event);
  const note = checkNote(step.note);
  const files = checkAttachments(step.attachments ?? []);
  const existing = findWinner(ctx.db, winnerId);
  if (!existing) throw notFound('Winner');
  prescribeDue(ctx, existing.campaign_id);
  return ctx.db
    .transaction(() => {
      const row = findWinner(ctx.db, winnerId)!;
      assertCampaignOpen(getCampaign(ctx, row.campaign_id));
      const to = statusAfter(row.status, event);
      const at = nowIso(ctx.clock);
      const eventId = moveWinner(ctx, row, event, to, note, actorName(actor), at);
      for (const f of files)
        insertAttachment(ctx.db, {
          event_id: eventId,
          winner_id: row.id,
          filename: f.filename,
          media_type: f.mediaType,
          size: f.size,
          sha256: f.sha256,
          data: f.data,
          created_at: at,
        });
      recordAudit(ctx, {
        actor,
        action: 'winner.recorded',
        campaignId: row.campaign_id,
        details: {
          winner_id: row.id,
          mode: row.livemode === 1 ? 'live' : 'test',
          event,
          from_status: row.status,
          to_status: to,
          // The files by their digest: a name may be personal (termo-maria-silva.pdf), the note is the operator's text about a person.
          attachments: files.map((f) => ({ media_type: f.mediaType, size: f.size, sha256: f.sha256 })),
        },
      });
      sendWinnerUpdated(ctx, row.id);
      return winnerView(ctx, findWinner(ctx.db, row.id)!);
    })
    .immediate();
}

/** One attachment's bytes, for a download (the CLI's --out, the dashboard's link); audited: it is a person's document. */
export function readAttachment(
  ctx: Ctx,
  id: number,
  actor: Actor,
): { filename: string; media_type: string; size: number; sha256: string; data: Buffer } {
  return ctx.db
    .transaction(() => {
      const found = findAttachment(ctx.db, id);
      if (!found) throw notFound('Attachment');
      if (found.data.length === 0)
        throw new AppError(
          410,
          'attachment_erased',
          "This file was erased with its participant's data (LGPD); its SHA-256 stays in the records.",
        );
      const winner = findWinner(ctx.db, found.winner_id)!;
      recordAudit(ctx, {
        actor,
        action: 'winner.attachment_viewed',
        campaignId: winner.campaign_id,
        details: { winner_id: winner.id, attachment_id: id, sha256: found.sha256 },
      });
      return { filename: found.filename, media_type: found.media_type, size: found.size, sha256: found.sha256, data: found.data };
    })
    .immediate();
}
