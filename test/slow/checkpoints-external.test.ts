// CES_CHECKPOINTS=external
// (docs/operations.md#checkpoints-left-to-litestream-ces_checkpointsexternal): ces leaves every
// WAL checkpoint to Litestream. Through a real server on a real file and the real CLI: no
// checkpoint thread, wal_autocheckpoint=0 on the server's connection and on every CLI command's (a
// WAL past the 4000 pages at which a commit of the internal mode checkpoints, and the database file
// still does not change), no TRUNCATE after an anonymization; the default mode as before. Then the
// WAL's size in /metrics, /healthz degraded past CES_WAL_ALARM_MB with one warning a crossing, and
// the PASSIVE last resort far above it.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WAL_LAST_RESORT_FACTOR, WAL_LAST_RESORT_INTERVAL_MS } from '../../src/db/wal-watch.ts';
import { capturedLog } from '../support/captured-log.ts';
import { cpf, entryBody, makeCampaign, runCli, startTestServer, type TestServer, type World } from '../support/harness.ts';

const MIB = 1024 * 1024;
const EXTERNAL = { CES_CHECKPOINTS: 'external' };

/** The WAL header's checkpoint sequence and salts (bytes 12-23): they change whenever the WAL starts over. */
function walGeneration(dbPath: string): string {
  const fd = openSync(`${dbPath}-wal`, 'r');
  try {
    const header = Buffer.alloc(24);
    readSync(fd, header, 0, 24, 0);
    return header.subarray(12, 24).toString('hex');
  } finally {
    closeSync(fd);
  }
}

