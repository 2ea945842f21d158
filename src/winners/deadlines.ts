// A winner's deadlines (docs/operations.md#winners-ces-winners), dates in Brasília time counted from
// the day of the apuração: notify by the plan's deadline (the campaign's notify_within, in calendar
// or business days), deliver within the campaign's deliver_within days (30 at most), and the prize
// prescribes once 180 days have passed without its delivery (Lei 5.768/1971 art. 6): prescribes_at
// is the last of those days. The prescribed prize's value is due to the Tesouro Nacional within 10
// days (the same article), and the prestação de contas within 30 days of the last prescription.
import type { Campaign } from '../campaigns/campaigns.ts';
import { addBusinessDays, addDays, brasiliaDate } from '../tools/brazil-calendar.ts';

/** Lei 5.768/1971 art. 6: a prize not claimed in 180 days prescribes. */
const PRESCRIPTION_DAYS = 180;
/** Lei 5.768/1971 art. 6: the prescribed prize's value is paid to the Tesouro Nacional within 10 days. */
const TREASURY_DAYS = 10;
/** The prestação de contas is filed within 30 days of the prizes' prescription date. */
const FILING_DAYS = 30;

interface Deadlines {
  notify_by: string;
  deliver_by: string;
  prescribes_at: string;
}

export function deadlinesOf(campaign: Pick<Campaign, 'notify_within' | 'notify_days' | 'deliver_within'>, awardedAt: string): Deadlines {
  const day = brasiliaDate(Date.parse(awardedAt));
  return {
    notify_by: campaign.notify_days === 'business' ? addBusinessDays(day, campaign.notify_within) : addDays(day, campaign.notify_within),
    deliver_by: addDays(day, campaign.deliver_within),
    prescribes_at: addDays(day, PRESCRIPTION_DAYS),
  };
}

/** The last day to pay a prescribed prize's value to the Tesouro Nacional. */
export function treasuryDueBy(prescribesAt: string): string {
  return addDays(prescribesAt, TREASURY_DAYS);
}

/** The last day to file the prestação de contas: 30 days after the last prescription date (null: no winner). */
export function filingDueBy(prescriptionDates: readonly string[]): string | null {
  if (prescriptionDates.length === 0) return null;
  return addDays(
    prescriptionDates.reduce((a, b) => (a > b ? a : b)),
    FILING_DAYS,
  );
}
