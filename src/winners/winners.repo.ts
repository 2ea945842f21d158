// SQL of winners, their events and their attachments.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';
import type { AttachmentMeta, WinnerEventRow, WinnerParticipant, WinnerRow } from './model.ts';
import type { WinnerStatus } from './status.ts';

const COLUMNS = `id, campaign_id, livemode, source, draw_id, position, draw_winner_id, award_id, entry_id, enrollment_id,
  prize_description, prize_value_cents, status, awarded_at, notify_by, deliver_by, prescribes_at, created_at, updated_at`;

export function insertWinner(db: Db, row: WinnerRow): void {
  prepare(
    db,
    `INSERT INTO winners (${COLUMNS}) VALUES (@id, @campaign_id, @livemode, @source, @draw_id, @position, @draw_winner_id,
    @award_id, @entry_id, @enrollment_id, @prize_description, @prize_value_cents, @status, @awarded_at, @notify_by,
    @deliver_by, @prescribes_at, @created_at, @updated_at)`,
  ).run(row);
}

export function findWinner(db: Db, id: string): WinnerRow | undefined {
  return prepare<[string], WinnerRow>(db, `SELECT ${COLUMNS} FROM winners WHERE id = ?`).get(id);
}

export function findWinnerOfAward(db: Db, awardId: string): WinnerRow | undefined {
  return prepare<[string], WinnerRow>(db, `SELECT ${COLUMNS} FROM winners WHERE award_id = ?`).get(awardId);
}

export function hasWinnerOfDrawWinner(db: Db, drawWinnerId: number): boolean {
  return prepare<[number], { one: number }>(db, `SELECT 1 AS one FROM winners WHERE draw_winner_id = ?`).get(drawWinnerId) !== undefined;
}

export function listWinnerRows(db: Db, f: { campaignId: string; livemode?: number; status?: WinnerStatus }): WinnerRow[] {
  return prepare<[string, number | null, number | null, string | null, string | null], WinnerRow>(
    db,
    `SELECT ${COLUMNS} FROM winners
    WHERE campaign_id = ? AND (? IS NULL OR livemode = ?) AND (? IS NULL OR status = ?)
    ORDER BY awarded_at, source, position, rowid`,
  ).all(f.campaignId, f.livemode ?? null, f.livemode ?? null, f.status ?? null, f.status ?? null);
}

export function setWinnerStatus(db: Db, id: string, status: WinnerStatus, at: string): void {
  prepare(db, `UPDATE winners SET status = ?, updated_at = ? WHERE id = ?`).run(status, at, id);
}

/** Open winners (awarded or notified) whose prescription date is before `today`, of one campaign or of all. */
export function listPrescribable(db: Db, today: string, campaignId: string | null): WinnerRow[] {
  return prepare<[string, string | null, string | null], WinnerRow>(
    db,
    `SELECT ${COLUMNS} FROM winners
    WHERE prescribes_at < ? AND status IN ('awarded', 'notified') AND (? IS NULL OR campaign_id = ?)
    ORDER BY prescribes_at, id`,
  ).all(today, campaignId, campaignId);
}

export function insertWinnerEvent(db: Db, e: Omit<WinnerEventRow, 'id'>): number {
  return Number(
    prepare(
      db,
      `INSERT INTO winner_events (winner_id, event, note, from_status, to_status, actor, at)
      VALUES (@winner_id, @event, @note, @from_status, @to_status, @actor, @at)`,
    ).run(e).lastInsertRowid,
  );
}

/** The events of the winners `winnerIds`, each winner's in the order they were recorded. */
export function listEventsOfWinners(db: Db, winnerIds: readonly string[]): Map<string, WinnerEventRow[]> {
  return byWinner(
    prepare<[string], WinnerEventRow>(
      db,
      `SELECT id, winner_id, event, note, from_status, to_status, actor, at FROM winner_events
      WHERE winner_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    ).all(JSON.stringify(winnerIds)),
  );
}

export function insertAttachment(
  db: Db,
  a: {
    event_id: number;
    winner_id: string;
    filename: string;
    media_type: string;
    size: number;
    sha256: string;
    data: Buffer;
    created_at: string;
  },
): number {
  return Number(
    prepare(
      db,
      `INSERT INTO winner_attachments (event_id, winner_id, filename, media_type, size, sha256, data, created_at)
      VALUES (@event_id, @winner_id, @filename, @media_type, @size, @sha256, @data, @created_at)`,
    ).run(a).lastInsertRowid,
  );
}

/** What is known of the files of the winners `winnerIds` but their bytes, each winner's in the order they were stored. */
export function listAttachmentMetaOfWinners(db: Db, winnerIds: readonly string[]): Map<string, AttachmentMeta[]> {
  return byWinner(
    prepare<[string], AttachmentMeta & { winner_id: string }>(
      db,
      `SELECT id, event_id, winner_id, filename, media_type, size, sha256 FROM winner_attachments
      WHERE winner_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    ).all(JSON.stringify(winnerIds)),
  );
}

export function findAttachment(db: Db, id: number): (AttachmentMeta & { winner_id: string; data: Buffer }) | undefined {
  return prepare<[number], AttachmentMeta & { winner_id: string; data: Buffer }>(
    db,
    `SELECT id, event_id, winner_id, filename, media_type, size, sha256, data FROM winner_attachments WHERE id = ?`,
  ).get(id);
}

/** The participants of `enrollmentIds`, by enrollment id. */
export function findWinnerParticipants(db: Db, enrollmentIds: readonly string[]): Map<string, WinnerParticipant> {
  const rows = prepare<[string], WinnerParticipant & { id: string }>(
    db,
    `SELECT id, full_name, document_type, document_number, city, state, anonymized_at FROM enrollments
    WHERE id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(enrollmentIds));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Rows grouped by their winner, each group in the rows' order. The lists above take a whole
 * listing's winners at once (their ids as one JSON array, json_each), so that a listing runs the
 * same statements for one winner as for thousands.
 */
function byWinner<T extends { winner_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.winner_id);
    if (group) group.push(row);
    else groups.set(row.winner_id, [row]);
  }
  return groups;
}
