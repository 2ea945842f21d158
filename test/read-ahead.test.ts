// Reading ahead of intake's writes (src/intake/read-ahead.ts): threads with read-only connections run
// the lookups a write will make, so that on a file larger than memory its pages are already in the
// page cache. Nothing may depend on them: a thread that fails says so once and the writes go on, a
// write still reading ahead is waited for by close(), and the threads' statements must fit the
// schema (a statement that no longer does would fail for every batch, silently but for its warning).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../src/db/open.ts';
import { parseSubmission } from '../src/entries/submission.ts';
import { createInlineWriter, writeRequest } from '../src/intake/entry-writer.ts';
import { startReadAhead, worthReadingAhead, type Lookup } from '../src/intake/read-ahead.ts';
import { ManualClock } from '../src/kernel/clock.ts';
import { loadConfig } from '../src/kernel/config.ts';
import type { Ctx } from '../src/kernel/context.ts';
import { seededRandom } from '../src/kernel/random.ts';
import type { Caller } from '../src/keys/keys.ts';
import { entryBody, makeCampaign } from './support/harness.ts';
import { waitFor } from './support/wait.ts';
import { capturedLog } from './support/captured-log.ts';

function logSink() {
  const { log, records, text } = capturedLog();
  return { log, text, warnings: () => records().filter((record) => record.level === 'warn') };
}

function world(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'ces-read-ahead-'));
  const dbPath = join(dir, 'ces.db');
  const { log, warnings } = logSink();
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const ctx: Ctx = { db: openDatabase(dbPath), clock, random: seededRandom(3), config: loadConfig({ db: dbPath }, {}, false), log };
  t.after(() => {
    if (ctx.db.open) ctx.db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const world = makeCampaign(ctx);
  const caller: Caller = { keyId: world.liveKeyId, campaignId: world.campaign.id, mode: 'live', livemode: true };
  const request = (key: string, body: Record<string, unknown>) => writeRequest(ctx, caller, key, parseSubmission(body, clock.now()));
  return { ctx, dbPath, caller, request, warnings };
}

test('the threads look up new and returning participants, with e-mail and phone, without a failure', async (t) => {
  const { ctx, request, warnings } = world(t);
  const writer = createInlineWriter(ctx, { groupCommit: true, readAhead: true });
  const withContacts = { enrollment: { email: 'Maria@Example.com', phone: '+55 11 91234-5678' } };
  const results = [];
  results.push(await writer.write(request('first', entryBody({}, 0))));
  // The same participant again (its enrollment and entries are found), a replay, and a new one
  // with an e-mail and a phone (the unique indexes they are checked against).
  results.push(await writer.write(request('second', entryBody({ evidence: {} }, 0))));
  results.push(await writer.write(request('first', entryBody({}, 0))));
  results.push(await writer.write(request('third', entryBody(withContacts, 1))));
  await writer.close();
  assert.deepEqual(
    results.map((r) => r.replay),
    [false, false, true, false],
  );
  assert.equal((ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n, 3);
  assert.deepEqual(warnings(), []);
});

test('a write still reading ahead is pending: drain() waits until it is committed', async (t) => {
  const { ctx, request } = world(t);
  const writer = createInlineWriter(ctx, { groupCommit: true, readAhead: true });
  const pending = [0, 1, 2].map((i) => writer.write(request(`key-${i}`, entryBody({}, i))));
  await writer.drain();
  assert.equal((ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n, 3);
  assert.equal((await Promise.all(pending)).length, 3);
  await writer.close();
});

const LOOKUP: Lookup = { campaignId: 'c', livemode: 1, idempotencyKey: 'k', document: '52998224725', emailKey: null, phone: null };

test('threads that cannot open the file say so once, and a warm no longer waits for them', { timeout: 60_000 }, async () => {
  const { log, warnings, text } = logSink();
  const missing = join(tmpdir(), `ces-read-ahead-missing-${process.pid}`, 'nothing.db');
  // A wait far beyond the test's timeout: a warm that waited for it would fail the test.
  const readAhead = startReadAhead(missing, log, 3, 10 * 60_000);
  await waitFor(() => warnings().length > 0, 10_000, text, 10);
  // A warm sent to a thread that has not stopped yet is let go when it exits, never after the wait.
  for (let i = 0; i < 5; i++) await readAhead.warm(LOOKUP);
  const logged = warnings();
  assert.equal(logged.length, 1);
  assert.match(logged[0].message, /reading ahead of intake failed/);
  assert.match(String(logged[0].error), /unable to open database file|SQLITE_CANTOPEN|directory does not exist/i);
  await readAhead.close();
});

test('close() lets the warms that wait go, and warms after it resolve at once', { timeout: 60_000 }, async (t) => {
  const { dbPath } = world(t);
  const { log, warnings } = logSink();
  const readAhead = startReadAhead(dbPath, log, 2, 10 * 60_000);
  const waiting = Array.from({ length: 20 }, () => readAhead.warm(LOOKUP));
  await readAhead.close();
  await Promise.all(waiting);
  await readAhead.warm(LOOKUP);
  assert.deepEqual(warnings(), []);
});

test('only a file larger than half the memory is read ahead', () => {
  const gib = 2 ** 30;
  assert.equal(worthReadingAhead(2 * gib, 24 * gib), false);
  assert.equal(worthReadingAhead(12 * gib, 24 * gib), false);
  assert.equal(worthReadingAhead(12 * gib + 1, 24 * gib), true);
  assert.equal(worthReadingAhead(21.5 * gib, 24 * gib), true);
});
