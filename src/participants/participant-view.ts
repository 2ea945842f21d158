// An operator's view of a participant's unmasked personal data (the dashboard's "Show personal
// data"): recorded as participant.viewed in the transaction that reads it, so every such view
// of an entry's participant is in the audit log under the operator's name. The record names the
// entry and the enrollment, never the data seen.
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Ctx } from '../kernel/context.ts';
import { notFound } from '../kernel/errors.ts';
import { findEnrollmentById, type EnrollmentRow } from '../entries/enrollments.repo.ts';
import { findEntryById } from '../entries/entries.repo.ts';

export function viewParticipantOfEntry(ctx: Ctx, entryId: string, actor: Actor): EnrollmentRow {
  return ctx.db
    .transaction(() => {
      const entry = findEntryById(ctx.db, entryId);
      if (!entry) throw notFound('Entry');
      const enrollment = findEnrollmentById(ctx.db, entry.enrollment_id)!;
      recordAudit(ctx, {
        actor,
        action: 'participant.viewed',
        campaignId: entry.campaign_id,
        details: { entry_id: entry.id, enrollment_id: enrollment.id, mode: entry.livemode === 1 ? 'live' : 'test' },
      });
      return enrollment;
    })
    .immediate();
}
