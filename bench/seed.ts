// Fast, direct seeding of a large campaign for the "cost with size" figure: rows shaped like the
// ones intake and the pipeline write (an enrollment per two entries, the entry already evaluated,
// its consent with its four choices, its three delivered webhook events and its access key in
// receipts, as processing leaves them), inserted with prepared
// statements in big transactions, with ids made as the server makes them (UUIDv7 of the row's
// time) and client values scattered like the load's (./data.ts). synchronous=OFF is for this
// offline seed only; the server that is measured afterwards opens the file with its own pragmas
// (synchronous=FULL).
import Database from 'better-sqlite3';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { cryptoRandom, uuidv7 } from '../src/kernel/random.ts';
import { accessKey, cpf, labelUuid } from './data.ts';

export interface SeedOptions {
  dbPath: string;
  campaignId: string;
  apiKeyId: string;
  entries: number;
  yymm: string;
  /** Participant numbers start here, away from those the load will send. */
  offset: number;
  /** The first entry's time (one entry a second from there); default 2026-11-01T00:00:00Z. */
  baseMs?: number;
  /** Prefix of the idempotency keys, distinct for each seed into one campaign (default 'seed'). */
  label?: string;
  /** Every n-th entry is REJECTED (duplicate_receipt) instead of APPROVED; default none. */
  rejectEvery?: number;
  /**
   * Entries before this index are seeded without their webhook events, as the retention rule
   * leaves old entries (CES_RETENTION_DAYS); default 0, every entry with its three.
   */
  deliveriesFrom?: number;
  onProgress?: (done: number) => void;
}

export function seedEntries(o: SeedOptions): { seconds: number } {
  const started = performance.now();
  const db = new Database(o.dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  // The seed writes consistent rows by construction; checking every reference would double its time.
  db.pragma('foreign_keys = OFF');
  db.pragma('locking_mode = EXCLUSIVE');
  try {
    const insertEnrollment =
      db.prepare(`INSERT INTO enrollments (id, campaign_id, livemode, document_type, document_number, full_name, created_at, updated_at)
      VALUES (?, ?, 1, 'cpf', ?, 'Participante de Teste', ?, ?)`);
    const insertEntry =
      db.prepare(`INSERT INTO entries (id, campaign_id, livemode, idempotency_key, enrollment_id, api_key_id, status, evidence_type,
      access_key, rejection_reasons, mechanics, created_at, processed_at, evaluated_at)
      VALUES (?, ?, 1, ?, ?, ?, ?, 'fiscal_key', ?, ?, '[]', ?, ?, ?)`);
    const rejected = JSON.stringify([{ code: 'duplicate_receipt', message: 'This access key was already used in this campaign.' }]);
    // What intake stores for the bench's bodies: marketing granted explicitly, the three implicit ones.
    const choices = JSON.stringify([
      { consent_type: 'marketing', granted: true, explicit: true },
      ...['regulation', 'privacy_policy', 'transactional'].map((consent_type) => ({ consent_type, granted: true, explicit: false })),
    ]);
    const insertConsent =
      db.prepare(`INSERT INTO consents (entry_id, enrollment_id, granted_at, ip_address, user_agent, term_version, choices, created_at)
      VALUES (?, ?, '2026-11-20T09:00:00-03:00', '203.0.113.7', 'Mozilla/5.0 (X11; Linux x86_64) ces-bench', 'v1', ?, ?)`);
    const insertDelivery =
      db.prepare(`INSERT INTO webhook_deliveries (id, campaign_id, livemode, entry_id, event_type, payload, status, attempts, created_at, delivered_at)
      VALUES (?, ?, 1, ?, ?, ?, 'delivered', 1, ?, ?)`);
    const insertReceipt = db.prepare(`INSERT INTO receipts (campaign_id, livemode, access_key, entry_rowid) VALUES (?, 1, ?, ?)`);
    const base = o.baseMs ?? Date.parse('2026-11-01T00:00:00.000Z');
    const label = o.label ?? 'seed';
    const batch = 20_000;
    let enrollmentId = '';
    for (let start = 0; start < o.entries; start += batch) {
      db.transaction(() => {
        for (let n = start; n < Math.min(start + batch, o.entries); n++) {
          const i = o.offset + n;
          const atMs = base + n * 1000;
          const at = new Date(atMs).toISOString();
          if (n % 2 === 0) {
            enrollmentId = uuidv7(cryptoRandom, atMs);
            insertEnrollment.run(enrollmentId, o.campaignId, cpf(Math.floor(i / 2)), at, at);
          }
          const entryId = uuidv7(cryptoRandom, atMs);
          const key = accessKey(i, o.yymm);
          const reject = o.rejectEvery !== undefined && n % o.rejectEvery === o.rejectEvery - 1;
          const { lastInsertRowid } = insertEntry.run(
            entryId,
            o.campaignId,
            labelUuid(`${label}-${n}`),
            enrollmentId,
            o.apiKeyId,
            reject ? 'REJECTED' : 'APPROVED',
            key,
            reject ? rejected : '[]',
            at,
            at,
            at,
          );
          insertReceipt.run(o.campaignId, key, lastInsertRowid);
          insertConsent.run(entryId, enrollmentId, choices, at);
          if (n < (o.deliveriesFrom ?? 0)) continue;
          for (const [eventType, data] of [
            ['entry.received', { entry_id: entryId, enrollment_id: enrollmentId, status: 'PENDING' }],
            [
              'entry.completed',
              { entry_id: entryId, enrollment_id: enrollmentId, status: reject ? 'REJECTED' : 'APPROVED', rejection_reasons: [] },
            ],
            ['entry.evaluated', { entry_id: entryId, enrollment_id: enrollmentId, mechanics: [] }],
          ] as const) {
            const id = `evt_${uuidv7(cryptoRandom, atMs).replaceAll('-', '')}`;
            const payload = JSON.stringify({ id, event_type: eventType, created_at: at, livemode: true, campaign_id: o.campaignId, data });
            insertDelivery.run(id, o.campaignId, entryId, eventType, payload, at, at);
          }
        }
      })();
      o.onProgress?.(Math.min(start + batch, o.entries));
    }
    db.prepare(`UPDATE receipts_indexed SET through_rowid = (SELECT max(rowid) FROM entries) WHERE id = 1`).run();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  // With synchronous=OFF the pages are still only in the page cache: flush them now, so that the
  // kernel's writeback of gigabytes does not run during the phases measured next.
  syncFile(o.dbPath);
  return { seconds: (performance.now() - started) / 1000 };
}

/** fsync of the file at `path`: what a write with synchronous=OFF left in the page cache goes to the disk now. */
export function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
