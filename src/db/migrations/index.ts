// The schema's history, one file a version (NNN-name.ts, each saying why). Version 1 is
// 001-initial.sql, the first schema; a new database is created from schema.generated.sql (the
// current schema) instead of walking them all. A new version is a new file here and a regenerated
// schema.generated.sql (`npm run schema`; test/unit/schema.test.ts checks both agree).
import { readInitialSchemaSql } from '../schema.ts';
import type { Migration } from './migration.ts';
import { migration002 } from './002-entry-counts.ts';
import { migration003 } from './003-consent-choices-json.ts';
import { migration004 } from './004-award-reassigned-from.ts';
import { migration005 } from './005-receipts.ts';
import { migration006 } from './006-drop-consents-enrollment-index.ts';
import { migration007 } from './007-email-key.ts';
import { migration008 } from './008-idempotency-key-text.ts';
import { migration009 } from './009-server-process.ts';
import { migration010 } from './010-delivery-scheduling.ts';
import { migration011 } from './011-campaign-webhook-api.ts';
import { migration012 } from './012-webhook-previous-secret.ts';
import { migration013 } from './013-audit-log.ts';
import { migration014 } from './014-dashboard-sessions.ts';
import { migration015 } from './015-draws.ts';
import { migration016 } from './016-events-index.ts';
import { migration017 } from './017-integrity-checks.ts';
import { migration018 } from './018-session-lifetime-public-url.ts';
import { migration019 } from './019-scrub-attempt-credentials.ts';
import { migration020 } from './020-draw-numbers-missing-gaps.ts';
import { migration021 } from './021-draw-voided-approximations.ts';
import { migration022 } from './022-draw-rules-campaign-identity.ts';
import { migration023 } from './023-draw-time-and-people.ts';
import { migration024 } from './024-draw-records-holders-legal-hold.ts';
import { migration025 } from './025-winners.ts';
import { migration026 } from './026-pending-erasures.ts';

export const MIGRATIONS: readonly Migration[] = [
  (db) => db.exec(readInitialSchemaSql()),
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration021,
  migration022,
  migration023,
  migration024,
  migration025,
  migration026,
];
