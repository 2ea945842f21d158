// The freeze's scan thread (src/draws/scan-thread.ts) reads in one snapshot, which holds back every
// checkpoint while it lasts. Once it has let go, the thread checkpoints the WAL that grew behind it,
// so that the server's next commit does not do it on the event loop; never with
// CES_CHECKPOINTS=external, where only the replicator may checkpoint (issue 33).
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../src/db/open.ts';
import { createDraw, freezeDraw } from '../src/draws/lifecycle.ts';
import { scanEligibleNumbersOnThread } from '../src/draws/scan-thread.ts';
import { makeCampaign, OPERATOR, startTestServer } from './support/harness.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The markers in the database file itself, without its WAL: what checkpoints have copied back. */
function markersInMainFile(path: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'ces-scan-copy-'));
  dirs.push(dir);
  const copy = join(dir, 'copy.db');
  copyFileSync(path, copy);
  const db = new Database(copy);
  try {
    return db.prepare('SELECT v FROM scan_marker ORDER BY v').pluck().all() as string[];
  } finally {
    db.close();
  }
}

test('after its scan the thread checkpoints the WAL that grew behind its snapshot, and only when asked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-scan-'));
  dirs.push(dir);
  const path = join(dir, 'ces.db');
  // As under CES_CHECKPOINTS=external: no commit of this connection checkpoints by itself.
  const db = openDatabase(path, { checkpoints: 'external' });
  try {
    db.exec('CREATE TABLE scan_marker (v TEXT NOT NULL) STRICT');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.prepare('INSERT INTO scan_marker (v) VALUES (?)').run('before the first scan');
    const params = { campaign_id: 'none', livemode: 1, cutoff: '2026-11-23T00:00:00.000Z' };

    await scanEligibleNumbersOnThread(path, params, 1, false);
    assert.deepEqual(markersInMainFile(path), [], 'a scan not asked to checkpoint copied nothing back');

    await scanEligibleNumbersOnThread(path, params, 1, true);
    assert.deepEqual(markersInMainFile(path), ['before the first scan']);
  } finally {
    db.close();
  }
});

test('a freeze checkpoints after its scan under CES_CHECKPOINTS=internal, never under external', async () => {
  for (const mode of ['internal', 'external'] as const) {
    // No checkpoint thread: under internal, the freeze's own checkpoint is the only one that runs.
    const s = await startTestServer({ env: { CES_CHECKPOINTS: mode, CES_CHECKPOINT_THREAD: '0' } });
    try {
      const db = s.ctx.db;
      db.pragma('wal_autocheckpoint = 0');
      db.exec('CREATE TABLE scan_marker (v TEXT NOT NULL) STRICT');
      db.pragma('wal_checkpoint(TRUNCATE)');
      const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 1, seriesCount: 1 });
      const draw = createDraw(
        s.ctx,
        { campaignId: w.campaign.id, mode: 'live', name: 'Final', cutoff: '2026-11-23T00:00:00Z', extractionDate: '2026-11-25' },
        OPERATOR,
      );
      db.prepare('INSERT INTO scan_marker (v) VALUES (?)').run(mode);
      s.clock.set('2026-11-24T00:00:00Z');
      await freezeDraw(s.ctx, draw.id, OPERATOR);
      assert.deepEqual(markersInMainFile(s.dbPath), mode === 'internal' ? ['internal'] : [], mode);
    } finally {
      await s.close();
    }
  }
});
