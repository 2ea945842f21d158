// docs/operations.md "Running a draw", walked through as the page tells it: a campaign of 100
// series with automatic lucky numbers, 300 entries through the API, then `ces draw` on the real
// extraction 5732 of the Loteria Federal (18/01/2023: 050366, 033514, 045504, 094365, 051105).
// Time is a ManualClock set to January 2023, so that extraction can decide the draw; the numbers
// come from a seeded random source, so the outcome the page shows is the one this test computes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../src/kernel/clock.ts';
import { makeCampaign, ROOT, runCli, startTestServer } from './support/harness.ts';
import { settle, submitDrawEntries } from './support/mechanics.ts';

const PAGE = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

/** The lines of the page's fenced block that follows `marker`. */
function blockAfter(marker: string): string {
  const at = PAGE.indexOf(marker);
  assert.ok(at >= 0, `docs/operations.md has "${marker}"`);
  const start = PAGE.indexOf('```', at);
  const body = PAGE.indexOf('\n', start) + 1;
  return PAGE.slice(body, PAGE.indexOf('```', body));
}

test('the walk-through of docs/operations.md: extraction 5732 over 1,500 numbers in 100 series', async () => {
  const s = await startTestServer({ clock: new ManualClock('2023-01-10T12:00:00.000Z'), seed: 5732 });
  try {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 5, seriesCount: 100, name: 'Promoção Verão' });
    await submitDrawEntries(s, w.liveKey, { count: 300, firstDocument: 57_320, firstKey: 573_200, idempotencyPrefix: 'walk' });
    await settle(s);
    const ces = (args: string[]) => runCli([...args, '--db', s.dbPath], { clock: s.clock });
    const created = await ces([
      'draw',
      'create',
      '--campaign',
      w.campaign.id,
      '--mode',
      'live',
      '--name',
      'Sorteio 1',
      '--cutoff',
      '2023-01-17T23:59:59-03:00',
      '--extraction-date',
      '2023-01-18',
      '--winners',
      '3',
      '--json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const id = created.json.id as string;
    assert.equal(created.json.series_digits, '1d,2d');
    // Frozen after the cut-off and before the extraction (19:00 in Brasília, 22:00Z); the results after it.
    s.clock.set('2023-01-18T12:00:00.000Z');
    const frozen = await ces(['draw', 'freeze', id, '--json']);
    assert.equal(frozen.json.eligible_count, 1500);
    const numbers = await ces(['draw', 'numbers', id]);
    assert.equal(createHash('sha256').update(numbers.stdout).digest('hex'), frozen.json.numbers_sha256);
    s.clock.set('2023-01-18T22:30:00.000Z');
    const results = await ces([
      'draw',
      'results',
      id,
      '--extraction',
      '5732',
      '--date',
      '2023-01-18',
      '--prizes',
      '050366,033514,045504,094365,051105',
    ]);
    assert.equal(results.code, 0, results.stderr);
    const run = await ces(['draw', 'run', id]);
    assert.equal(run.code, 0, run.stderr);
    if (process.env.CES_PRINT_WALKTHROUGH) process.stderr.write(`${run.stdout}\n`);
    // The page shows this run's output; the ids differ from run to run only where the page says so.
    const shown = blockAfter('<!-- walkthrough: run -->').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID');
    assert.equal(
      run.stdout.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID').trim(),
      shown.replace(/^\$ .*\n/, '').trim(),
    );
  } finally {
    await s.close();
  }
});
