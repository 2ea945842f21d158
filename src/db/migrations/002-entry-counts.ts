// Schema version 2: entry counts per (campaign, mode, status), kept by triggers, so GET /metrics reads a handful
// of rows instead of counting a million-row index on every scrape (seconds of blocked event loop).
import type { Migration } from './migration.ts';

export const migration002: Migration = (db) =>
  db.exec(`
  CREATE TABLE entry_counts (
    campaign_id TEXT NOT NULL,
    livemode    INTEGER NOT NULL,
    status      TEXT NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, livemode, status)
  ) WITHOUT ROWID, STRICT;
  INSERT INTO entry_counts (campaign_id, livemode, status, n)
    SELECT campaign_id, livemode, status, COUNT(*) FROM entries GROUP BY campaign_id, livemode, status;
  CREATE TRIGGER entry_counts_insert AFTER INSERT ON entries BEGIN
    INSERT INTO entry_counts (campaign_id, livemode, status, n) VALUES (NEW.campaign_id, NEW.livemode, NEW.status, 1)
      ON CONFLICT (campaign_id, livemode, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER entry_counts_status AFTER UPDATE OF status ON entries WHEN OLD.status IS NOT NEW.status BEGIN
    UPDATE entry_counts SET n = n - 1 WHERE campaign_id = OLD.campaign_id AND livemode = OLD.livemode AND status = OLD.status;
    INSERT INTO entry_counts (campaign_id, livemode, status, n) VALUES (NEW.campaign_id, NEW.livemode, NEW.status, 1)
      ON CONFLICT (campaign_id, livemode, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER entry_counts_delete AFTER DELETE ON entries BEGIN
    UPDATE entry_counts SET n = n - 1 WHERE campaign_id = OLD.campaign_id AND livemode = OLD.livemode AND status = OLD.status;
  END;
`);
