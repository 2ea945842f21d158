-- ces schema, version 1, as first released: where the migrations of an older database start
-- (src/db/migrations/, one file a version). Never edited; the current schema is schema.generated.sql.
-- Conventions: ids are UUID text (entries, enrollments, campaigns, prizes, awards) or INTEGER rowids
-- (queues, history); times are ISO 8601 UTC text ('2026-11-22T10:00:00.000Z'); booleans are 0/1;
-- `livemode` is 1 for live records, 0 for test records, and every integrator-visible row carries it.

CREATE TABLE campaigns (
  id                          TEXT PRIMARY KEY,
  name                        TEXT NOT NULL,
  starts_at                   TEXT,             -- registration window; NULL = open-ended
  ends_at                     TEXT,
  purchase_from               TEXT,             -- purchase period for access keys; NULL = registration window
  purchase_to                 TEXT,
  required_fields             TEXT NOT NULL DEFAULT '[]',  -- JSON array of full_name,email,phone,birthdate,city,state
  allow_companies             INTEGER NOT NULL DEFAULT 0 CHECK (allow_companies IN (0, 1)),
  api_enabled                 INTEGER NOT NULL DEFAULT 1 CHECK (api_enabled IN (0, 1)),
  instant_prize               TEXT NOT NULL DEFAULT 'none' CHECK (instant_prize IN ('none', 'INTEGRATOR_DECLARED', 'WINDOW')),
  lucky_numbers               TEXT NOT NULL DEFAULT 'none' CHECK (lucky_numbers IN ('none', 'auto', 'manual')),
  lucky_quantity              INTEGER NOT NULL DEFAULT 1 CHECK (lucky_quantity >= 1),
  series_count                INTEGER NOT NULL DEFAULT 1 CHECK (series_count >= 1),
  max_entries_per_participant INTEGER CHECK (max_entries_per_participant >= 1),
  max_entries_per_day         INTEGER CHECK (max_entries_per_day >= 1),
  fiscal_verifier_url         TEXT,
  created_at                  TEXT NOT NULL,
  updated_at                  TEXT NOT NULL
) STRICT;

-- Only the SHA-256 of a key is stored; `prefix` is the non-secret start shown to operators.
CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  campaign_id TEXT NOT NULL REFERENCES campaigns (id),
  mode        TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  prefix      TEXT NOT NULL,
  key_hash    BLOB NOT NULL UNIQUE,
  label       TEXT,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT                  -- set: the key gives 401 from this instant on (may be in the future: rotation grace)
) STRICT;
CREATE INDEX api_keys_campaign ON api_keys (campaign_id);

