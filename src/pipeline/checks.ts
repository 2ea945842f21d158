// Fiscal validation and fraud checks of processing that need no network: the access key's issue
// month, the purchase period, duplicate receipts, participant limits and the test-mode triggers.
// Each failure is a rejection reason {code, message}; all that apply are reported together.
//
// Calendar questions (which month a key was issued "now", which day an entry was sent) are
// answered in America/Sao_Paulo time, fixed at UTC-3: Brazil has had no daylight saving time
// since 2019, and fiscal documents carry Brasília time.
import { purchasePeriod, type Campaign } from '../campaigns/campaigns.ts';
import type { Db } from '../db/open.ts';
import type { EntryRow } from '../entries/entries.repo.ts';
import { accessKeyIssueMonth, accessKeyTestTrigger } from '../entries/fiscal-key.ts';
import type { RejectionReason } from '../entries/rejection-reasons.ts';
import { countEarlierEntriesOfEnrollment, findEarlierEntryWithAccessKey } from './processing.repo.ts';
import { SAO_PAULO_OFFSET_MS, saoPauloDay, saoPauloMonthIndex } from '../input/timestamps.ts';

export type { RejectionReason };

/** Test-mode cNF values (the 8 digits before the check digit) that force a rejection. Ignored in live mode. */
const TEST_TRIGGERS: Readonly<Record<string, RejectionReason>> = {
  '99999901': {
    code: 'test_fiscal_rejected',
    message: 'Test mode: the access key uses the trigger cNF 99999901, which simulates a fiscal validation failure.',
  },
  '99999902': {
    code: 'test_fraud_suspected',
    message: 'Test mode: the access key uses the trigger cNF 99999902, which simulates a fraud check failure.',
  },
};

const monthName = (index: number): string => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

export function checkIssueMonth(campaign: Campaign, accessKey: string, nowMs: number): RejectionReason[] {
  // Keys of 45 to 50 digits have no layout to read a month from (fiscal-key.ts); nothing to judge.
  if (!/^[0-9]{44}$/.test(accessKey)) return [];
  const issue = accessKeyIssueMonth(accessKey);
  if (!issue) {
    return [{ code: 'access_key_invalid_month', message: `The access key's issue month ${accessKey.slice(4, 6)} is not a month (01-12).` }];
  }
  const issued = issue.year * 12 + (issue.month - 1);
  const reasons: RejectionReason[] = [];
  if (issued > saoPauloMonthIndex(nowMs)) {
    reasons.push({
      code: 'access_key_issued_in_future',
      message: `The access key was issued in ${monthName(issued)}, a month that has not started yet.`,
    });
  }
  const period = purchasePeriod(campaign);
  // The period's end is exclusive, like the registration window's: a purchase_to of midnight on
  // 1 December ends the period with November.
  const from = period.from ? saoPauloMonthIndex(Date.parse(period.from)) : null;
  const to = period.to ? saoPauloMonthIndex(Date.parse(period.to) - 1) : null;
  if ((from !== null && issued < from) || (to !== null && issued > to)) {
    reasons.push({
      code: 'purchase_outside_period',
      message: `The access key was issued in ${monthName(issued)}, outside the campaign's purchase period (${from === null ? 'open' : monthName(from)} to ${to === null ? 'open' : monthName(to)}).`,
    });
  }
  return reasons;
}

function checkDuplicateReceipt(db: Db, entry: EntryRow): RejectionReason[] {
  const first = findEarlierEntryWithAccessKey(db, entry);
  return first ? [{ code: 'duplicate_receipt', message: `This access key was already used by entry ${first}.` }] : [];
}

function checkParticipantLimits(db: Db, campaign: Campaign, entry: EntryRow): RejectionReason[] {
  const reasons: RejectionReason[] = [];
  const max = campaign.max_entries_per_participant;
  if (max !== null && countEarlierEntriesOfEnrollment(db, entry) >= max) {
    reasons.push({
      code: 'participant_limit_reached',
      message: `The participant already has ${max} entries in this campaign, the maximum.`,
    });
  }
  const perDay = campaign.max_entries_per_day;
  if (perDay !== null) {
    const day = saoPauloDay(Date.parse(entry.created_at));
    const from = new Date(day.start).toISOString();
    const to = new Date(day.end).toISOString();
    if (countEarlierEntriesOfEnrollment(db, entry, from, to) >= perDay) {
      const date = new Date(day.start + SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10);
      reasons.push({
        code: 'daily_limit_reached',
        message: `The participant already has ${perDay} entries on ${date} (São Paulo time), the daily maximum.`,
      });
    }
  }
  return reasons;
}

function checkTestTrigger(entry: EntryRow): RejectionReason[] {
  if (entry.livemode === 1) return [];
  const reason = TEST_TRIGGERS[accessKeyTestTrigger(entry.access_key)];
  return reason ? [reason] : [];
}

/** Every local reason to reject the entry; [] when it may go on (to the verifier, or approval). */
export function runLocalChecks(db: Db, campaign: Campaign, entry: EntryRow, nowMs: number): RejectionReason[] {
  return [
    ...checkIssueMonth(campaign, entry.access_key, nowMs),
    ...checkDuplicateReceipt(db, entry),
    ...checkParticipantLimits(db, campaign, entry),
    ...checkTestTrigger(entry),
  ];
}
