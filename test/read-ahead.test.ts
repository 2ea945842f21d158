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
import { startIndexWarmup } from '../src/intake/index-warmup.ts';
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
  const { log, warnings, text } = logSink();
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const ctx: Ctx = { db: openDatabase(dbPath), clock, random: seededRandom(3), config: loadConfig({ db: dbPath }, {}, false), log };
  t.after(() => {
    if (ctx.db.open) ctx.db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const world = makeCampaign(ctx);
  const caller: Caller = { keyId: world.liveKeyId, campaignId: world.campaign.id, mode: 'live', livemode: true };
  const request = (key: string, body: Record<string, unknown>) => writeRequest(ctx, caller, key, parseSubmission(body, clock.now()));
  return { ctx, dbPath, caller, request, warnings, text };
}

test('the threads look up new and returning participants, with e-mail and phone, without a failure', async (t) => {
  const { ctx, request, warnings } = world(t);
  const writer = createInlineWriter(ctx, { groupCommit: true, readAhead: true, warmIndexes: false });
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
  const writer = createInlineWriter(ctx, { groupCommit: true, readAhead: true, warmIndexes: false });
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

// Warming the indexes at start (src/intake/index-warmup.ts): every key of every index intake looks
// up is read exactly once across the threads (a gap or an overlap between their ranges would change
// the count), and an index the schema no longer has is said, not skipped.
test('warming reads every key of the five indexes once, however many threads share them', { timeout: 60_000 }, async (t) => {
  const { ctx, dbPath, request } = world(t);
  const writer = createInlineWriter(ctx, { groupCommit: true });
  const writes = [];
  for (let i = 0; i < 400; i++) {
    const p = Math.floor(i / 2);
    const contacts = p % 4 === 0 ? { email: `p${p}@example.com`, phone: `+55 11 9${10_000_000 + p}` } : {};
    writes.push(writer.write(request(`key-${i}`, entryBody({ enrollment: contacts }, p))));
  }
  await Promise.all(writes);
  await writer.close();
  const count = (sql: string) => (ctx.db.prepare(sql).get() as { n: number }).n;
  const expected =
    2 * count('SELECT count(*) AS n FROM entries') +
    count('SELECT count(*) AS n FROM enrollments') +
    count('SELECT count(email_key) AS n FROM enrollments') +
    count('SELECT count(phone) AS n FROM enrollments');
  assert.equal(expected, 2 * 400 + 200 + 50 + 50);
  for (const threads of [1, 3, 4]) {
    const { log, warnings, text } = logSink();
    const warmup = startIndexWarmup(dbPath, log, threads);
    const done = await warmup.done;
    assert.deepEqual({ rows: done.rows, failed: done.failed }, { rows: expected, failed: null }, `${threads} threads`);
    assert.deepEqual(warnings(), []);
    assert.match(text(), new RegExp(`the indexes of intake are warm: ${expected} keys read`));
  }
  // No room in the page cache: every index stays cold, and the log says which.
  const { log, text } = logSink();
  const none = await startIndexWarmup(dbPath, log, 2, 0).done;
  assert.deepEqual({ rows: none.rows, cold: none.cold.length, failed: none.failed }, { rows: 0, cold: 5, failed: null });
  assert.match(text(), /left_cold.*sqlite_autoindex_entries_2.*enrollments_phone/);
});

test('warming stops when closed, and says so when an index it reads is gone', { timeout: 60_000 }, async (t) => {
  const { ctx, dbPath, request } = world(t);
  const writer = createInlineWriter(ctx, { groupCommit: true });
  await writer.write(request('only', entryBody({}, 0)));
  await writer.close();
  const closed = startIndexWarmup(dbPath, logSink().log, 2);
  await closed.close();
  assert.equal((await closed.done).rows, 0);

  ctx.db.exec('DROP INDEX entries_enrollment');
  const { log, warnings } = logSink();
  const done = await startIndexWarmup(dbPath, log, 2).done;
  assert.match(String(done.failed), /no index on entries \(enrollment_id, created_at\)/);
  assert.equal(warnings().length, 1);
  assert.match(warnings()[0].message, /warming the indexes of intake stopped early/);
});

test('once the indexes are warm, the writer stops reading ahead and goes on writing', { timeout: 60_000 }, async (t) => {
  const { ctx, request, warnings, text } = world(t);
  const writer = createInlineWriter(ctx, { groupCommit: true, readAhead: true });
  await writer.write(request('before', entryBody({}, 0)));
  await waitFor(() => /intake no longer reads ahead/.test(text()), 30_000, text, 10);
  assert.match(text(), /the indexes of intake are warm: \d+ keys read/);
  const after = await writer.write(request('after', entryBody({}, 1)));
  assert.equal(after.replay, false);
  await writer.close();
  assert.equal((ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n, 2);
  assert.deepEqual(warnings(), []);
});

test('a writer closed while it warms its indexes stops them, and does not say they are warm', { timeout: 60_000 }, async (t) => {
  const { ctx, warnings, text } = world(t);
  const writer = createInlineWriter(ctx, { groupCommit: true, readAhead: true });
  await writer.close();
  assert.doesNotMatch(text(), /are warm|no longer reads ahead/);
  assert.deepEqual(warnings(), []);
});
