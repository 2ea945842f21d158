// Schema version 23 (issue 41): who did what to a draw, and when, for the record an auditor signs.
// A draw keeps who created and who froze it (the audit actor, cli:<user> or dashboard:<name>), how
// many entries received by the cut-off were still pending verification at the freeze (and, when the
// freeze went ahead anyway, why), and whether, when, by whom and why it was voided. Every recording
// of an extraction's results is kept in draw_results, the first one and each correction, so the
// record prints the history rather than the last word. Columns are added (no table copy); the
// people of draws made before are read back from the audit log, and their results, recorded once
// as far as the draw row knows, become the first row of their history.
import type { Migration } from './migration.ts';

export const migration023: Migration = (db) =>
  db.exec(`
  ALTER TABLE draws ADD COLUMN created_by TEXT;          -- audit actor; NULL when the audit log had none
  ALTER TABLE draws ADD COLUMN frozen_by TEXT;
  ALTER TABLE draws ADD COLUMN pending_at_freeze INTEGER; -- entries PENDING, created by the cut-off, at the freeze
  ALTER TABLE draws ADD COLUMN freeze_reason TEXT;       -- why a freeze went ahead with entries pending
  ALTER TABLE draws ADD COLUMN voided_at TEXT;
  ALTER TABLE draws ADD COLUMN voided_by TEXT;
  ALTER TABLE draws ADD COLUMN void_reason TEXT;
  CREATE TABLE draw_results (
    id                INTEGER PRIMARY KEY,
    draw_id           TEXT NOT NULL REFERENCES draws (id),
    extraction_number INTEGER NOT NULL,
    held_on           TEXT NOT NULL,            -- YYYY-MM-DD
    prizes            TEXT NOT NULL,            -- JSON array of the five 5-digit tickets
    source            TEXT NOT NULL CHECK (source IN ('typed', 'caixa')),
    reason            TEXT,                     -- a postponement's or a correction's reason
    recorded_by       TEXT,                     -- audit actor; NULL when the audit log had none
    recorded_at       TEXT NOT NULL
  ) STRICT;
  CREATE INDEX draw_results_draw ON draw_results (draw_id, id);
  UPDATE draws SET
    created_by = (SELECT a.actor FROM audit_log a WHERE a.action = 'draw.created' AND json_extract(a.details, '$.draw_id') = draws.id ORDER BY a.id LIMIT 1),
    frozen_by = (SELECT a.actor FROM audit_log a WHERE a.action = 'draw.frozen' AND json_extract(a.details, '$.draw_id') = draws.id ORDER BY a.id LIMIT 1);
  INSERT INTO draw_results (draw_id, extraction_number, held_on, prizes, source, reason, recorded_by, recorded_at)
    SELECT d.id, d.extraction_number, d.extraction_held_on, d.extraction_prizes, d.extraction_source, NULL,
      (SELECT a.actor FROM audit_log a WHERE a.action = 'draw.results_recorded' AND json_extract(a.details, '$.draw_id') = d.id ORDER BY a.id DESC LIMIT 1),
      d.results_recorded_at
    FROM draws d WHERE d.extraction_prizes IS NOT NULL ORDER BY d.results_recorded_at, d.id;
`);
