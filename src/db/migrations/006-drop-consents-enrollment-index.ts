// Schema version 6: no index on consents.enrollment_id. Only an LGPD request (export, anonymize) looks consents
// up by enrollment, and it reaches them as fast through the enrollment's entries
// (entries_enrollment, then the consent's unique entry_id). Every intake paid for the index,
// and a participant's entry days after the previous one inserts at a random page of it.
import type { Migration } from './migration.ts';

export const migration006: Migration = (db) => db.exec('DROP INDEX consents_enrollment');
