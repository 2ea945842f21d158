// A winner as stored and as shown: one prize won, a draw position or an instant prize, with its
// deadlines and its story. The view masks the participant (name and document) as every listing of
// winners does: `ces winners list`, the dashboard's Winners page and the winner.updated webhook.
import { maskDocument, maskName } from '../tools/masking.ts';
import type { WinnerEventKind, WinnerStatus } from './status.ts';

export interface WinnerRow {
  id: string;
  campaign_id: string;
  livemode: number;
  source: 'draw' | 'instant';
  draw_id: string | null;
  position: number | null;
  draw_winner_id: number | null;
  award_id: string | null;
  entry_id: string;
  enrollment_id: string;
  prize_description: string | null;
  prize_value_cents: number | null;
  status: WinnerStatus;
  awarded_at: string;
  notify_by: string;
  deliver_by: string;
  prescribes_at: string;
  created_at: string;
  updated_at: string;
}

export interface WinnerEventRow {
  id: number;
  winner_id: string;
  event: WinnerEventKind;
  note: string | null;
  from_status: WinnerStatus | null;
  to_status: WinnerStatus;
  actor: string;
  at: string;
}

export interface AttachmentMeta {
  id: number;
  event_id: number;
  filename: string;
  media_type: string;
  size: number;
  sha256: string;
}

/** The participant's fields a winner shows (masked in the view). */
export interface WinnerParticipant {
  full_name: string | null;
  document_type: string;
  document_number: string;
  city: string | null;
  state: string | null;
  anonymized_at: string | null;
}

export interface WinnerView {
  id: string;
  campaign_id: string;
  livemode: boolean;
  source: 'draw' | 'instant';
  draw_id: string | null;
  position: number | null;
  entry_id: string;
  participant: { name: string | null; document: string; city: string | null; state: string | null };
  prize: { description: string | null; value: string | null };
  status: WinnerStatus;
  awarded_at: string;
  deadlines: { notify_by: string; deliver_by: string; prescribes_at: string };
  /** The deadlines passed with their step not done, as of today in Brasília. */
  overdue: Array<'notify_by' | 'deliver_by'>;
  events: Array<{
    event: WinnerEventKind;
    note: string | null;
    from_status: WinnerStatus | null;
    to_status: WinnerStatus;
    actor: string;
    at: string;
    attachments: Array<{ id: number; filename: string; media_type: string; size: number; sha256: string }>;
  }>;
}

/** Reais from cents with a dot and two decimals ("15990.00"), as draws write prize values. */
export function reais(cents: number | null): string | null {
  return cents === null ? null : `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Cents from reais as draws write them ("15990.00", "15990.5", "15990"). */
export function centsOfReais(value: string): number {
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Which deadlines are overdue on `today` (YYYY-MM-DD, Brasília): passed with their step not done. */
function overdueDeadlines(row: Pick<WinnerRow, 'status' | 'notify_by' | 'deliver_by'>, today: string): WinnerView['overdue'] {
  const overdue: WinnerView['overdue'] = [];
  if (row.status === 'awarded' && today > row.notify_by) overdue.push('notify_by');
  if ((row.status === 'awarded' || row.status === 'notified') && today > row.deliver_by) overdue.push('deliver_by');
  return overdue;
}

export function toWinnerView(
  row: WinnerRow,
  participant: WinnerParticipant | undefined,
  events: WinnerEventRow[],
  attachments: AttachmentMeta[],
  today: string,
): WinnerView {
  const anonymized = participant === undefined || participant.anonymized_at !== null;
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    livemode: row.livemode === 1,
    source: row.source,
    draw_id: row.draw_id,
    position: row.position,
    entry_id: row.entry_id,
    participant: anonymized
      ? { name: null, document: '***', city: null, state: null }
      : {
          name: maskName(participant.full_name),
          document: maskDocument(participant.document_type, participant.document_number),
          city: participant.city,
          state: participant.state,
        },
    prize: { description: row.prize_description, value: reais(row.prize_value_cents) },
    status: row.status,
    awarded_at: row.awarded_at,
    deadlines: { notify_by: row.notify_by, deliver_by: row.deliver_by, prescribes_at: row.prescribes_at },
    overdue: overdueDeadlines(row, today),
    events: events.map((e) => ({
      event: e.event,
      note: e.note,
      from_status: e.from_status,
      to_status: e.to_status,
      actor: e.actor,
      at: e.at,
      attachments: attachments
        .filter((a) => a.event_id === e.id)
        .map((a) => ({ id: a.id, filename: a.filename, media_type: a.media_type, size: a.size, sha256: a.sha256 })),
    })),
  };
}
