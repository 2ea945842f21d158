// `ces serve` limits how far V8 lets the heap grow past what is live (src/heap-growth.ts): the
// largest share of the server's peak memory under load was garbage waiting for a collection. The
// flag is set at run time, which Node warns may do nothing, so the V8 test runs the same
// allocation twice in fresh processes, with and without it, and fails if the limit changes
// nothing. The operator's own flag on node's command line wins (Node refuses it in NODE_OPTIONS).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { limitHeapGrowth, operatorSetHeapGrowth } from '../src/heap-growth.ts';
import { ROOT } from './support/harness.ts';
import { killServe, spawnServe } from './support/serve-process.ts';

const run = promisify(execFile);

// Some 25 MB live all along (a fixed set and a ring of the newest batches), and batches that live
// long enough to be promoted before they become garbage, as a request's objects do under load.
const CHURN = `
import { getHeapSpaceStatistics } from 'node:v8';
import { limitHeapGrowth } from './src/heap-growth.ts';
if (process.argv.includes('limit')) limitHeapGrowth([]);
const live = Array.from({ length: 100_000 }, (_, i) => ({ i, s: 'live-' + i }));
let ring = [];
let peak = 0;
for (let round = 0; round < 400; round++) {
  ring.push(Array.from({ length: 5_000 }, (_, i) => ({ round, i, s: 'garbage-' + round + '-' + i })));
  if (ring.length > 40) ring.shift();
  if (round % 10 === 0) for (const s of getHeapSpaceStatistics()) if (s.space_name === 'old_space') peak = Math.max(peak, s.space_used_size);
}
process.stdout.write(JSON.stringify({ live: live.length + ring.length, peakOldMb: peak / 1048576 }));
`;

async function peakOldSpaceMb(limit: boolean): Promise<number> {
  const args = ['--import', 'tsx', '--input-type=module', '-e', CHURN, ...(limit ? ['limit'] : [])];
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
  return (JSON.parse(stdout) as { peakOldMb: number }).peakOldMb;
}

test('the limit set at run time takes effect: the same allocation peaks at under two thirds of the old space', async () => {
  const [without, limited] = await Promise.all([peakOldSpaceMb(false), peakOldSpaceMb(true)]);
  assert.ok(limited < without * 0.66, `old space peaked at ${limited.toFixed(1)} MB with the limit, ${without.toFixed(1)} MB without`);
});

test("the operator's own --heap-growing-percent on node's command line wins", () => {
  assert.equal(operatorSetHeapGrowth(['--heap-growing-percent=80']), true);
  assert.equal(operatorSetHeapGrowth(['--max-old-space-size=512', '--heap_growing_percent=80']), true);
  assert.equal(operatorSetHeapGrowth(['--heap-growing-percent']), true);
  assert.equal(limitHeapGrowth(['--heap-growing-percent=80']), null);
  // Other flags, and names that only begin the same, are not the operator's choice of this one.
  assert.equal(operatorSetHeapGrowth(['--max-old-space-size=512', '--expose-gc', '--heap-growing-percentage=80']), false);
  assert.equal(operatorSetHeapGrowth([]), false);
});

/** The JSON line `ces serve` logs once it listens, started with `nodeFlags`. */
async function listeningLine(nodeFlags: string[]): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'ces-heap-'));
  const server = await spawnServe({ dbPath: join(dir, 'ces.db'), nodeFlags });
  try {
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes('"ces listening on'));
    assert.ok(line, server.output());
    return JSON.parse(line) as Record<string, unknown>;
  } finally {
    await killServe(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

test("ces serve sets the limit and says so when it starts, unless node was started with the operator's", async () => {
  const [own, operators] = await Promise.all([listeningLine([]), listeningLine(['--heap-growing-percent=80'])]);
  assert.equal(own.heap_growing_percent, 50);
  assert.equal('heap_growing_percent' in operators, false);
});
