// Schema version 19, data only: delivery attempts recorded by a ces older than the masking of
// webhook URLs (docs/api.md#webhook-configuration: credentials in webhook URLs are never stored in
// attempt records) still hold the receiver's Basic credentials, https://user:pass@host/…, in
// webhook_attempts.url and possibly in an error's text. They are rewritten as maskUrlCredentials
// shows them (https://user:***@host/…), and so is a delivery's last_error. The configuration keeps
// its URL: the deliveries need it. Only rows with an `@` are read; a table of millions of attempts
// is scanned once, at the upgrade.
import { maskUrlCredentials, maskUrlCredentialsInText } from '../../tools/url-credentials.ts';
import type { Migration } from './migration.ts';

export const migration019: Migration = (db) => {
  const attempts = db.prepare(`SELECT id, url, error FROM webhook_attempts WHERE url LIKE '%@%' OR error LIKE '%://%@%'`).all() as Array<{
    id: number;
    url: string | null;
    error: string | null;
  }>;
  const setAttempt = db.prepare(`UPDATE webhook_attempts SET url = ?, error = ? WHERE id = ?`);
  for (const a of attempts) {
    setAttempt.run(a.url === null ? null : maskUrlCredentials(a.url), a.error === null ? null : maskUrlCredentialsInText(a.error), a.id);
  }
  const deliveries = db.prepare(`SELECT seq, last_error FROM webhook_deliveries WHERE last_error LIKE '%://%@%'`).all() as Array<{
    seq: number;
    last_error: string;
  }>;
  const setDelivery = db.prepare(`UPDATE webhook_deliveries SET last_error = ? WHERE seq = ?`);
  for (const d of deliveries) setDelivery.run(maskUrlCredentialsInText(d.last_error), d.seq);
};
