// The entry as GET /v1/entries/{id} and `ces entries show` present it (docs/api.md#api-overview):
// its status with the outcome of its mechanics, its award and its lucky numbers. It reads what
// mechanics/ stores, so it sits here, above entries/.
import type { Ctx } from '../kernel/context.ts';
import type { EnrollmentRow } from '../entries/enrollments.repo.ts';
import { findEntryById, findScopedEntry, type EntryRow } from '../entries/entries.repo.ts';
import { notFound } from '../kernel/errors.ts';
import type { Caller } from '../keys/keys.ts';
import { findLatestAwardForEntry, type AwardRow } from './awards.repo.ts';
import { listLuckyNumbersForEntryByPair } from './lucky-numbers.repo.ts';
import { formatPair } from './lucky-pairs.ts';

export interface AwardView {
  entry_id: string;
  won: boolean;
  prize_definition_id: string | null;
  status: AwardRow['status'];
}

interface EntryView {
  entry_id: string;
  enrollment_id: string;
  livemode: boolean;
  status: EntryRow['status'];
  rejection_reasons: Array<{ code: string; message: string }>;
  mechanics: Array<{ mechanic_type: string; status: string; outcome: Record<string, unknown> }> | null;
  award: AwardView | null;
  lucky_numbers: Array<{ series: string; order_number: string }>;
  created_at: string;
  processed_at: string | null;
  evaluated_at: string | null;
}

/** A stored enrollment as operators see it (CLI, LGPD export): livemode as a boolean, not 0/1. */
export function enrollmentToView(row: EnrollmentRow): Omit<EnrollmentRow, 'livemode'> & { livemode: boolean } {
  return { ...row, livemode: row.livemode === 1 };
}

export function awardToView(award: AwardRow): AwardView {
  return { entry_id: award.entry_id, won: true, prize_definition_id: award.prize_id, status: award.status };
}

export function entryToView(ctx: Ctx, row: EntryRow): EntryView {
  const award = findLatestAwardForEntry(ctx.db, row.id);
  return {
    entry_id: row.id,
    enrollment_id: row.enrollment_id,
    livemode: row.livemode === 1,
    status: row.status,
    rejection_reasons: JSON.parse(row.rejection_reasons),
    mechanics: row.mechanics === null ? null : JSON.parse(row.mechanics),
    award: award ? awardToView(award) : null,
    lucky_numbers: listLuckyNumbersOfEntry(ctx, row.id),
    created_at: row.created_at,
    processed_at: row.processed_at,
    evaluated_at: row.evaluated_at,
  };
}

/** An entry's lucky numbers as the API shows them (`series`, `order_number` as zero-padded strings), in pair order. */
export function listLuckyNumbersOfEntry(ctx: Ctx, entryId: string): Array<{ series: string; order_number: string }> {
  return listLuckyNumbersForEntryByPair(ctx.db, entryId).map((r) => formatPair(r.series, r.order_number));
}

/** The caller's entry, or 404 for an unknown id and for one of another campaign or mode. */
export function getScopedEntry(ctx: Ctx, caller: Caller, entryId: string): EntryRow {
  const row = findScopedEntry(ctx.db, entryId, caller.campaignId, caller.livemode ? 1 : 0);
  if (!row) throw notFound('Entry');
  return row;
}

export function getEntry(ctx: Ctx, entryId: string): EntryRow {
  const row = findEntryById(ctx.db, entryId);
  if (!row) throw notFound('Entry');
  return row;
}