const walBytes = (dbPath: string): number => statSync(`${dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0;
const fileHash = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const frames = (dbPath: string): number => Math.max(0, Math.floor((walBytes(dbPath) - 32) / (4096 + 24)));

let submitted = 0;
/** Real intake, one request after another, until the WAL holds `bytes`; the documents it used. */
async function submitUntil(t: TestServer, w: World, bytes: number): Promise<string[]> {
  const documents: string[] = [];
  while (walBytes(t.dbPath) < bytes) {
    const i = 1000 + submitted++;
    const res = await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: `wal-${i}`, body: entryBody({}, i) });
    assert.equal(res.status, 202, res.text);
    documents.push(cpf(i));
    if (documents.length > 5000) throw new Error(`the WAL stays at ${walBytes(t.dbPath)} bytes`);
  }
  return documents;
}

describe('CES_CHECKPOINTS=external: ces never checkpoints', () => {
  test(
    'past 4000 WAL pages, CLI writes and an anonymization (in process and as a real process): the database file is unchanged and the WAL never starts over',
    { timeout: 180_000 },
    async () => {
      // Over a socket, as `ces serve` runs: CES_CHECKPOINT_THREAD is left at its default (on).
      const t = await startTestServer({ socket: true, env: EXTERNAL });
      try {
        assert.equal(t.ctx.db.pragma('wal_autocheckpoint', { simple: true }), 0, "the server's connection");
        const w = makeCampaign(t.ctx);
        const dbFile = fileHash(t.dbPath);
        const generation = walGeneration(t.dbPath);
        let last = walBytes(t.dbPath);
        const grewOnly = (step: string): void => {
          const now = walBytes(t.dbPath);
          assert.ok(now >= last, `${step}: the WAL shrank from ${last} to ${now}`);
          assert.equal(walGeneration(t.dbPath), generation, `${step}: the WAL started over`);
          assert.equal(fileHash(t.dbPath), dbFile, `${step}: pages were checkpointed into the database file`);
          last = now;
        };

        // Past the 4000 pages from which a commit of the internal mode checkpoints by itself.
        const documents = await submitUntil(t, w, 32 + 4100 * (4096 + 24));
        assert.ok(frames(t.dbPath) > 4000, `${frames(t.dbPath)} frames`);
        // A checkpoint thread would have copied pages back by now: it runs every 25 ms.
        await t.tick();
        grewOnly('intake and a tick');

        // Every CLI command's commit now finds more than 4000 frames in the WAL: with the internal
        // mode's wal_autocheckpoint it would checkpoint them.
        const cli = (args: string[], process = false) => runCli([...args, '--json'], { dbPath: t.dbPath, env: EXTERNAL, process });
        assert.equal((await cli(['campaign', 'create', '--name', 'Another'])).code, 0);
        grewOnly('ces campaign create');
        assert.equal((await cli(['key', 'issue', '--campaign', w.campaign.id, '--mode', 'test'])).code, 0);
        grewOnly('ces key issue');
        const anonymized = await cli(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', documents[0]]);
        assert.equal(anonymized.code, 0, anonymized.stderr);
        grewOnly('ces participant anonymize');
        const backup = await cli(['backup', join(t.dir, 'copy.db')]);
        assert.equal(backup.code, 0, backup.stderr);
        grewOnly('ces backup');
        // The binary itself, as an operator runs it beside Litestream.
        const anonymizedByProcess = await cli(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', documents[1]], true);
        assert.equal(anonymizedByProcess.code, 0, anonymizedByProcess.stderr);
        grewOnly('ces participant anonymize (a process)');
        const res = await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'after', body: entryBody({}, 999_999) });
        assert.equal(res.status, 202, res.text);
        grewOnly('an entry after them');
      } finally {
        await t.close();
      }
    },
  );

  test('internal (the default): the same server checkpoints, and an anonymization truncates the WAL', { timeout: 120_000 }, async () => {
    const t = await startTestServer({ socket: true });
    try {
      assert.equal(t.ctx.db.pragma('wal_autocheckpoint', { simple: true }), 4000);
      const w = makeCampaign(t.ctx);
      const dbFile = fileHash(t.dbPath);
      const documents = await submitUntil(t, w, 2 * MIB);
      const anonymized = await runCli(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', documents[0], '--json'], {
        dbPath: t.dbPath,
      });
      assert.equal(anonymized.code, 0, anonymized.stderr);
      assert.equal(walBytes(t.dbPath), 0, 'truncated by the anonymization');
      assert.notEqual(fileHash(t.dbPath), dbFile, 'pages were checkpointed into the database file');
    } finally {
      await t.close();
    }
  });
});

test('every command reads CES_CHECKPOINTS, and refuses a value it does not know rather than checkpoint', async () => {
  const t = await startTestServer({ env: EXTERNAL });
  try {
    const refused = await runCli(['campaign', 'list', '--json'], { dbPath: t.dbPath, env: { CES_CHECKPOINTS: 'litestream' } });
    assert.equal(refused.code, 1);
    assert.equal(refused.json.error.code, 'invalid_config');
    assert.equal(refused.json.error.message, 'CES_CHECKPOINTS must be internal or external, got "litestream"');
  } finally {
    await t.close();
  }
});

describe('the WAL watched: ces_wal_bytes, /healthz degraded past CES_WAL_ALARM_MB, the last resort', () => {
  test(
    'the alarm: degraded (still 200) with one warning a crossing, ok again once Litestream has truncated the WAL',
    { timeout: 120_000 },
    async () => {
      const { log, records } = capturedLog();
      const t = await startTestServer({ env: { ...EXTERNAL, CES_WAL_ALARM_MB: '1' }, log });
      const warnings = () => records().filter((r) => r.level === 'warn' && /over CES_WAL_ALARM_MB/.test(r.message)).length;
      try {
        const w = makeCampaign(t.ctx);
        const metric = async (): Promise<number> => {
          const text = (await t.request('GET', '/metrics')).text;
          return Number(/^ces_wal_bytes (\d+)$/m.exec(text)?.[1]);
        };
        assert.ok(walBytes(t.dbPath) < MIB, `a new database's WAL (${walBytes(t.dbPath)} bytes) is under 1 MiB`);
        assert.equal(await metric(), walBytes(t.dbPath));
        let health = await t.request('GET', '/healthz');
        assert.equal(health.status, 200);
        assert.equal(health.body.status, 'ok');
        assert.deepEqual(health.body.wal, { bytes: walBytes(t.dbPath), alarm_bytes: MIB, over_alarm: false });

        await submitUntil(t, w, MIB + 1);
        for (let i = 0; i < 3; i++) {
          await t.tick();
          health = await t.request('GET', '/healthz');
          assert.equal(health.status, 200, 'degraded is not unavailable: a load balancer keeps the server');
          assert.equal(health.body.status, 'degraded');
          assert.equal(health.body.wal.over_alarm, true);
        }
        assert.equal(await metric(), walBytes(t.dbPath));
        assert.equal(warnings(), 1, 'one warning, not one per request or tick');

        // Litestream checkpoints (TRUNCATE, as v0.5 does past its threshold): the alarm clears, once.
        const litestream = new Database(t.dbPath);
        litestream.pragma('wal_checkpoint(TRUNCATE)');
        litestream.close();
        assert.equal(walBytes(t.dbPath), 0);
        health = await t.request('GET', '/healthz');
        assert.equal(health.body.status, 'ok');
        assert.deepEqual(
          records()
            .filter((r) => /CES_WAL_ALARM_MB/.test(r.message))
            .map((r) => r.level),
          ['warn', 'info'],
        );

        // And it warns again when the WAL crosses once more.
        await submitUntil(t, w, MIB + 1);
        await t.tick();
        assert.equal((await t.request('GET', '/healthz')).body.status, 'degraded');
        assert.equal(warnings(), 2);
      } finally {
        await t.close();
      }
    },
  );

  test(
    `the last resort: from ${WAL_LAST_RESORT_FACTOR}× the alarm one PASSIVE checkpoint, never a truncation, not again within the minute`,
    { timeout: 180_000 },
    async () => {
      const { log, records } = capturedLog();
      const t = await startTestServer({ env: { ...EXTERNAL, CES_WAL_ALARM_MB: '1' }, log });
      const lastResorts = () => records().filter((r) => /as a last resort/.test(r.message)).length;
      try {
        const w = makeCampaign(t.ctx);
        const dbFile = fileHash(t.dbPath);
        await submitUntil(t, w, WAL_LAST_RESORT_FACTOR * MIB);
        const size = walBytes(t.dbPath);
        await t.tick();
        await t.server.service.wal.settled();
        assert.equal(lastResorts(), 1);
        assert.notEqual(fileHash(t.dbPath), dbFile, 'the checkpoint copied pages into the database file');
        assert.ok(walBytes(t.dbPath) >= size, 'PASSIVE: the WAL file is not truncated (the tick wrote after it, so it may have grown)');
        // Within the minute: not again, however much the WAL grows.
        t.clock.advance(WAL_LAST_RESORT_INTERVAL_MS - 1);
        await submitUntil(t, w, size + 64 * 1024);
        await t.tick();
        await t.server.service.wal.settled();
        assert.equal(lastResorts(), 1);
        // A minute on, with the file grown past where it was: once more.
        t.clock.advance(1);
        await submitUntil(t, w, size + 128 * 1024);
        await t.tick();
        await t.server.service.wal.settled();
        assert.equal(lastResorts(), 2);
        assert.equal((await t.request('GET', '/healthz')).body.status, 'degraded', 'still far over the alarm');
      } finally {
        await t.close();
      }
    },
  );
});
