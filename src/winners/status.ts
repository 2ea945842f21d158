// A winner's state machine (docs/operations.md#winners-ces-winners): awarded → notified → delivered,
// or declined, disqualified, prescribed. The steps an operator records (RECORDABLE_EVENTS) and
// what each does to the status; the other three come from the rules: a draw's disqualification or
// an instant prize revoked (disqualified), and the 180 days of Lei 5.768/1971 art. 6 (prescribed).
// Delivered, declined, disqualified and prescribed are final: nothing is recorded after them.
import { AppError } from '../kernel/errors.ts';

export const WINNER_STATUSES = ['awarded', 'notified', 'delivered', 'declined', 'disqualified', 'prescribed'] as const;
export type WinnerStatus = (typeof WINNER_STATUSES)[number];

/** The steps an operator records (`ces winners record --event`, the dashboard's Winners page). */
export const RECORDABLE_EVENTS = ['notified', 'contact_failed', 'documents_received', 'delivered', 'declined'] as const;
export type RecordableEvent = (typeof RECORDABLE_EVENTS)[number];

/** Every event a winner's history holds: the operator's steps and the rules'. */
export const WINNER_EVENT_KINDS = ['awarded', ...RECORDABLE_EVENTS, 'disqualified', 'prescribed'] as const;
export type WinnerEventKind = (typeof WINNER_EVENT_KINDS)[number];

/** Whether the winner's prize is still to be delivered: the statuses the deadlines and prescription run on. */
export function isOpen(status: WinnerStatus): boolean {
  return status === 'awarded' || status === 'notified';
}

/**
 * The status after the operator records `event` on a winner in `status`; 409 winner_final when the
 * winner's story is over. A failed contact changes nothing; documents received mean the winner was
 * reached, so an awarded winner counts as notified.
 */
export function statusAfter(status: WinnerStatus, event: RecordableEvent): WinnerStatus {
  if (!isOpen(status)) throw new AppError(409, 'winner_final', `the winner is ${status}: that is final, and no step is recorded after it`);
  switch (event) {
    case 'notified':
    case 'documents_received':
      return 'notified';
    case 'contact_failed':
      return status;
    case 'delivered':
      return 'delivered';
    case 'declined':
      return 'declined';
  }
}