-- One enrollment per participant document per campaign and mode. Email and phone are unique in the
-- same scope (docs/api.md#errors: email_taken, phone_taken; test records never block live ones).
CREATE TABLE enrollments (
  id              TEXT PRIMARY KEY,
  campaign_id     TEXT NOT NULL REFERENCES campaigns (id),
  livemode        INTEGER NOT NULL CHECK (livemode IN (0, 1)),
  document_type   TEXT NOT NULL CHECK (document_type IN ('cpf', 'cnpj')),
  document_number TEXT NOT NULL,
  full_name       TEXT,
  email           TEXT,             -- as given; uniqueness is on lower(email)
  phone           TEXT,             -- E.164 digits without '+'
  birthdate       TEXT,
  address_line_1  TEXT,
  address_line_2  TEXT,
  neighborhood    TEXT,
  city            TEXT,
  state           TEXT,
  zipcode         TEXT,
  country         TEXT,
  anonymized_at   TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  UNIQUE (campaign_id, livemode, document_number)
) STRICT;
-- Version 7 (src/db/migrate.ts) replaces this index with enrollments_email_key on a new column,
-- email_key: the email folded by src/entries/email-key.ts, since lower() folds only A-Z.
CREATE UNIQUE INDEX enrollments_email ON enrollments (campaign_id, livemode, lower(email)) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX enrollments_phone ON enrollments (campaign_id, livemode, phone) WHERE phone IS NOT NULL;

CREATE TABLE entries (
  id                TEXT PRIMARY KEY,
  campaign_id       TEXT NOT NULL REFERENCES campaigns (id),
  livemode          INTEGER NOT NULL CHECK (livemode IN (0, 1)),
  idempotency_key   TEXT NOT NULL,
  enrollment_id     TEXT NOT NULL REFERENCES enrollments (id),
  api_key_id        TEXT,
  status            TEXT NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  evidence_type     TEXT NOT NULL,
  access_key        TEXT NOT NULL,
  rejection_reasons TEXT NOT NULL DEFAULT '[]',   -- JSON [{code, message}]
  mechanics         TEXT,                         -- JSON [{mechanic_type, status, outcome}] once evaluated
  declared_win      TEXT,                         -- JSON instant_win block as submitted (audit)
  created_at        TEXT NOT NULL,
  processed_at      TEXT,
  evaluated_at      TEXT,
  UNIQUE (campaign_id, livemode, idempotency_key)
) STRICT;
-- Version 5 (src/db/migrate.ts) replaces this index with the table receipts, which processing fills.
CREATE INDEX entries_access_key ON entries (campaign_id, livemode, access_key);
CREATE INDEX entries_enrollment ON entries (enrollment_id, created_at);
CREATE INDEX entries_campaign_status ON entries (campaign_id, livemode, status, created_at);

-- One consent record per entry; never updated (LGPD legal record).
CREATE TABLE consents (
  id            INTEGER PRIMARY KEY,
  entry_id      TEXT NOT NULL UNIQUE REFERENCES entries (id),
  enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
  granted_at    TEXT NOT NULL,
  ip_address    TEXT NOT NULL,
  user_agent    TEXT NOT NULL,      -- truncated to 1024 characters
  term_version  TEXT NOT NULL,
  created_at    TEXT NOT NULL
) STRICT;
-- Dropped by version 6: consents are looked up by enrollment through its entries.
CREATE INDEX consents_enrollment ON consents (enrollment_id);

-- Version 3 (src/db/migrate.ts) moves these rows into consents.choices, a JSON array of
-- {consent_type, granted, explicit}, and drops this table.
CREATE TABLE consent_choices (
  consent_id   INTEGER NOT NULL REFERENCES consents (id),
  consent_type TEXT NOT NULL CHECK (consent_type IN ('regulation', 'privacy_policy', 'marketing', 'data_sharing', 'image_use', 'transactional', 'other')),
  granted      INTEGER NOT NULL CHECK (granted IN (0, 1)),
  explicit     INTEGER NOT NULL CHECK (explicit IN (0, 1)),   -- 0: recorded implicitly (regulation, privacy_policy, transactional)
  PRIMARY KEY (consent_id, consent_type)
) STRICT;

-- Background work. A row exists while the work is due; it is deleted in the transaction that
-- commits the work's effects, so a crash either leaves it (redone) or removes it with its effects.
CREATE TABLE jobs (
  id           INTEGER PRIMARY KEY,
  kind         TEXT NOT NULL CHECK (kind IN ('process', 'evaluate')),
  entry_id     TEXT NOT NULL REFERENCES entries (id),
  run_at       TEXT NOT NULL,
  locked_until TEXT,
  attempts     INTEGER NOT NULL DEFAULT 0,
  last_error   TEXT,
  created_at   TEXT NOT NULL,
  UNIQUE (entry_id, kind)
) STRICT;
CREATE INDEX jobs_due ON jobs (run_at);

-- One configuration per campaign, shared by live and test.
CREATE TABLE webhook_configs (
  campaign_id  TEXT PRIMARY KEY REFERENCES campaigns (id),
  endpoint_url TEXT NOT NULL,
  is_active    INTEGER NOT NULL CHECK (is_active IN (0, 1)),
  secret       TEXT NOT NULL,       -- 'whsec_' + base64(32 bytes)
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
) STRICT;

-- The outbox: one row per event, written in the transaction of the change it reports.
-- `id` is the event id (envelope id and webhook-id header), stable across retries.
CREATE TABLE webhook_deliveries (
  seq             INTEGER PRIMARY KEY,          -- order of events
  id              TEXT NOT NULL UNIQUE,
  campaign_id     TEXT NOT NULL REFERENCES campaigns (id),
  livemode        INTEGER NOT NULL CHECK (livemode IN (0, 1)),
  entry_id        TEXT,
  event_type      TEXT NOT NULL,
  payload         TEXT NOT NULL,                -- the exact JSON body sent
  status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'skipped')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  locked_until    TEXT,
  last_error      TEXT,
  last_status_code INTEGER,
  created_at      TEXT NOT NULL,
  delivered_at    TEXT
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_entry ON webhook_deliveries (entry_id, seq);
CREATE INDEX webhook_deliveries_campaign ON webhook_deliveries (campaign_id, status, seq);

CREATE TABLE webhook_attempts (
  id               INTEGER PRIMARY KEY,
  delivery_id      TEXT NOT NULL REFERENCES webhook_deliveries (id),
  attempted_at     TEXT NOT NULL,
  url              TEXT,
  status_code      INTEGER,
  latency_ms       INTEGER,
  error            TEXT,
  response_excerpt TEXT
) STRICT;
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);

CREATE TABLE prizes (
  id                  TEXT PRIMARY KEY,
  campaign_id         TEXT NOT NULL REFERENCES campaigns (id),
  livemode            INTEGER NOT NULL CHECK (livemode IN (0, 1)),
  name                TEXT NOT NULL,
  type                TEXT NOT NULL,
  unit_value          REAL NOT NULL CHECK (unit_value >= 0),
  initial_stock       INTEGER NOT NULL CHECK (initial_stock >= 0),
  current_stock       INTEGER NOT NULL CHECK (current_stock >= 0),
  awarded_beyond_pool INTEGER NOT NULL DEFAULT 0 CHECK (awarded_beyond_pool >= 0),  -- wins confirmed while stock was 0
  created_at          TEXT NOT NULL
) STRICT;
CREATE INDEX prizes_campaign ON prizes (campaign_id, livemode);

