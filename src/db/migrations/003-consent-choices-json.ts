// Schema version 3: a consent's choices as one JSON column of the consent instead of a row each in
// consent_choices. Intake wrote four rows into two B-trees (the table and its primary key) per
// entry, about a tenth of the write stage and of the pages each group commit writes; the choices
// are only ever read with their consent. The JSON is [{consent_type, granted, explicit}] with
// booleans, as the LGPD export shows it; existing rows are copied in, ordered by consent_type.
import type { Migration } from './migration.ts';

export const migration003: Migration = (db) =>
  db.exec(`
  ALTER TABLE consents ADD COLUMN choices TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(choices));
  UPDATE consents SET choices = (
    SELECT json_group_array(json_object(
      'consent_type', consent_type,
      'granted', json(iif(granted = 1, 'true', 'false')),
      'explicit', json(iif(explicit = 1, 'true', 'false'))) ORDER BY consent_type)
    FROM consent_choices WHERE consent_id = consents.id);
  DROP TABLE consent_choices;
`);
