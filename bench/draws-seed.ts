// The draws benchmark's database: a campaign of 200 series whose entries hold `numbers` lucky
// numbers, 20 an entry (so 20 million numbers are a million entries), written straight into the
// file as bench/seed.ts writes entries. What processing leaves behind for the freeze to read:
// enrollments (one per two entries), evaluated entries, their receipts and their lucky numbers,
// each number with its entry's evaluation time. A few rows are there to be left out, so that
// every filter of the eligibility query does real work: rejected entries, anonymised participants
// and numbers given after the cut-off. Pairs are given in a scattered order (a bijection of the
// campaign's 20 million pairs), as the automatic allocation's shuffle gives them, so the
// lucky_numbers table holds them in allocation order and its primary key in (series, element)
// order, as in a real file. lucky_pools is not written: no allocation runs on this file (the
// benchmark's server runs with its tick stopped).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { cliActor } from '../src/audit/actor.ts';
import { createCampaign } from '../src/campaigns/campaigns.ts';
import { issueKey } from '../src/keys/keys.ts';
import { formatPair } from '../src/mechanics/lucky-pairs.ts';
import { cryptoRandom, uuidv7 } from '../src/kernel/random.ts';
import { accessKey, cpf, labelUuid, withBenchCtx } from './data.ts';

export const DRAW_SERIES = 200;
export const NUMBERS_PER_ENTRY = 20;
const PAIRS = DRAW_SERIES * 100_000;
/** Prime to PAIRS (20,000,000 = 2^8 x 5^7): k -> (k x STRIDE + 12,345) mod PAIRS is a bijection. */
const STRIDE = 7_777_777;
/** One entry in REJECT_EVERY is rejected (0.5 %). */
const REJECT_EVERY = 200;
/** One enrollment in ANONYMISE_EVERY is anonymised (0.1 % of participants, two entries each). */
const ANONYMISE_EVERY = 1000;
/** The last entries, 0.4 % of them, are evaluated after the cut-off. */
const AFTER_CUTOFF_SHARE = 0.004;

export interface DrawSeed {
  dbPath: string;
  campaignId: string;
  liveKey: string;
  /** The draw's cut-off: every number of the seed but the last 0.4 % was given before it. */
  cutoff: string;
  numbers: number;
  entries: number;
  /** Numbers the freeze must find eligible, counted by the seed from its own rules. */
  eligible: number;
  /** SHA-256 of the canonical list of those numbers, computed here without src/draws/. */
  sha256: string;
  seedSeconds: number;
}

/** The k-th pair given out: series and element. */
export function pairAt(k: number): [series: number, element: number] {
  const p = (k * STRIDE + 12_345) % PAIRS;
  return [Math.floor(p / 100_000), p % 100_000];
}

