// Helpers for the mechanics suites: submit entries through the real HTTP API, let the real
// pipeline process and evaluate them, and read back what the integrator and operator see.
import assert from 'node:assert/strict';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { findPrizeById } from '../../src/mechanics/prizes.repo.ts';
import { drainAll, entryBody, type TestServer } from './harness.ts';

let counter = 0;

/** A distinct participant and receipt per call (i picks the CPF and the access-key number). */
export function nextIndex(): number {
  return ++counter;
}

/** POST /v1/entries and assert 202; returns the entry id. */
export async function submitEntry(
  s: TestServer,
  key: string,
  options: { i?: number; instantWin?: unknown; rejectInTest?: boolean } = {},
): Promise<string> {
  const i = options.i ?? nextIndex();
  const patch: Parameters<typeof entryBody>[0] = {};
  if (options.instantWin !== undefined) patch.instant_win = options.instantWin;
  if (options.rejectInTest) {
    // Test-mode trigger cNF 99999901: processing rejects the entry (simulated fiscal failure).
    patch.evidence = { access_key: makeAccessKey({ yymm: '2611', number: String(100000000 + i).slice(-9), cnf: '99999901' }) };
  }
  const res = await s.request('POST', '/v1/entries', { key, idempotencyKey: `idem-${i}`, body: entryBody(patch, i) });
  assert.equal(res.status, 202, res.text);
  return res.body.entry_id as string;
}

/** Processes and evaluates everything queued, through the real pipeline ticks. */
export async function settle(s: TestServer): Promise<void> {
  await drainAll(s);
}

export async function viewEntry(s: TestServer, key: string, entryId: string): Promise<any> {
  const res = await s.request('GET', `/v1/entries/${entryId}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** The mechanic of one type in the entry's evaluation, or undefined. */
export async function mechanicOf(s: TestServer, key: string, entryId: string, type: 'lucky_numbers' | 'instant_prize'): Promise<any> {
  const view = await viewEntry(s, key, entryId);
  assert.ok(view.mechanics, `entry ${entryId} was not evaluated (status ${view.status})`);
  return view.mechanics.find((m: { mechanic_type: string }) => m.mechanic_type === type);
}

export function stockOf(s: TestServer, prizeId: string): { current_stock: number; awarded_beyond_pool: number } {
  const p = findPrizeById(s.ctx.db, prizeId)!;
  return { current_stock: p.current_stock, awarded_beyond_pool: p.awarded_beyond_pool };
}

/**
 * `count` entries of as many participants, consented and bought on 2023-01-10 (the draw tests'
 * day), each with its own fiscal key: participant i has document `firstDocument + i` and key
 * number `firstKey + i`. Each must be accepted (202); not settled.
 */
export async function submitDrawEntries(
  s: TestServer,
  key: string,
  o: { count: number; firstDocument: number; firstKey: number; idempotencyPrefix: string },
): Promise<void> {
  for (let i = 0; i < o.count; i++) {
    const body = entryBody(
      {
        consent: { granted_at: '2023-01-10T09:00:00-03:00' },
        evidence: { access_key: makeAccessKey({ yymm: '2301', number: String(o.firstKey + i).padStart(9, '0') }) },
      },
      o.firstDocument + i,
    );
    const res = await s.request('POST', '/v1/entries', { key, idempotencyKey: `${o.idempotencyPrefix}-${i}`, body });
    assert.equal(res.status, 202, res.text);
  }
}
