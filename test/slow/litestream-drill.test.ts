// Disaster recovery with Litestream (issue 33, docs/deploy.md "Disaster recovery"): one
// kill-the-machine drill in CES_CHECKPOINTS=external mode, the mode docs/deploy.md prescribes under
// Litestream. ces and Litestream are SIGKILLed at a moment drawn from a seeded source (printed; set
// CES_DRILL_SEED to replay it), the data folder is deleted and `litestream restore` brings the
// database back. The restored file must pass `ces check`, hold every entry acknowledged more than
// 2 s before the kill, and be served again; the replica must have every WAL generation. `npm run
// drill` repeats the drill for measurement (bench/drill.ts). Skipped, with the reason, where the
// optional dependency's linux-x64 binary is not installed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { cryptoRandom } from '../../src/kernel/random.ts';
import { runDrill } from '../support/litestream-drill.ts';
import { findLitestream, readEmbeddedSqlite, WAL_RESET_FIX } from '../support/litestream.ts';

const litestream = findLitestream();
const skip = 'skip' in litestream ? litestream.skip : false;

describe('Litestream from npm', { skip }, () => {
  test('is v0.3.13, and the SQLite inside it is 3.42.0: without the fix of the WAL-reset bug (3.51.3+)', (t) => {
    const binary = (litestream as { path: string }).path;
    assert.equal(execFileSync(binary, ['version'], { encoding: 'utf8' }).trim(), 'v0.3.13');
    const sqlite = readEmbeddedSqlite(binary);
    t.diagnostic(
      `Litestream v0.3.13 embeds SQLite ${sqlite.version} (${sqlite.sourceId}): ` +
        `${sqlite.hasWalResetFix ? 'with' : 'without'} the WAL-reset fix (SQLite ${WAL_RESET_FIX.join('.')}+)`,
    );
    // A new package version must be looked at again (docs/deploy.md says which builds are safe).
    assert.equal(sqlite.version, '3.42.0');
    assert.match(sqlite.sourceId, /^2023-05-16 12:36:15 831d0fb2/);
    assert.equal(sqlite.hasWalResetFix, false);
  });
});

describe('kill-the-machine drill under Litestream (CES_CHECKPOINTS=external)', { skip }, () => {
  test(
    'the restore passes ces check, keeps every entry acknowledged over 2 s before the kill, has no WAL gap and is served again',
    { timeout: 180_000 },
    async (t) => {
      const seed = Number(process.env.CES_DRILL_SEED ?? cryptoRandom.int(2 ** 31));
      t.diagnostic(`seed ${seed} (CES_DRILL_SEED=${seed} replays the moment of the kill)`);
      const result = await runDrill({ binary: (litestream as { path: string }).path, mode: 'external', seed });
      t.diagnostic(
        `killed ${result.killAfterMs} ms into the load; ${result.acknowledged} acknowledged, ${result.lost} lost ` +
          `(oldest ${result.oldestLostMs ?? '-'} ms before the kill); restore ${Math.round(result.restoreMs ?? -1)} ms; ` +
          `${result.continuity.indexes.length} WAL indexes in ${result.continuity.generations} generation(s)`,
      );
      assert.deepEqual(result.errors, []);
      // However slow the machine, the promise was put to the test: entries acknowledged over 2 s before the kill.
      assert.ok(
        result.acknowledgedBeyondPromise >= 10,
        `entries acknowledged over 2 s before the kill: ${result.acknowledgedBeyondPromise}`,
      );
      assert.equal(result.checkPassed, true, result.checkOutput);
      assert.equal(
        result.lostBeyondPromise,
        0,
        `entries acknowledged more than 2 s before the kill were lost (oldest ${result.oldestLostMs} ms)`,
      );
      assert.ok(result.continuity.indexes.length > 0, 'the replica holds WAL segments');
      assert.deepEqual(result.continuity.gaps, []);
      assert.deepEqual(result.continuity.problems, []);
      assert.equal(result.servedAfterRestore, true);
    },
  );
});
