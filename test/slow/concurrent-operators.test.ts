// Concurrent operators: the CLI and `ces serve` share one SQLite file (WAL, busy timeout). While
// clients load the server with entries, operators run CLI writes (prize add, key revoke, campaign
// update, window add) and reads in parallel. No SQLITE_BUSY (or any 5xx) reaches an API client, and
// every CLI command exits 0 with its change visible.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { issueKey } from '../../src/keys/keys.ts';
import { entryBody, makeCampaign, makePrize, runCli, type CliResult, OPERATOR } from '../support/harness.ts';
import { killServe, openFileCtx, spawnServe, type ServeProcess } from '../support/serve-process.ts';

let dir: string | undefined;
let serve: ServeProcess | undefined;
after(async () => {
  await killServe(serve);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('CLI writes during load never surface SQLITE_BUSY to API clients or operators', { timeout: 300_000 }, async () => {
  dir = mkdtempSync(join(tmpdir(), 'ces-operators-'));
  const dbPath = join(dir, 'ces.db');
  const setup = await openFileCtx(dbPath);
  const world = makeCampaign(setup, { instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'auto' });
  const prizeId = makePrize(setup, world.campaign.id, 'live', 10_000).id;
  const windowsWorld = makeCampaign(setup, { name: 'Windows', instantPrize: 'WINDOW' });
  const windowPrize = makePrize(setup, windowsWorld.campaign.id, 'live', 10).id;
  const spareKeys = Array.from({ length: 3 }, () =>
    issueKey(setup, { campaignId: world.campaign.id, mode: 'live', label: 'spare' }, OPERATOR),
  );
  setup.db.close();
  serve = await spawnServe({ dbPath, tickMs: 10, env: { CES_RATE_LIMIT_RPS: '0', CES_AUTH_FAILURE_LIMIT: '0' } });
  const url = serve.url;

  // Load: 6 clients posting entries until the operators are done (bounded: 3000 requests, 240 s).
  let operatorsDone = false;
  const statuses = new Map<number, number>();
  let n = 0;
  const deadline = Date.now() + 240_000;
  const client = async (): Promise<void> => {
    while (!operatorsDone && n < 3000 && Date.now() < deadline) {
      const i = n++;
      const res = await fetch(`${url}/v1/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${world.liveKey}`, 'idempotency-key': `op-${i}`, 'content-type': 'application/json' },
        body: JSON.stringify(
          entryBody(i % 3 === 0 ? { instant_win: { won: true, prize_definition_id: prizeId } } : { instant_win: { won: false } }, i),
        ),
      });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      assert.equal(res.status, 202, `op-${i}: ${text}`);
    }
  };

  // Operators: three rounds of writes, each round's commands in parallel with each other and the load.
  const cli: CliResult[] = [];
  let slowest = 0;
  const run = async (args: string[]): Promise<CliResult> => {
    const t = Date.now();
    const result = await runCli([...args, '--json'], { dbPath, process: true });
    slowest = Math.max(slowest, Date.now() - t);
    cli.push(result);
    assert.equal(result.code, 0, `ces ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    assert.doesNotMatch(result.stderr + result.stdout, /SQLITE_BUSY|database is locked/i);
    return result;
  };
  const operators = async (): Promise<void> => {
    // Let the load get going first.
    while (n < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        run([
          'prize',
          'add',
          '--campaign',
          world.campaign.id,
          '--mode',
          'live',
          '--name',
          `Added ${round}`,
          '--type',
          'voucher',
          '--unit-value',
          '10',
          '--stock',
          '5',
        ]),
        run(['key', 'revoke', spareKeys[round].id]),
        run(['campaign', 'update', world.campaign.id, '--name', `Renamed ${round}`, '--ends-at', '2099-01-01T00:00:00Z']),
        run([
          'window',
          'add',
          '--campaign',
          windowsWorld.campaign.id,
          '--mode',
          'live',
          '--prize',
          windowPrize,
          '--opens-at',
          '2026-01-01T00:00:00Z',
          '--count',
          '50',
          '--every',
          '60',
        ]),
        run(['entries', 'list', '--campaign', world.campaign.id, '--limit', '5']),
      ]);
    }
    operatorsDone = true;
  };
  await Promise.all([operators(), ...Array.from({ length: 6 }, client)]);

  // The operators' changes are visible through the API.
  const prizes = (await (await fetch(`${url}/v1/prizes`, { headers: { authorization: `Bearer ${world.liveKey}` } })).json()) as Array<{
    name: string;
  }>;
  assert.deepEqual(
    prizes
      .map((p) => p.name)
      .filter((name) => name.startsWith('Added'))
      .sort(),
    ['Added 0', 'Added 1', 'Added 2'],
  );
  for (const spare of spareKeys) {
    assert.equal((await fetch(`${url}/v1/prizes`, { headers: { authorization: `Bearer ${spare.key}` } })).status, 401);
  }
  const shown = await runCli(['campaign', 'show', world.campaign.id, '--json'], { dbPath });
  assert.equal(shown.json.name, 'Renamed 2');
  serve.child.kill('SIGTERM');
  assert.deepEqual(await serve.exited, { code: 0, signal: null });
  assert.doesNotMatch(serve.output(), /SQLITE_BUSY|database is locked/i);
  assert.ok(n >= 50, `only ${n} requests ran during the operators' work`);
  console.log(
    `concurrent-operators: ${n} API requests (${JSON.stringify(Object.fromEntries(statuses))}) alongside ${cli.length} CLI commands, all exit 0 (slowest ${slowest} ms)`,
  );
});
