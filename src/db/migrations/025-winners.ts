// Schema version 25 (issue 42): what happens after the draw. A winner is one prize won (a draw
// position of a published draw, or an instant prize confirmed), followed from the apuração to its
// delivery, refusal, disqualification or prescription; its steps and their attachments are kept, and
// a campaign is closed with its prestação de contas stored as it was made.
// - campaigns.notify_within / notify_days: the plan's deadline to notify a winner (10 calendar days
//   unless the plan says otherwise); deliver_within: to deliver (30 days at most, by law).
// - campaigns.closed_at / closed_by / close_reason: the closing (a forced one has its reason).
// - winners: one prize won, with its deadlines (dates in Brasília time) fixed when it is created.
// - winner_events: every step recorded, the status it moved from and to, who and when.
// - winner_attachments: the files of a step (PDF, JPEG, PNG), kept in the database with their SHA-256.
// - campaign_reports: the prestação de contas stored by the closing, per mode, never rewritten.
import type { Migration } from './migration.ts';

export const migration025: Migration = (db) =>
  db.exec(`
  ALTER TABLE campaigns ADD COLUMN notify_within INTEGER NOT NULL DEFAULT 10 CHECK (notify_within BETWEEN 1 AND 365);
  ALTER TABLE campaigns ADD COLUMN notify_days TEXT NOT NULL DEFAULT 'calendar' CHECK (notify_days IN ('calendar', 'business'));
  ALTER TABLE campaigns ADD COLUMN deliver_within INTEGER NOT NULL DEFAULT 30 CHECK (deliver_within BETWEEN 1 AND 30);
  ALTER TABLE campaigns ADD COLUMN closed_at TEXT;
  ALTER TABLE campaigns ADD COLUMN closed_by TEXT;
  ALTER TABLE campaigns ADD COLUMN close_reason TEXT;
  CREATE TABLE winners (
    id                TEXT PRIMARY KEY,
    campaign_id       TEXT NOT NULL REFERENCES campaigns (id),
    livemode          INTEGER NOT NULL CHECK (livemode IN (0, 1)),
    source            TEXT NOT NULL CHECK (source IN ('draw', 'instant')),
    draw_id           TEXT REFERENCES draws (id),
    position          INTEGER CHECK (position >= 1),
    draw_winner_id    INTEGER UNIQUE REFERENCES draw_winners (id),
    award_id          TEXT UNIQUE REFERENCES awards (id),
    entry_id          TEXT NOT NULL REFERENCES entries (id),
    enrollment_id     TEXT NOT NULL REFERENCES enrollments (id),
    prize_description TEXT,
    prize_value_cents INTEGER CHECK (prize_value_cents >= 0),
    status            TEXT NOT NULL CHECK (status IN ('awarded', 'notified', 'delivered', 'declined', 'disqualified', 'prescribed')),
    awarded_at        TEXT NOT NULL,   -- the apuração: the draw's run, the instant prize's confirmation
    notify_by         TEXT NOT NULL,   -- YYYY-MM-DD, Brasília
    deliver_by        TEXT NOT NULL,
    prescribes_at     TEXT NOT NULL,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    CHECK ((source = 'draw') = (draw_winner_id IS NOT NULL AND draw_id IS NOT NULL AND position IS NOT NULL)),
    CHECK ((source = 'instant') = (award_id IS NOT NULL))
  ) STRICT;
  CREATE INDEX winners_campaign ON winners (campaign_id, livemode, awarded_at);
  CREATE INDEX winners_open ON winners (prescribes_at) WHERE status IN ('awarded', 'notified');
  CREATE INDEX winners_enrollment ON winners (enrollment_id);
  CREATE TABLE winner_events (
    id          INTEGER PRIMARY KEY,
    winner_id   TEXT NOT NULL REFERENCES winners (id),
    event       TEXT NOT NULL CHECK (event IN ('awarded', 'notified', 'contact_failed', 'documents_received', 'delivered', 'declined', 'disqualified', 'prescribed')),
    note        TEXT,
    from_status TEXT,
    to_status   TEXT NOT NULL,
    actor       TEXT NOT NULL,
    at          TEXT NOT NULL
  ) STRICT;
  CREATE INDEX winner_events_winner ON winner_events (winner_id, id);
  CREATE TABLE winner_attachments (
    id         INTEGER PRIMARY KEY,
    event_id   INTEGER NOT NULL REFERENCES winner_events (id),
    winner_id  TEXT NOT NULL REFERENCES winners (id),
    filename   TEXT NOT NULL,
    media_type TEXT NOT NULL CHECK (media_type IN ('application/pdf', 'image/jpeg', 'image/png')),
    size       INTEGER NOT NULL CHECK (size BETWEEN 1 AND 10485760),
    sha256     TEXT NOT NULL,
    data       BLOB NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX winner_attachments_winner ON winner_attachments (winner_id, id);
  CREATE TABLE campaign_reports (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id),
    livemode    INTEGER NOT NULL CHECK (livemode IN (0, 1)),
    md          BLOB NOT NULL,
    html        BLOB NOT NULL,
    sha256      TEXT NOT NULL,   -- of md
    created_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, livemode)
  ) STRICT;
`);