-- Instant-prize awards. An entry has at most one live award (pending or awarded); revoked and
-- voided ones stay as the ledger.
CREATE TABLE awards (
  id          TEXT PRIMARY KEY,
  entry_id    TEXT NOT NULL REFERENCES entries (id),
  campaign_id TEXT NOT NULL REFERENCES campaigns (id),
  livemode    INTEGER NOT NULL CHECK (livemode IN (0, 1)),
  prize_id    TEXT NOT NULL REFERENCES prizes (id),
  source      TEXT NOT NULL CHECK (source IN ('declared', 'window', 'reassign')),
  window_id   INTEGER,
  status      TEXT NOT NULL CHECK (status IN ('pending', 'awarded', 'revoked', 'declined', 'voided')),
  beyond_pool INTEGER NOT NULL DEFAULT 0 CHECK (beyond_pool IN (0, 1)),  -- awarded while stock was 0: no unit to return
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX awards_one_live_per_entry ON awards (entry_id) WHERE status IN ('pending', 'awarded');
CREATE INDEX awards_entry ON awards (entry_id, created_at);
CREATE INDEX awards_campaign ON awards (campaign_id, livemode, status);

CREATE TABLE award_history (
  id          INTEGER PRIMARY KEY,
  award_id    TEXT NOT NULL REFERENCES awards (id),
  from_status TEXT,
  to_status   TEXT NOT NULL,
  at          TEXT NOT NULL,
  actor       TEXT NOT NULL,        -- 'api_key:<id>', 'cli', 'system'
  reason      TEXT
) STRICT;
CREATE INDEX award_history_award ON award_history (award_id, id);

-- WINDOW mechanic: each window is one unit of a prize that the first approved entry evaluated at or
-- after opens_at claims. claimed_by_entry_id is UNIQUE so one entry holds at most one window.
CREATE TABLE prize_windows (
  id                  INTEGER PRIMARY KEY,
  campaign_id         TEXT NOT NULL REFERENCES campaigns (id),
  livemode            INTEGER NOT NULL CHECK (livemode IN (0, 1)),
  prize_id            TEXT NOT NULL REFERENCES prizes (id),
  opens_at            TEXT NOT NULL,
  claimed_by_entry_id TEXT UNIQUE REFERENCES entries (id),
  claimed_at          TEXT,
  created_at          TEXT NOT NULL
) STRICT;
CREATE INDEX prize_windows_open ON prize_windows (campaign_id, livemode, opens_at) WHERE claimed_by_entry_id IS NULL;

-- Lucky numbers: a (series, order_number) pair is held by one entry per campaign and mode.
CREATE TABLE lucky_numbers (
  campaign_id  TEXT NOT NULL REFERENCES campaigns (id),
  livemode     INTEGER NOT NULL CHECK (livemode IN (0, 1)),
  series       INTEGER NOT NULL CHECK (series >= 0),
  order_number INTEGER NOT NULL CHECK (order_number BETWEEN 0 AND 99999),
  entry_id     TEXT NOT NULL REFERENCES entries (id),
  source       TEXT NOT NULL CHECK (source IN ('auto', 'manual')),
  created_at   TEXT NOT NULL,
  PRIMARY KEY (campaign_id, livemode, series, order_number)
) STRICT;
CREATE INDEX lucky_numbers_entry ON lucky_numbers (entry_id);

-- Automatic allocation draws uniformly among free pairs in O(1) with a lazy Fisher-Yates shuffle
-- over the pair space [0, series_count * 100000): `drawn` slots are used, and lucky_pool_swaps holds
-- only the positions that were swapped (a sparse permutation).
CREATE TABLE lucky_pools (
  campaign_id TEXT NOT NULL REFERENCES campaigns (id),
  livemode    INTEGER NOT NULL CHECK (livemode IN (0, 1)),
  size        INTEGER NOT NULL,
  drawn       INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, livemode)
) STRICT;

CREATE TABLE lucky_pool_swaps (
  campaign_id TEXT NOT NULL,
  livemode    INTEGER NOT NULL,
  position    INTEGER NOT NULL,
  value       INTEGER NOT NULL,
  PRIMARY KEY (campaign_id, livemode, position)
) WITHOUT ROWID, STRICT;

-- Operator audit log (LGPD requests, key rotations, restores).
CREATE TABLE audit_log (
  id      INTEGER PRIMARY KEY,
  at      TEXT NOT NULL,
  actor   TEXT NOT NULL,
  action  TEXT NOT NULL,
  subject TEXT,
  detail  TEXT
) STRICT;
