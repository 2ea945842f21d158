// Schema version 15: draws (apuração) from Loteria Federal results
// (docs/operations.md#running-a-draw-ces-draw). A draw copies what decides its winners when it is
// created (the campaign's series count, the digit lists, the approximation rule), so a later change
// to the campaign cannot change it. Its frozen set lives in draw_numbers, one row per series
// holding eligible numbers (a bitmap or LEB128 gaps, src/draws/number-set.ts); its winners in
// draw_winners, where a disqualified winner stays with its reason beside the number that replaced
// it.
import type { Migration } from './migration.ts';

export const migration015: Migration = (db) =>
  db.exec(`
  CREATE TABLE draws (
    id                   TEXT PRIMARY KEY,
    campaign_id          TEXT NOT NULL REFERENCES campaigns (id),
    livemode             INTEGER NOT NULL CHECK (livemode IN (0, 1)),
    name                 TEXT NOT NULL,
    cutoff               TEXT NOT NULL,
    extraction_date      TEXT,             -- the extraction the plan names (YYYY-MM-DD); the one used is in extraction_*
    status               TEXT NOT NULL CHECK (status IN ('created', 'frozen', 'drawn', 'published')),
    winners_count        INTEGER NOT NULL CHECK (winners_count >= 1),
    series_count         INTEGER NOT NULL CHECK (series_count >= 1),
    series_digits        TEXT NOT NULL,    -- DIGITS list, e.g. '1d,2d' ('' for one series)
    element_digits       TEXT NOT NULL,    -- DIGITS list of 5 items
    approximation        TEXT NOT NULL CHECK (approximation IN ('scpc', 'up-wrap')),
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
  CREATE INDEX draws_campaign ON draws (campaign_id, created_at);
  CREATE TABLE draw_numbers (
    draw_id  TEXT NOT NULL REFERENCES draws (id),
    series   INTEGER NOT NULL,
    encoding INTEGER NOT NULL CHECK (encoding IN (0, 1)),   -- 0 bitmap of 100,000 bits, 1 LEB128 gaps
    count    INTEGER NOT NULL CHECK (count >= 1),
    data     BLOB NOT NULL,
    PRIMARY KEY (draw_id, series)
  ) WITHOUT ROWID, STRICT;
  CREATE TABLE draw_winners (
    id                  INTEGER PRIMARY KEY,
    draw_id             TEXT NOT NULL REFERENCES draws (id),
    position            INTEGER NOT NULL CHECK (position >= 1),
    series              INTEGER NOT NULL,
    element             INTEGER NOT NULL,
    entry_id            TEXT NOT NULL REFERENCES entries (id),
    enrollment_id       TEXT NOT NULL REFERENCES enrollments (id),
    steps               TEXT NOT NULL,     -- JSON: how the number was reached
    picked_at           TEXT NOT NULL,
    disqualified_at     TEXT,
    disqualified_reason TEXT,
    UNIQUE (draw_id, series, element)
  ) STRICT;
  CREATE UNIQUE INDEX draw_winners_position ON draw_winners (draw_id, position) WHERE disqualified_at IS NULL;
`);
