// Test harness: a real ces server (the production composition root, real HTTP on 127.0.0.1, a
// real SQLite file in a fresh temp folder) driven by a ManualClock, plus the real CLI as a child
// process on the same file. Every test builds its own world; nothing is shared between tests.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCampaign, type Campaign, type CampaignOptions } from '../../src/campaigns/campaigns.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import type { Ctx } from '../../src/context.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { issueKey } from '../../src/keys/keys.ts';
import { createSilentLogger } from '../../src/log.ts';
import { addPrize, type OperatorPrize } from '../../src/mechanics/prizes.ts';
import { seededRandom } from '../../src/random.ts';
import { startServer, type RunningServer } from '../../src/server.ts';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface TestServer {
  url: string;
  dir: string;
  dbPath: string;
  clock: ManualClock;
  ctx: Ctx;
  server: RunningServer;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Raw body text, sent as is (overrides body). */
  raw?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string | null;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface StartTestServerOptions {
  env?: Record<string, string>;
  clock?: ManualClock;
  groupCommit?: boolean;
  seed?: number;
}

let seedCounter = 1;

export async function startTestServer(options: StartTestServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ces-test-'));
  const dbPath = join(dir, 'ces.db');
  const config = loadConfig({ db: dbPath, port: 0, host: '127.0.0.1', logFormat: 'json' }, { CES_ALLOW_PRIVATE_WEBHOOKS: '1', ...options.env }, false);
  const clock = options.clock ?? new ManualClock('2026-11-22T12:00:00.000Z');
  const server = await startServer(config, createSilentLogger(), { clock, random: seededRandom(options.seed ?? seedCounter++), groupCommit: options.groupCommit, tick: false });
  const url = server.url;
  return {
    url,
    dir,
    dbPath,
    clock,
    ctx: server.service.ctx,
    server,
    request: (method, path, o = {}) => request(url, method, path, o),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function request(baseUrl: string, method: string, path: string, o: RequestOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  let body: string | undefined;
  if (o.raw !== undefined) body = o.raw;
  else if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** A campaign with one live and one test key, made through the same domain code the CLI uses. */
export interface World {
  campaign: Campaign;
  liveKey: string;
  testKey: string;
  liveKeyId: string;
  testKeyId: string;
}

export function makeCampaign(ctx: Ctx, options: CampaignOptions = {}): World {
  const campaign = createCampaign(ctx, { name: 'Test campaign', ...options });
  const live = issueKey(ctx, { campaignId: campaign.id, mode: 'live' });
  const test = issueKey(ctx, { campaignId: campaign.id, mode: 'test' });
  return { campaign, liveKey: live.key, testKey: test.key, liveKeyId: live.id, testKeyId: test.id };
}

export function makePrize(ctx: Ctx, campaignId: string, mode: 'live' | 'test', stock = 10, name = 'Voucher'): OperatorPrize {
  return addPrize(ctx, { campaignId, mode, name, type: 'voucher', unitValue: 50, stock });
}

const VALID_CPFS = ['52998224725', '11144477735', '39053344705', '16899535009', '46924262848', '74682489070', '24843803480', '71428793860'];

/** Valid CPF number i (0..): generated with correct check digits, distinct per i. */
export function cpf(i: number): string {
  if (i < VALID_CPFS.length) return VALID_CPFS[i];
  const base = String(100000000 + i * 7919).slice(-9);
  const digits = base.split('').map(Number);
  const dv = (len: number): number => {
    let sum = 0;
    for (let k = 0; k < len; k++) sum += digits[k] * (len + 1 - k);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  digits.push(dv(9));
  digits.push(dv(10));
  return digits.join('');
}

/** A valid entry body; override parts with `patch`. Access key issued in 2026-11 by default. */
export function entryBody(patch: { enrollment?: Record<string, unknown>; consent?: Record<string, unknown>; evidence?: Record<string, unknown>; instant_win?: unknown } = {}, i = 0): Record<string, unknown> {
  const body: Record<string, unknown> = {
    enrollment: { document_number: cpf(i), ...patch.enrollment },
    consent: { granted_at: '2026-11-22T09:00:00-03:00', ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0 test', term_version: 'v1', ...patch.consent },
    evidence: { type: 'fiscal_key', access_key: makeAccessKey({ yymm: '2611', number: String(100000000 + i).slice(-9) }), ...patch.evidence },
  };
  if (patch.instant_win !== undefined) body.instant_win = patch.instant_win;
  return body;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Runs the real `ces` CLI (from source, through tsx) against a database file. */
export function runCli(args: string[], options: { dbPath?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const finalArgs = options.dbPath ? [...args, '--db', options.dbPath] : args;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/ces.ts'), ...finalArgs], { cwd: ROOT, env: { ...process.env, ...options.env } }, (error, stdout, stderr) => {
      let json: unknown = undefined;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr, json });
    });
  });
}
