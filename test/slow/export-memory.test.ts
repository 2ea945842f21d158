// ces entries export keeps memory flat: the peak RSS of a real `ces entries export` process
// exporting 100k entries is compared with that of exporting 10k from the same database (the format
// and filters are in test/export.test.ts).
import { parse } from 'csv-parse/sync';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EXPORT_COLUMNS } from '../../src/exports/entries-export.ts';
import { makeCampaign, makePrize, ROOT } from '../support/harness.ts';
import { openTestCtx, seedEntries } from '../support/seed-entries.ts';

/** Runs the CLI and samples the child's peak RSS (VmHWM) from /proc until it exits. */
function exportPeakRss(args: string[]): Promise<{ code: number | null; peakKb: number; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/ces.ts'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let peakKb = 0;
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const sample = (): void => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      // the process has just exited
    }
  };
  const timer = setInterval(sample, 5);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, peakKb, stderr });
    }),
  );
}

describe('entries export: memory stays flat', () => {
  let dir: string;
  let dbPath: string;
  let small: string;
  let large: string;

  before(() => {
    const opened = openTestCtx();
    ({ dir, dbPath } = opened);
    const { ctx } = opened;
    small = makeCampaign(ctx).campaign.id;
    large = makeCampaign(ctx).campaign.id;
    const prizeId = makePrize(ctx, large, 'live', 1000).id;
    seedEntries(ctx, { campaignId: small, count: 10_000, lucky: (i) => [[0, i % 100000]] });
    seedEntries(ctx, {
      campaignId: large,
      count: 100_000,
      lucky: (i) => [[0, i % 100000]],
      award: (i) => (i % 100 === 0 ? prizeId : null),
      name: (i) => `Participant "${i}", of the large campaign`,
    });
    ctx.db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('exporting 100k entries to CSV peaks within 25 MB of exporting 10k, and the file has every row', async (t) => {
    const smallRun = await exportPeakRss(['entries', 'export', '--campaign', small, '--out', join(dir, 'small.csv'), '--db', dbPath]);
    const largeRun = await exportPeakRss(['entries', 'export', '--campaign', large, '--out', join(dir, 'large.csv'), '--db', dbPath]);
    assert.equal(smallRun.code, 0, smallRun.stderr);
    assert.equal(largeRun.code, 0, largeRun.stderr);
    t.diagnostic(`peak RSS: 10k rows ${(smallRun.peakKb / 1024).toFixed(1)} MB, 100k rows ${(largeRun.peakKb / 1024).toFixed(1)} MB`);
    assert.ok(smallRun.peakKb > 0 && largeRun.peakKb > 0, 'RSS was sampled');
    assert.ok(
      largeRun.peakKb - smallRun.peakKb < 25 * 1024,
      `peak grew by ${((largeRun.peakKb - smallRun.peakKb) / 1024).toFixed(1)} MB for 10x the rows`,
    );
    const records: string[][] = parse(readFileSync(join(dir, 'large.csv'), 'utf8'));
    assert.equal(records.length, 100_001);
    assert.equal(records[1][EXPORT_COLUMNS.indexOf('full_name')], 'Participant "0", of the large campaign');
    assert.equal(records.filter((r) => r[EXPORT_COLUMNS.indexOf('award_status')] === 'awarded').length, 1000);
  });
});
