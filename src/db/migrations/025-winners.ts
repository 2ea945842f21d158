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
// The prizes already won when the database is upgraded get their winners, as ces opens them from
// now on (src/winners/winners.ts): every position of a published draw (a disqualified number as
// disqualified), every instant prize awarded. Their deadlines are the defaults' (10 and 30 days,
// 180 to prescribe) from the apuração's date in Brasília, UTC-3 since 2019, before any campaign
// could exist here.
import type { Migration } from './migration.ts';

export const migration025: Migration = (db) => {
  createTables(db);
  adoptWinners(db);
};

/** A version-4 UUID from SQLite's random bytes, for the winners of draws (an instant prize's is its award's id). */
const RANDOM_UUID = `lower(printf('%s-%s-4%s-%s%s-%s', hex(randomblob(4)), hex(randomblob(2)), substr(hex(randomblob(2)), 2),
  substr('89ab', 1 + abs(random()) % 4, 1), substr(hex(randomblob(2)), 2), hex(randomblob(6))))`;

/** The deadline columns from an apuração instant (an ISO text in UTC). */
const DEADLINES = (at: string): string => `date(${at}, '-3 hours', '+10 days'), date(${at}, '-3 hours', '+30 days'),
  date(${at}, '-3 hours', '+180 days')`;

function adoptWinners(db: Parameters<Migration>[0]): void {
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO winners (id, campaign_id, livemode, source, draw_id, position, draw_winner_id, award_id, entry_id, enrollment_id,
      prize_description, prize_value_cents, status, awarded_at, notify_by, deliver_by, prescribes_at, created_at, updated_at)
    SELECT ${RANDOM_UUID}, d.campaign_id, d.livemode, 'draw', d.id, w.position, w.id, NULL, w.entry_id, w.enrollment_id,
      (SELECT json_extract(p.value, '$.description') FROM json_each(coalesce(d.prizes, '[]')) p WHERE json_extract(p.value, '$.position') = w.position),
      (SELECT CAST(round(CAST(json_extract(p.value, '$.value') AS REAL) * 100) AS INTEGER) FROM json_each(coalesce(d.prizes, '[]')) p
        WHERE json_extract(p.value, '$.position') = w.position),
      CASE WHEN w.disqualified_at IS NULL THEN 'awarded' ELSE 'disqualified' END,
      d.drawn_at, ${DEADLINES('d.drawn_at')}, @now, @now
    FROM draw_winners w JOIN draws d ON d.id = w.draw_id
    WHERE d.status = 'published'
    ORDER BY d.drawn_at, w.id`,
  ).run({ now });
  db.prepare(
    `INSERT INTO winners (id, campaign_id, livemode, source, draw_id, position, draw_winner_id, award_id, entry_id, enrollment_id,
      prize_description, prize_value_cents, status, awarded_at, notify_by, deliver_by, prescribes_at, created_at, updated_at)
    SELECT a.id, a.campaign_id, a.livemode, 'instant', NULL, NULL, NULL, a.id, a.entry_id, e.enrollment_id,
      p.name, CAST(round(p.unit_value * 100) AS INTEGER), 'awarded', x.at, ${DEADLINES('x.at')}, @now, @now
    FROM awards a JOIN entries e ON e.id = a.entry_id JOIN prizes p ON p.id = a.prize_id
      JOIN (SELECT award_id, min(at) AS at FROM award_history WHERE to_status = 'awarded' GROUP BY award_id) x ON x.award_id = a.id
    WHERE a.status = 'awarded'
    ORDER BY x.at, a.rowid`,
  ).run({ now });
  db.prepare(
    `INSERT INTO winner_events (winner_id, event, note, from_status, to_status, actor, at)
    SELECT id, 'awarded', NULL, NULL, 'awarded', 'system', awarded_at FROM winners ORDER BY rowid`,
  ).run();
  db.prepare(
    `INSERT INTO winner_events (winner_id, event, note, from_status, to_status, actor, at)
    SELECT v.id, 'disqualified', w.disqualified_reason, 'awarded', 'disqualified', 'system', w.disqualified_at
    FROM winners v JOIN draw_winners w ON w.id = v.draw_winner_id WHERE v.status = 'disqualified' ORDER BY v.rowid`,
  ).run();
}

function createTables(db: Parameters<Migration>[0]): void {
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
}
