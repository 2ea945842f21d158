// Fast bulk seeding for tests of exports and stats: rows written through the repositories' insert
// functions in one transaction (no HTTP, no pipeline), so 100k entries take seconds. The rows are
// shaped like intake's: an enrollment, an entry and its consent record, optionally an award and
// lucky numbers.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { insertEnrollment } from '../../src/entries/enrollments.repo.ts';
import { insertConsent, insertEntry, type EntryStatus } from '../../src/entries/entries.repo.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { insertAward } from '../../src/mechanics/awards.repo.ts';
import { insertLuckyNumber } from '../../src/mechanics/lucky-numbers.repo.ts';
import { seededRandom } from '../../src/kernel/random.ts';

/** A context on a fresh database file in a temp folder (no server). */
export function openTestCtx(seed = 1): { ctx: Ctx; dir: string; dbPath: string; clock: ManualClock } {
  const dir = mkdtempSync(join(tmpdir(), 'ces-seed-'));
  const dbPath = join(dir, 'ces.db');
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const config = loadConfig({ db: dbPath }, {}, false);
  // A throwaway database: no fsync per commit, so bulk seeding is bound by CPU, not the disk.
  const ctx: Ctx = {
    db: openDatabase(dbPath, { synchronous: 'NORMAL' }),
    clock,
    random: seededRandom(seed),
    config,
    log: createSilentLogger(),
  };
  ctx.db.pragma('synchronous = OFF');
  ctx.db.pragma('cache_size = -65536');
  return { ctx, dir, dbPath, clock };
}

const CHUNK = 10_000;

export interface SeedSpec {
  campaignId: string;
  livemode?: number;
  count: number;
  /** Index offset so that two seeds in one campaign get distinct documents and keys. */
  from?: number;
  status?: (i: number) => EntryStatus;
  name?: (i: number) => string | null;
  createdAt?: (i: number) => string;
  /** Prize id for entries that get an awarded award, or null for none. */
  award?: (i: number) => string | null;
  /** Lucky numbers [series, order] for the entry. */
  lucky?: (i: number) => Array<[number, number]>;
  rejection?: (i: number) => Array<{ code: string; message: string }>;
  /** The entry's fiscal access key (default: one of its own, from i). */
  accessKey?: (i: number) => string;
  /** The consent's granted_at as the integrator sent it (default: the entry's created_at, in UTC). */
  grantedAt?: (i: number) => string;
  /** Every entry by one participant with this (valid) document number, instead of one participant per entry. */
  oneParticipant?: string;
}

export function seedEntries(ctx: Ctx, spec: SeedSpec): string[] {
  const livemode = spec.livemode ?? 1;
  const ids: string[] = [];
  // Committed in chunks: one transaction of 100k entries makes SQLite spill and rescan a huge WAL.
  const writeChunk = ctx.db.transaction((start: number, end: number) => {
    for (let k = start; k < end; k++) {
      const i = (spec.from ?? 0) + k;
      const at = spec.createdAt?.(i) ?? '2026-11-22T12:00:00.000Z';
      const enrollmentId = `enr-${spec.campaignId.slice(0, 8)}-${livemode}-${spec.oneParticipant ?? i}`;
      const entryId = `ent-${spec.campaignId.slice(0, 8)}-${livemode}-${i}`;
      if (!spec.oneParticipant || k === 0)
        insertEnrollment(ctx.db, {
          id: enrollmentId,
          campaign_id: spec.campaignId,
          livemode,
          document_type: 'cpf',
          document_number: spec.oneParticipant ?? String(10000000000 + i),
          full_name: spec.name ? spec.name(i) : `Participant ${i}`,
          email: `p${i}@example.com`,
          phone: String(5511900000000 + i),
          birthdate: '1990-01-01',
          address_line_1: null,
          address_line_2: null,
          neighborhood: null,
          city: 'São Paulo',
          state: 'SP',
          zipcode: null,
          country: 'BR',
          created_at: at,
          updated_at: at,
        });
      const status = spec.status?.(i) ?? 'APPROVED';
      insertEntry(ctx.db, {
        id: entryId,
        campaign_id: spec.campaignId,
        livemode,
        idempotency_key: `idem-${i}`,
        enrollment_id: enrollmentId,
        api_key_id: null,
        status,
        evidence_type: 'fiscal_key',
        access_key: spec.accessKey?.(i) ?? String(i).padStart(44, '3'),
        rejection_reasons: JSON.stringify(spec.rejection?.(i) ?? []),
        declared_win: null,
        created_at: at,
        processed_at: status === 'PENDING' ? null : at,
      });
      insertConsent(ctx.db, {
        entry_id: entryId,
        enrollment_id: enrollmentId,
        granted_at: spec.grantedAt?.(i) ?? at,
        ip_address: '203.0.113.7',
        user_agent: 'seed',
        term_version: 'v1',
        choices: [{ consent_type: 'regulation', granted: true, explicit: false }],
        created_at: at,
      });
      const prizeId = spec.award?.(i) ?? null;
      if (prizeId) {
        insertAward(ctx.db, {
          id: `awd-${entryId}`,
          entry_id: entryId,
          campaign_id: spec.campaignId,
          livemode,
          prize_id: prizeId,
          source: 'declared',
          window_id: null,
          status: 'awarded',
          beyond_pool: 0,
          created_at: at,
          updated_at: at,
        });
      }
      for (const [series, order] of spec.lucky?.(i) ?? []) {
        insertLuckyNumber(ctx.db, {
          campaign_id: spec.campaignId,
          livemode,
          series,
          order_number: order,
          entry_id: entryId,
          source: 'auto',
          created_at: at,
        });
      }
      ids.push(entryId);
    }
  });
  for (let start = 0; start < spec.count; start += CHUNK) writeChunk(start, Math.min(spec.count, start + CHUNK));
  return ids;
}
