// Bench phase `dashboard` (issue 25): the dashboard's pages on the seeded million-entry database,
// p50/p95 of each over sequential requests, and intake's p99 at full load with the campaign's live
// page fetched every 2 s beside it, against the same load without (ratio in the same run).
// Before the server starts, the seeded campaign gets a day and a bit of recent entries (one a
// second up to now, one in ten rejected), so that "today", the last 24 hours and the rejection
// reasons read real ranges rather than empty ones.
import { createSignInLink } from '../src/dashboard/sessions.ts';
import { cliActor } from '../src/audit/actor.ts';
import type { Child } from './children.ts';
import { cpf, withBenchCtx, type BenchCampaign } from './data.ts';
import type { LoadResult } from './load.ts';
import { seedEntries } from './seed.ts';
import { round } from './stats.ts';

export interface DashboardBenchDeps {
  dbPath: string;
  campaign: BenchCampaign;
  yymm: string;
  quick: boolean;
  durationS: number;
  warmupS: number;
  progress(line: string): void;
  startCes(dbPath: string): Promise<Child>;
  stop(child: Child, role: string): Promise<void>;
  intakeLoad(child: Child, campaign: BenchCampaign, o: { durationS: number }): Promise<LoadResult>;
}

const RECENT_ENTRIES = 100_000;
const REFRESH_MS = 2000;

export async function measureDashboard(d: DashboardBenchDeps): Promise<Record<string, unknown>> {
  const recent = d.quick ? 10_000 : RECENT_ENTRIES;
  const recentOffset = 950_000_000;
  d.progress(`adding ${recent} recent entries (one a second up to now, one in ten rejected)`);
  seedEntries({
    dbPath: d.dbPath,
    campaignId: d.campaign.campaignId,
    apiKeyId: d.campaign.liveKeyId,
    entries: recent,
    yymm: d.yymm,
    offset: recentOffset,
    baseMs: Date.now() - recent * 1000,
    label: 'recent',
    rejectEvery: 10,
  });
  const token = signInToken(d.dbPath);
  const ces = await d.startCes(d.dbPath);
  try {
    const signin = await fetch(`${ces.url}/dashboard/signin/${token}`, { redirect: 'manual' });
    const cookie = /ces_session=([^;]+)/.exec(signin.headers.get('set-cookie') ?? '')?.[1];
    if (signin.status !== 200 || !cookie) throw new Error(`sign-in answered ${signin.status}`);
    const get = async (path: string): Promise<{ ms: number; status: number; text: string }> => {
      const t0 = performance.now();
      const res = await fetch(ces.url + path, { headers: { cookie: `ces_session=${cookie}` }, redirect: 'manual' });
      const text = await res.text();
      return { ms: performance.now() - t0, status: res.status, text };
    };
    const c = `/dashboard/campaigns/${d.campaign.campaignId}`;
    const entries = await get(`${c}/entries`);
    const older = /href="([^"]+)" rel="next"/.exec(entries.text)?.[1]?.replaceAll('&amp;', '&');
    const entryId = /href="\/dashboard\/entries\/([0-9a-f-]{36})"/.exec(entries.text)?.[1];
    if (!older || !entryId) throw new Error('the entries page has no next page or no entry link');
    // A participant of the recent seed (two entries each), found by CPF with punctuation.
    const doc = cpf(Math.floor((recentOffset + 10) / 2));
    const pages: Record<string, string> = {
      overview: '/dashboard/',
      campaign: c,
      entries: `${c}/entries`,
      entries_rejected: `${c}/entries?status=REJECTED`,
      entries_day: `${c}/entries?from=${new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10)}`,
      entries_older_page: older,
      entries_by_cpf: `${c}/entries?q=${encodeURIComponent(`${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`)}`,
      entry: `/dashboard/entries/${entryId}`,
      keys: `${c}/keys`,
      webhook: `${c}/webhook`,
      webhook_failed: `${c}/webhook?status=failed`,
      prizes: `${c}/prizes`,
      participants: `${c}/participants`,
      exports: `${c}/exports`,
      settings: `${c}/settings`,
      audit: '/dashboard/audit',
      audit_campaign: `/dashboard/audit?campaign=${d.campaign.campaignId}`,
    };
    const samples = d.quick ? 10 : 40;
    const figures: Record<string, unknown> = { recent_entries: recent, samples_per_page: samples };
    for (const [name, path] of Object.entries(pages)) {
      for (let i = 0; i < 3; i++) await get(path);
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const r = await get(path);
        if (r.status !== 200) throw new Error(`${name} (${path}) answered ${r.status}`);
        times.push(r.ms);
      }
      figures[`${name}_p50_ms`] = round(quantile(times, 0.5), 1);
      figures[`${name}_p95_ms`] = round(quantile(times, 0.95), 1);
    }
    // Without, then with, twice over (A B A B): a shared machine drifts between two windows, and
    // the pairs show how far; the ratio is of the two rounds' mean p99s.
    const rounds = d.quick ? 1 : 2;
    d.progress(`intake without, then with, the live page fetched every 2 s (${rounds} rounds)`);
    await d.intakeLoad(ces, d.campaign, { durationS: d.warmupS });
    const without: LoadResult[] = [];
    const withPage: LoadResult[] = [];
    const fetched: number[] = [];
    for (let round = 0; round < rounds; round++) {
      without.push(await d.intakeLoad(ces, d.campaign, { durationS: d.durationS }));
      let running = true;
      const refresher = (async () => {
        while (running) {
          const r = await get(c);
          if (r.status !== 200) throw new Error(`the live page answered ${r.status} under load`);
          fetched.push(r.ms);
          await new Promise((resolve) => setTimeout(resolve, REFRESH_MS));
        }
      })();
      withPage.push(await d.intakeLoad(ces, d.campaign, { durationS: d.durationS }));
      running = false;
      await refresher;
    }
    for (const r of [...without, ...withPage])
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`intake beside the dashboard: ${r.non2xx} non-2xx, ${r.errors} errors`);
    const mean = (rs: LoadResult[], f: (r: LoadResult) => number): number => rs.reduce((n, r) => n + f(r), 0) / rs.length;
    figures.intake_p99_ms_without_dashboard = without.map((r) => r.p99);
    figures.intake_p99_ms_with_live_page_every_2s = withPage.map((r) => r.p99);
    figures.intake_p99_ratio = round(
      mean(withPage, (r) => r.p99) /
        Math.max(
          1,
          mean(without, (r) => r.p99),
        ),
      2,
    );
    figures.intake_rps_without_dashboard = without.map((r) => round(r.rps));
    figures.intake_rps_with_live_page_every_2s = withPage.map((r) => round(r.rps));
    figures.live_page_fetches_under_load = fetched.length;
    figures.live_page_p95_ms_under_load = round(quantile(fetched, 0.95), 1);
    return figures;
  } finally {
    await d.stop(ces, 'dashboard');
  }
}

/** A sign-in link's token, written into the database as `ces dashboard link` would. */
function signInToken(dbPath: string): string {
  return withBenchCtx(dbPath, (ctx) => {
    return createSignInLink(ctx, { name: 'bench', ttlMinutes: 60 }, cliActor('bench')).token;
  });
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
