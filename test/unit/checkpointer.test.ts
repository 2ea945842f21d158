// The WAL checkpoint thread (src/db/checkpointer.ts) on a real database file: with the writing
// connection's own checkpoints turned off, committed pages still reach the database file, and only
// when the thread runs; a thread that cannot work says so in the log and still closes; `ces serve`
// starts it unless CES_CHECKPOINT_THREAD=0.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { startCheckpointer } from '../../src/db/checkpointer.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createLogger, createSilentLogger } from '../../src/log.ts';
import { entryBody, makeCampaign, startTestServer, submitEntry } from '../support/harness.ts';

/** A database whose connection never checkpoints by itself, and ~2 MB committed to its WAL. */
function walOnlyDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'ces-checkpoint-'));
  const path = join(dir, 'ces.db');
  const db = openDatabase(path);
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE blobs (b BLOB NOT NULL)');
  const fileBytes = () => statSync(path).size;
  const before = fileBytes();
  const insert = db.prepare('INSERT INTO blobs (b) VALUES (randomblob(4000))');
  db.transaction(() => {
    for (let i = 0; i < 500; i++) insert.run();
  })();
  return { dir, path, db, before, fileBytes, cleanup: () => { db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

test('committed pages reach the database file through the thread, not the committing connection', async () => {
  const w = walOnlyDatabase();
  try {
    // Without the thread the 2 MB stay in the WAL: the file does not grow.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(w.fileBytes(), w.before);
    const checkpointer = startCheckpointer(w.path, createSilentLogger(), 5);
    try {
      assert.ok(await waitFor(() => w.fileBytes() >= w.before + 2_000_000), `file grew to ${w.fileBytes()} bytes`);
      // Everything committed is checkpointed: a checkpoint now has nothing left to copy.
      const [state] = w.db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
      assert.equal(state.checkpointed, state.log);
      assert.equal((w.db.prepare('SELECT count(*) AS n FROM blobs').get() as { n: number }).n, 500);
    } finally {
      await checkpointer.close();
    }
    await checkpointer.close(); // a second close is a no-op
  } finally {
    w.cleanup();
  }
});

test('a thread that cannot open the database logs why and closes cleanly', async () => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const missing = join(tmpdir(), `ces-checkpoint-missing-${process.pid}`, 'nothing.db');
  const checkpointer = startCheckpointer(missing, createLogger('json', out), 5);
  assert.ok(await waitFor(() => text.includes('WAL checkpoint thread stopped')), text);
  const record = JSON.parse(text.trim().split('\n')[0]) as { level: string; error: string };
  assert.equal(record.level, 'error');
  assert.match(record.error, /unable to open database file|SQLITE_CANTOPEN|directory does not exist/i);
  await checkpointer.close();
});

test('ces serve checkpoints in the background unless CES_CHECKPOINT_THREAD=0', async () => {
  for (const setting of ['1', '0']) {
    const t = await startTestServer({ env: { CES_CHECKPOINT_THREAD: setting } });
    try {
      const world = makeCampaign(t.ctx);
      const start = statSync(t.dbPath).size;
      for (let i = 0; i < 20; i++) await submitEntry(t, world.liveKey, entryBody({}, i), `ckpt-${i}`);
      if (setting === '1') {
        assert.ok(await waitFor(() => statSync(t.dbPath).size > start), 'the entries reached the database file');
      } else {
        // Nothing else checkpoints 20 entries' pages (the fallback waits for 4000): they are all in the WAL.
        assert.equal(statSync(t.dbPath).size, start);
      }
    } finally {
      await t.close();
    }
  }
});