export function seedDrawDatabase(o: { dbPath: string; numbers: number; nowMs: number; onProgress?: (done: number) => void }): DrawSeed {
  if (!Number.isInteger(o.numbers / NUMBERS_PER_ENTRY) || o.numbers > PAIRS)
    throw new Error(`numbers must be a multiple of ${NUMBERS_PER_ENTRY} up to ${PAIRS}`);
  const started = performance.now();
  const { campaignId, liveKey, liveKeyId } = createDrawCampaign(o.dbPath);
  const entries = o.numbers / NUMBERS_PER_ENTRY;
  const afterCutoff = Math.ceil(entries * AFTER_CUTOFF_SHARE);
  const before = entries - afterCutoff;
  // Entries over the 60 days before the cut-off, an hour ago; the late ones in the half hour after it.
  const cutoffMs = o.nowMs - 3_600_000;
  const step = (60 * 86_400_000) / before;
  const lateStep = 1_800_000 / afterCutoff;
  const eligibleBits = new Uint8Array(PAIRS / 8);
  let eligible = 0;

  const db = new Database(o.dbPath);
  // No journal while seeding (a failed seed is written again from scratch): the WAL would hold
  // every page the scattered primary key touches once more; the file is made WAL again at the end.
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  // The primary key of 20 million numbers (about 1 GB) is written in scattered order: kept in the
  // cache, the seed writes each of its pages once instead of once per insert.
  db.pragma(`cache_size = -${Math.max(262_144, Math.ceil(o.numbers / 10))}`);
  db.pragma('foreign_keys = OFF');
  try {
    const insertEnrollment = db.prepare(`INSERT INTO enrollments (id, campaign_id, livemode, document_type, document_number, full_name,
        anonymized_at, created_at, updated_at) VALUES (?, ?, 1, 'cpf', ?, ?, ?, ?, ?)`);
    const insertEntry = db.prepare(`INSERT INTO entries (id, campaign_id, livemode, idempotency_key, enrollment_id, api_key_id, status,
        evidence_type, access_key, rejection_reasons, mechanics, created_at, processed_at, evaluated_at)
      VALUES (?, ?, 1, ?, ?, ?, ?, 'fiscal_key', ?, ?, ?, ?, ?, ?)`);
    const insertReceipt = db.prepare(`INSERT INTO receipts (campaign_id, livemode, access_key, entry_rowid) VALUES (?, 1, ?, ?)`);
    const insertNumber = db.prepare(`INSERT INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
      VALUES (?, 1, ?, ?, ?, 'auto', ?)`);
    const rejected = JSON.stringify([{ code: 'duplicate_receipt', message: 'This access key was already used in this campaign.' }]);
    const batch = 10_000;
    let enrollmentId = '';
    let anonymised = false;
    // One transaction: each page of the scattered primary key is written to the file once, at the end.
    db.exec('BEGIN');
    for (let start = 0; start < entries; start += batch) {
      {
        for (let n = start; n < Math.min(start + batch, entries); n++) {
          const atMs = Math.floor(n < before ? cutoffMs - (before - n) * step : cutoffMs + (n - before + 1) * lateStep);
          const at = new Date(atMs).toISOString();
          if (n % 2 === 0) {
            const k = n / 2;
            enrollmentId = uuidv7(cryptoRandom, atMs);
            anonymised = k % ANONYMISE_EVERY === ANONYMISE_EVERY - 1;
            insertEnrollment.run(
              enrollmentId,
              campaignId,
              anonymised ? `anon_${labelUuid(`draws-${k}`)}` : cpf(k),
              anonymised ? null : 'Participante de Teste',
              anonymised ? at : null,
              at,
              at,
            );
          }
          const entryId = uuidv7(cryptoRandom, atMs);
          const reject = n % REJECT_EVERY === REJECT_EVERY - 1;
          const key = accessKey(n, '2611');
          const pairs = Array.from({ length: NUMBERS_PER_ENTRY }, (_, j) => pairAt(n * NUMBERS_PER_ENTRY + j));
          const mechanics = reject
            ? '[]'
            : JSON.stringify([
                { mechanic_type: 'lucky_numbers', status: 'APPROVED', outcome: { numbers: pairs.map(([s, e]) => formatPair(s, e)) } },
              ]);
          const { lastInsertRowid } = insertEntry.run(
            entryId,
            campaignId,
            labelUuid(`draws-${n}`),
            enrollmentId,
            liveKeyId,
            reject ? 'REJECTED' : 'APPROVED',
            key,
            reject ? rejected : '[]',
            mechanics,
            at,
            at,
            at,
          );
          if (!reject) insertReceipt.run(campaignId, key, lastInsertRowid);
          // A rejected entry keeps no numbers in ces, but a number held by one must still be left
          // out: the numbers of rejected entries here stand for an entry rejected after allocation.
          const counts = !reject && !anonymised && n < before;
          for (const [series, element] of pairs) {
            insertNumber.run(campaignId, series, element, entryId, at);
            if (counts) {
              const p = series * 100_000 + element;
              eligibleBits[p >> 3]! |= 1 << (p & 7);
              eligible++;
            }
          }
        }
      }
      o.onProgress?.(Math.min(start + batch, entries) * NUMBERS_PER_ENTRY);
    }
    db.prepare(`UPDATE receipts_indexed SET through_rowid = (SELECT max(rowid) FROM entries) WHERE id = 1`).run();
    db.exec('COMMIT');
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  const fd = openSync(o.dbPath, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return {
    dbPath: o.dbPath,
    campaignId,
    liveKey,
    cutoff: new Date(cutoffMs).toISOString(),
    numbers: o.numbers,
    entries,
    eligible,
    sha256: canonicalListSha256(eligibleBits),
    seedSeconds: (performance.now() - started) / 1000,
  };
}

/** The campaign, as `ces campaign create --lucky-numbers auto --lucky-quantity 20 --series-count 200` and `ces key issue` make it. */
function createDrawCampaign(dbPath: string): { campaignId: string; liveKey: string; liveKeyId: string } {
  return withBenchCtx(dbPath, (ctx) => {
    const campaign = createCampaign(
      ctx,
      { name: 'Draws benchmark', luckyNumbers: 'auto', luckyQuantity: NUMBERS_PER_ENTRY, seriesCount: DRAW_SERIES },
      cliActor('bench'),
    );
    const key = issueKey(ctx, { campaignId: campaign.id, mode: 'live' }, cliActor('bench'));
    return { campaignId: campaign.id, liveKey: key.key, liveKeyId: key.id };
  });
}

/**
 * The canonical list (docs/operations.md#the-steps): one line `SSS/EEEEE\n` per number, ascending,
 * the series padded to the digits of 199. Written here from the seed's own bitmap, so the freeze's
 * SHA-256 is checked against an independent computation.
 */
function canonicalListSha256(bits: Uint8Array): string {
  const hash = createHash('sha256');
  const line = 10;
  const out = Buffer.allocUnsafe(100_000 * line);
  for (let series = 0; series < DRAW_SERIES; series++) {
    const prefix = `${String(series).padStart(3, '0')}/`;
    let at = 0;
    for (let element = 0; element < 100_000; element++) {
      const p = series * 100_000 + element;
      if ((bits[p >> 3]! & (1 << (p & 7))) === 0) continue;
      out.write(`${prefix}${String(element).padStart(5, '0')}\n`, at, 'latin1');
      at += line;
    }
    hash.update(out.subarray(0, at));
  }
  return hash.digest('hex');
}
