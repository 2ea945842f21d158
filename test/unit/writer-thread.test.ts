// The writer thread (src/entries/writer-thread.ts) on a real database file: it stores what the
// inline writer stores, carries domain errors back as the same AppError, and when the thread dies
// the writes in flight get a 503 (retry with the same key) and the next write starts a new thread.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { AppError } from '../../src/errors.ts';
import { parseSubmission } from '../../src/entries/submission.ts';
import { writeRequest } from '../../src/entries/writer.ts';
import { createThreadWriter } from '../../src/entries/writer-thread.ts';
import { authenticate } from '../../src/keys/keys.ts';
import { createSilentLogger } from '../../src/log.ts';
import { entryBody, makeCampaign } from '../support/harness.ts';
import { openTestCtx } from '../support/seed-entries.ts';

function setup() {
  const { ctx, dir } = openTestCtx(5);
  ctx.db.pragma('synchronous = FULL');
  const world = makeCampaign(ctx);
  const caller = authenticate(ctx, `Bearer ${world.liveKey}`);
  const request = (key: string, i: number, patch = {}) =>
    writeRequest(ctx, caller, key, parseSubmission(entryBody(patch, i), ctx.clock.now()));
  const count = () => (ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;
  const cleanup = () => {
    ctx.db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { ctx, request, count, cleanup };
}

test('writes committed on the thread are on disk when they resolve; replays and errors come back as on the HTTP thread', async () => {
  const { ctx, request, count, cleanup } = setup();
  const writer = createThreadWriter(ctx.config, createSilentLogger(), { groupCommit: true });
  try {
    const results = await Promise.all([request('a', 1), request('b', 2), request('a', 3)].map((r) => writer.write(r)));
    assert.equal(results[0].replay, false);
    assert.equal(results[1].replay, false);
    // Same key in the same batch: the first one's entry, answered as a replay.
    assert.deepEqual(results[2], { ...results[0], replay: true });
    assert.equal(count(), 2, 'both entries are visible to another connection once resolved');
    const failure = await writer.write(request('c', 4, { instant_win: { won: false } })).then(
      () => null,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof AppError);
    assert.equal(failure.status, 422);
    assert.equal(failure.code, 'instant_win_not_allowed');
    assert.equal(count(), 2);
  } finally {
    await writer.close();
    cleanup();
  }
});

test('a writer thread that dies fails its writes in flight with a 503 and the next write starts a new one', async () => {
  const { ctx, request, count, cleanup } = setup();
  const writer = createThreadWriter(ctx.config, createSilentLogger(), { groupCommit: true });
  try {
    await writer.write(request('warm', 1));
    // Hold the write lock so that the next batch is certainly still uncommitted when the thread dies.
    ctx.db.exec('BEGIN IMMEDIATE');
    const inFlight = writer.write(request('lost', 2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const killed = writer.killThread();
    ctx.db.exec('ROLLBACK');
    await killed;
    const error = await inFlight.then(
      () => null,
      (e: unknown) => e,
    );
    // The client is told to retry with the same key (a crash after COMMIT would make that a replay).
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.status, 503);
    assert.equal(error.code, 'service_unavailable');
    // The dead thread's transaction was rolled back and its lock released: a new thread writes.
    const retried = await writer.write(request('lost', 2));
    const again = await writer.write(request('lost', 2));
    assert.equal(again.entry_id, retried.entry_id);
    assert.equal(again.replay, true);
    assert.equal(count(), 2);
  } finally {
    await writer.close();
    cleanup();
  }
});
