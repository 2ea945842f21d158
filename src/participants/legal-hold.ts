// The promotion's legal hold on anonymisation (docs/operations.md, LGPD): a participant who holds
// lucky numbers or a prize in a campaign that is not closed keeps their data until the promotion's
// prestação de contas, a legal obligation that LGPD art. 16, I allows keeping data for. The
// request is not lost: it is recorded (held_anonymizations, who asked and when, and the audit
// log), for the campaign's closing to carry out (carryOutHeldAnonymizations).
import { findCampaignById } from '../campaigns/campaigns.repo.ts';
import type { Db } from '../db/open.ts';
import { countHoldingsOfEnrollment, type Holdings } from './participants.repo.ts';

/** Whether the campaign has been closed (its prestação de contas made). */
function campaignIsClosed(db: Db, campaignId: string): boolean {
  return findCampaignById(db, campaignId)?.closed_at != null;
}

/**
 * The hold on a participant's anonymisation, or null when nothing holds it: lucky numbers of any
 * of their entries, or a prize won (an instant prize pending or awarded, a draw position not
 * disqualified), in a campaign that is not closed. What the campaign's closing asks again of each
 * held request before carrying it out.
 */
export function legalHoldOf(db: Db, enrollment: { id: string; campaign_id: string }): Holdings | null {
  if (campaignIsClosed(db, enrollment.campaign_id)) return null;
  const holdings = countHoldingsOfEnrollment(db, enrollment.id);
  return holdings.lucky_numbers > 0 || holdings.prizes > 0 ? holdings : null;
}
