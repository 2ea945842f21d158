// Schema version 22 (issue 41): what the apuração record needs that the rows did not hold.
// A campaign's identity as SPA knows it (the Certificado de Autorização number, the promoter's
// razão social, CNPJ and address), and a draw's place, prize per position (JSON array of
// {description, value}, value in centavos) and the rule for a series with no eligible number
// (`empty_series`). The approximation `scpc` is stored by its reading's name, `nearest`: the same
// rule, so a draw created before reads and runs as it did. Columns only: no table is copied.
import type { Migration } from './migration.ts';

export const migration022: Migration = (db) =>
  db.exec(`
  ALTER TABLE campaigns ADD COLUMN authorization TEXT;       -- Certificado de Autorização number, as SPA issued it
  ALTER TABLE campaigns ADD COLUMN promoter TEXT;            -- the promoter's razão social
  ALTER TABLE campaigns ADD COLUMN promoter_document TEXT;   -- the promoter's CNPJ, 14 characters without punctuation
  ALTER TABLE campaigns ADD COLUMN promoter_address TEXT;
  ALTER TABLE draws ADD COLUMN place TEXT;                   -- where the apuração happens
  ALTER TABLE draws ADD COLUMN prizes TEXT;                  -- JSON array, one {description, value} per position (value in centavos)
  ALTER TABLE draws ADD COLUMN empty_series TEXT NOT NULL DEFAULT 'alternate' CHECK (empty_series IN ('alternate', 'lower-first'));
  UPDATE draws SET approximation = 'nearest' WHERE approximation = 'scpc';
`);
