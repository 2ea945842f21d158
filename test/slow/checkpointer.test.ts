// The WAL checkpoint thread (src/db/checkpointer.ts) on a real database file: with the writing
// connection's own checkpoints turned off, committed pages still reach the database file, and only
// when the thread runs; passes run back to back while the WAL is large and they get somewhere; a
// thread that cannot work says so in the log and still closes; `ces serve` starts it unless
// CES_CHECKPOINT_THREAD=0.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { CATCH_UP_FRAMES, CHECKPOINT_INTERVAL_MS, nextPassDelay, startCheckpointer } from '../../src/db/checkpointer.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createLogger, createSilentLogger } from '../../src/kernel/log.ts';
import { entryBody, makeCampaign, startTestServer, submitEntry } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';

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
  return {
    dir,
    path,
    db,
    before,
    fileBytes,
    cleanup: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('committed pages reach the database file through the thread, not the committing connection', async () => {
  const w = walOnlyDatabase();
  try {
    // Without the thread the 2 MB stay in the WAL: the file does not grow.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(w.fileBytes(), w.before);
    const checkpointer = startCheckpointer(w.path, createSilentLogger(), 5);
    try {
      await waitFor(
        () => w.fileBytes() >= w.before + 2_000_000,
        10_000,
        () => `file grew to ${w.fileBytes()} bytes`,
        10,
      );
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

test('passes run back to back while the WAL is large and they get somewhere, else after the interval', () => {
  const delay = (result: [number, number, number], previous: [number, number, number]) =>
    nextPassDelay(
      { busy: result[0], log: result[1], checkpointed: result[2] },
      { busy: previous[0], log: previous[1], checkpointed: previous[2] },
      25,
      500,
    );
  // A large WAL, copied further than the last pass got: at once.
  assert.equal(delay([0, 900, 900], [0, 600, 600]), 0);
  assert.equal(delay([0, 500, 480], [0, 0, 0]), 0);
  // The WAL started over and is large again (log went down): at once.
  assert.equal(delay([0, 700, 700], [0, 3000, 3000]), 0);
  // Small WAL: the interval, however much was copied.
  assert.equal(delay([0, 499, 499], [0, 100, 100]), 25);
  assert.equal(delay([0, 0, 0], [0, 0, 0]), 25);
  // A reader pins the WAL: nothing more was copied, so no spinning while it reads.
  assert.equal(delay([0, 4000, 1200], [0, 3800, 1200]), 25);
  // A commit is checkpointing by itself (busy, -1 / -1).
  assert.equal(delay([1, -1, -1], [0, 900, 900]), 25);
  // And the service's own settings: 25 ms, 2000 pages (8 MiB, half of wal_autocheckpoint).
  assert.equal(CHECKPOINT_INTERVAL_MS, 25);
  assert.equal(CATCH_UP_FRAMES, 2000);
  const db = openDatabase(':memory:');
  try {
    assert.equal(CATCH_UP_FRAMES * 2, db.pragma('wal_autocheckpoint', { simple: true }));
  } finally {
    db.close();
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
  await waitFor(
    () => text.includes('WAL checkpoint thread stopped'),
    10_000,
    () => text,
    10,
  );
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
        await waitFor(
          () => statSync(t.dbPath).size > start,
          10_000,
          () => 'the entries never reached the database file',
          10,
        );
      } else {
        // Nothing else checkpoints 20 entries' pages (the fallback waits for 4000): they are all in the WAL.
        assert.equal(statSync(t.dbPath).size, start);
      }
    } finally {
      await t.close();
    }
  }
});
