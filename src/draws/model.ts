// A draw as the CLI's JSON, the dashboard and the record show it: its settings, its state and
// its winners, read from the rows of draws.repo.ts by one converter each. The status and its rules
// are status.ts.
import { notFound } from '../kernel/errors.ts';
import type { Ctx } from '../kernel/context.ts';
import { findDrawRow, type DrawRow, type DrawWinnerRow } from './draws.repo.ts';
import type { DigitStep, Formed } from './formation.ts';
import { formatNumber } from './number-set.ts';
import type { DrawStatus } from './status.ts';
import type { DrawPrize } from './draw-input.ts';
import type { Approximation, EmptySeriesRule, WinnerStep } from './winners.ts';

interface Extraction {
  number: number;
  date: string;
  prizes: string[];
  source: 'typed' | 'caixa';
  recorded_at: string;
}

export interface Draw {
  id: string;
  campaign_id: string;
  livemode: boolean;
  name: string;
  cutoff: string;
  extraction_date: string | null;
  status: DrawStatus;
  winners_count: number;
  series_count: number;
  series_digits: string;
  element_digits: string;
  approximation: Approximation;
  empty_series: EmptySeriesRule;
  one_win_per_document: boolean;
  /** Where the apuração happens; null when not given. */
  place: string | null;
  /** The prize of each position, in order; null when not given. */
  prizes: DrawPrize[] | null;
  eligible_count: number | null;
  numbers_sha256: string | null;
  /** SHA-256 of the holders list (`S/EEEEE;H` a line), fixed at the freeze. */
  holders_sha256: string | null;
  frozen_at: string | null;
  extraction: Extraction | null;
  formed: { series: number; element: number; number: string } | null;
  drawn_at: string | null;
  published_at: string | null;
  /** SHA-256 of the Markdown record stored at publication. */
  record_sha256: string | null;
  created_at: string;
  updated_at: string;
  /** Who created and who froze the draw, as the audit log names them; null for draws made before they were kept. */
  created_by: string | null;
  frozen_by: string | null;
  /** Entries received by the cut-off still pending verification at the freeze; null before the freeze. */
  pending_at_freeze: number | null;
  /** Why the freeze went ahead with entries pending; null when it did not. */
  freeze_reason: string | null;
  voided_at: string | null;
  voided_by: string | null;
  void_reason: string | null;
}

/** One recording of the extraction's results: the first one, then each correction, with who, when and why. */
export interface ResultsRecord {
  number: number;
  date: string;
  prizes: string[];
  source: 'typed' | 'caixa';
  reason: string | null;
  recorded_by: string | null;
  recorded_at: string;
}

export interface DrawWinner {
  position: number;
  series: number;
  element: number;
  number: string;
  entry_id: string;
  steps: WinnerStep[];
  picked_at: string;
}

export interface DisqualifiedWinner extends DrawWinner {
  disqualified_at: string;
  reason: string;
}

export interface DrawDetail extends Draw {
  winners: DrawWinner[];
  disqualified: DisqualifiedWinner[];
  /** Positions left empty: fewer eligible numbers than winners. */
  unfilled_positions: number[];
  /** Every recording of the results, the first one first (the last is `extraction`). */
  results_history: ResultsRecord[];
}

/** One step of the formation: a digit read from a prize, or the series brought into range. */
export type FormationStep =
  | ({ kind: 'digit'; target: 'series' | 'element' } & DigitStep)
  | { kind: 'series_reduced'; from: number; to: number; series_count: number; times: number };

export interface RunOutcome {
  draw: Draw;
  formed: { series: number; element: number; number: string; steps: FormationStep[] };
  winners: DrawWinner[];
  unfilled_positions: number[];
}

/** The draws.formed column: the formation as it was computed (positions left empty are derived from the winners). */
export interface StoredFormation {
  formed: Formed;
}

/** The formation a draw that has run stored; null before the run. */
export function storedFormation(row: DrawRow): StoredFormation | null {
  return row.formed === null ? null : (JSON.parse(row.formed) as StoredFormation);
}

/** The draw's row; 404 not_found when there is none. */
export function findDraw(ctx: Ctx, id: string): DrawRow {
  const row = findDrawRow(ctx.db, id);
  if (row === undefined) throw notFound('Draw');
  return row;
}

export function rowToDraw(row: DrawRow): Draw {
  const stored = storedFormation(row);
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    livemode: row.livemode === 1,
    name: row.name,
    cutoff: row.cutoff,
    extraction_date: row.extraction_date,
    status: row.status,
    winners_count: row.winners_count,
    series_count: row.series_count,
    series_digits: row.series_digits,
    element_digits: row.element_digits,
    approximation: row.approximation,
    empty_series: row.empty_series,
    one_win_per_document: row.one_win_per_document === 1,
    place: row.place,
    prizes: row.prizes === null ? null : (JSON.parse(row.prizes) as DrawPrize[]),
    eligible_count: row.eligible_count,
    numbers_sha256: row.numbers_sha256,
    holders_sha256: row.holders_sha256,
    frozen_at: row.frozen_at,
    extraction:
      row.extraction_prizes === null
        ? null
        : {
            number: row.extraction_number!,
            date: row.extraction_held_on!,
            prizes: JSON.parse(row.extraction_prizes) as string[],
            source: row.extraction_source!,
            recorded_at: row.results_recorded_at!,
          },
    formed:
      stored === null
        ? null
        : {
            series: stored.formed.series,
            element: stored.formed.element,
            number: formatNumber(stored.formed.series, stored.formed.element, row.series_count),
          },
    drawn_at: row.drawn_at,
    published_at: row.published_at,
    record_sha256: row.record_sha256,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by ?? null,
    frozen_by: row.frozen_by ?? null,
    pending_at_freeze: row.pending_at_freeze ?? null,
    freeze_reason: row.freeze_reason ?? null,
    voided_at: row.voided_at ?? null,
    voided_by: row.voided_by ?? null,
    void_reason: row.void_reason ?? null,
  };
}

export function rowToWinner(row: DrawWinnerRow, seriesCount: number): DrawWinner {
  return {
    position: row.position,
    series: row.series,
    element: row.element,
    number: formatNumber(row.series, row.element, seriesCount),
    entry_id: row.entry_id,
    steps: JSON.parse(row.steps) as WinnerStep[],
    picked_at: row.picked_at,
  };
}
