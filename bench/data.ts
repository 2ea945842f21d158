// What the benchmark sends and stores: valid, distinct entry bodies (every request its own
// Idempotency-Key and fiscal access key; participants send two entries each, so half of the
// requests create an enrollment and half merge into one), and the campaign it targets, made with
// the same domain functions the CLI uses. The values a client chooses (Idempotency-Keys as UUIDv4,
// CPFs, access keys) fall all over their indexes, as they do when thousands of people in thousands
// of shops take part: in sequence, they would cost the database far less than real traffic does.
import { cliActor } from '../src/audit/actor.ts';
import { openLoop, type OpenLoopResult } from './open-loop.ts';
import { createHash } from 'node:crypto';
import { createCampaign } from '../src/campaigns/campaigns.ts';
import { systemClock } from '../src/kernel/clock.ts';
import type { Ctx } from '../src/kernel/context.ts';
import { openDatabase } from '../src/db/open.ts';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import { issueKey } from '../src/keys/keys.ts';
import { createSilentLogger } from '../src/kernel/log.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { cryptoRandom } from '../src/kernel/random.ts';

/**
 * A bijection of [0, 10^9): i times 387,420,489 (3^18, prime to 10^9) modulo 10^9, computed in two
 * halves so that no product leaves the safe integers. Consecutive numbers land far apart, as the
 * documents and access keys of real participants do; numbered in sequence, every insert of a run
 * went to the same few pages of each index, which hid what a large database costs.
 */
function scatter(i: number): number {
  const m = 1_000_000_000;
  const x = i % m;
  return (((((x * 3874) % m) * 100_000) % m) + ((x * 20_489) % m)) % m;
}

/** A valid CPF for every i in [0, 10^9): the 9-digit base is i scattered, then the two check digits. */
export function cpf(i: number): string {
  const base = String(scatter(i)).padStart(9, '0');
  const digits = base.split('').map(Number);
  if (digits.every((d) => d === digits[0])) digits[8] = (digits[8] + 1) % 10; // 111.111.111-xx is invalid
  for (const len of [9, 10]) {
    let sum = 0;
    for (let k = 0; k < len; k++) sum += digits[k] * (len + 1 - k);
    const r = (sum * 10) % 11;
    digits.push(r === 10 ? 0 : r);
  }
  return digits.join('');
}

/** The issue month of the current real date, so processing finds the purchase plausible. */
export function currentYymm(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(2, 7).replace('-', '');
}

/** A distinct, valid NFC-e access key for every n in [0, 10^17), its number scattered. */
export function accessKey(n: number, yymm: string): string {
  return makeAccessKey({
    yymm,
    number: String(scatter(n)).padStart(9, '0'),
    cnf: String(10_000_000 + (Math.floor(n / 1_000_000_000) % 90_000_000)),
  });
}

export interface BodyOptions {
  /** Prefix of every Idempotency-Key (distinct per phase). */
  tag: string;
  /** Offset of participant and access-key numbers (distinct per phase). */
  offset: number;
  yymm: string;
}

/**
 * A UUIDv4 made from `label` by hashing: random across the index, like the v4 keys docs/api.md#entry-submission recommends
 * to integrators, and the same for the same label, so a replay phase can send a key again.
 */
export function labelUuid(label: string): string {
  const b = createHash('md5').update(label).digest();
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The body and Idempotency-Key of request n of a phase. */
export function entryRequest(n: number, o: BodyOptions): { body: string; idempotencyKey: string } {
  const i = o.offset + n;
  const body = {
    enrollment: { document_number: cpf(Math.floor(i / 2)), full_name: 'Participante de Teste' },
    consent: {
      granted_at: '2026-11-20T09:00:00-03:00',
      ip_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) ces-bench',
      term_version: 'v1',
      consents: [{ consent_type: 'marketing', granted: true }],
    },
    evidence: { type: 'fiscal_key', access_key: accessKey(i, o.yymm) },
  };
  return { body: JSON.stringify(body), idempotencyKey: labelUuid(`${o.tag}-${n}`) };
}

export interface BenchCampaign {
  campaignId: string;
  liveKey: string;
  liveKeyId: string;
}

/** Runs `run` with a context on the file at `dbPath` (opened, migrated, closed after), as a `ces` command has. */
export function withBenchCtx<T>(dbPath: string, run: (ctx: Ctx) => T): T {
  const db = openDatabase(dbPath);
  try {
    return run({
      db,
      clock: systemClock,
      random: cryptoRandom,
      config: loadConfig({ db: dbPath, logFormat: 'json' }, {}, false),
      log: createSilentLogger(),
    });
  } finally {
    db.close();
  }
}

/** Creates the database file with one open campaign and one live key, as `ces campaign create` + `ces key issue` would. */
export function createBenchCampaign(dbPath: string): BenchCampaign {
  return withBenchCtx(dbPath, (ctx) => {
    const campaign = createCampaign(ctx, { name: 'Benchmark campaign' }, cliActor('bench'));
    const key = issueKey(ctx, { campaignId: campaign.id, mode: 'live' }, cliActor('bench'));
    return { campaignId: campaign.id, liveKey: key.key, liveKeyId: key.id };
  });
}

/** Open-loop entries to `campaign` at `ratePerS` for `durationS`, with `options`' keys and numbers. */
export function openLoopIntake(
  url: string,
  campaign: BenchCampaign,
  options: BodyOptions,
  ratePerS: number,
  durationS: number,
): Promise<OpenLoopResult> {
  return openLoop({
    url,
    path: '/v1/entries',
    ratePerS,
    durationS,
    headers: { authorization: `Bearer ${campaign.liveKey}` },
    next: (i) => {
      const { body, idempotencyKey } = entryRequest(i, options);
      return { body, headers: { 'idempotency-key': idempotencyKey } };
    },
  });
}
