// Schema version 21 (issue 41): a draw can be voided (`status = 'voided'`, kept and listed, so a
// later draw on the same extraction can name it), and the approximation has two more readings of
// the regulation's words (`nearest`, the name `scpc` had, and `above-then-below`). SQLite changes
// a CHECK only by copying the table; draw_winners and draw_numbers refer to draws by name, so
// the copy is renamed into place with foreign keys off (src/db/migrate.ts) and checked before the
// version is bumped.
import type { Migration } from './migration.ts';

export const migration021: Migration = Object.assign(
  (db: Parameters<Migration>[0]) =>
    db.exec(`
  CREATE TABLE draws_v21 (
    id                   TEXT PRIMARY KEY,
    campaign_id          TEXT NOT NULL REFERENCES campaigns (id),
    livemode             INTEGER NOT NULL CHECK (livemode IN (0, 1)),
    name                 TEXT NOT NULL,
    cutoff               TEXT NOT NULL,
    extraction_date      TEXT,             -- the extraction the plan names (YYYY-MM-DD); the one used is in extraction_*
    status               TEXT NOT NULL CHECK (status IN ('created', 'frozen', 'drawn', 'published', 'voided')),
    winners_count        INTEGER NOT NULL CHECK (winners_count >= 1),
    series_count         INTEGER NOT NULL CHECK (series_count >= 1),
    series_digits        TEXT NOT NULL,    -- DIGITS list, e.g. '1d,2d' ('' for one series)
    element_digits       TEXT NOT NULL,    -- DIGITS list of 5 items
    approximation        TEXT NOT NULL CHECK (approximation IN ('scpc', 'nearest', 'above-then-below', 'up-wrap')),
    one_win_per_document INTEGER NOT NULL CHECK (one_win_per_document IN (0, 1)),
    eligible_count       INTEGER,
    numbers_sha256       TEXT,
    frozen_at            TEXT,
    extraction_number    INTEGER,
    extraction_held_on   TEXT,             -- YYYY-MM-DD
    extraction_prizes    TEXT,             -- JSON array of the five 5-digit tickets
    extraction_source    TEXT CHECK (extraction_source IN ('typed', 'caixa')),
    results_recorded_at  TEXT,
    formed               TEXT,             -- JSON: the formation and its digits
    drawn_at             TEXT,
    published_at         TEXT,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL
  ) STRICT;
  INSERT INTO draws_v21 (id, campaign_id, livemode, name, cutoff, extraction_date, status, winners_count, series_count, series_digits, element_digits, approximation, one_win_per_document, eligible_count, numbers_sha256, frozen_at, extraction_number, extraction_held_on, extraction_prizes, extraction_source, results_recorded_at, formed, drawn_at, published_at, created_at, updated_at)
    SELECT id, campaign_id, livemode, name, cutoff, extraction_date, status, winners_count, series_count, series_digits, element_digits, approximation, one_win_per_document, eligible_count, numbers_sha256, frozen_at, extraction_number, extraction_held_on, extraction_prizes, extraction_source, results_recorded_at, formed, drawn_at, published_at, created_at, updated_at
    FROM draws;
  DROP TABLE draws;
  ALTER TABLE draws_v21 RENAME TO draws;
  CREATE INDEX draws_campaign ON draws (campaign_id, created_at);
`),
  { checkReferencesOf: ['draw_winners', 'draw_numbers'] },
);
