// The WAL watch (src/db/wal-watch.ts) on a real -wal file whose size the test sets (a sparse file),
// with a ManualClock and a counting checkpoint: the alarm only in external mode, one warning per
// upward crossing and an info line on the way back, the last resort only far above the alarm, at
// most once a minute and only while the file still grows.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ConsolaInstance } from 'consola';
import { ManualClock } from '../../src/kernel/clock.ts';
import type { CheckpointMode } from '../../src/kernel/config.ts';
import { createWalWatch, WAL_LAST_RESORT_FACTOR, WAL_LAST_RESORT_INTERVAL_MS } from '../../src/db/wal-watch.ts';

const MIB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'ces-wal-watch-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Logged {
  level: 'warn' | 'info' | 'error';
  message: string;
}

function watchOf(name: string, checkpoints: CheckpointMode, alarmMb = 1) {
  const dbPath = join(dir, name);
  writeFileSync(`${dbPath}-wal`, '');
  const logged: Logged[] = [];
  const record = (level: Logged['level']) => (record: { message: string }) => void logged.push({ level, message: record.message });
  const log = { warn: record('warn'), info: record('info'), error: record('error') } as unknown as ConsolaInstance;
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  let checkpoints_ = 0;
  const watch = createWalWatch({ dbPath, checkpoints, walAlarmMb: alarmMb }, clock, log, async () => {
    checkpoints_++;
    return { busy: 0, log: 10, checkpointed: 10 };
  });
  return {
    watch,
    clock,
    logged,
    setSize: (bytes: number) => truncateSync(`${dbPath}-wal`, bytes),
    checkpointsRun: () => checkpoints_,
    warnings: () => logged.filter((l) => l.level === 'warn').length,
  };
}

test('external: over the alarm is reported, warned once per crossing, and the way back is logged', () => {
  const w = watchOf('alarm.db', 'external');
  w.setSize(MIB - 1);
  assert.deepEqual(w.watch.read(), { bytes: MIB - 1, alarm_bytes: MIB, over_alarm: false });
  w.setSize(MIB + 1);
  for (let i = 0; i < 5; i++) assert.equal(w.watch.read().over_alarm, true);
  assert.equal(w.warnings(), 1, 'one warning, not one per look');
  assert.match(w.logged[0].message, /over CES_WAL_ALARM_MB \(1\).*is Litestream running/);
  w.setSize(4096);
  assert.equal(w.watch.read().over_alarm, false);
  assert.equal(w.watch.read().over_alarm, false);
  assert.deepEqual(
    w.logged.map((l) => l.level),
    ['warn', 'info'],
  );
  w.setSize(2 * MIB);
  w.watch.read();
  w.watch.read();
  assert.equal(w.warnings(), 2, 'a second crossing warns again');
});

test('internal: the size is read, the alarm is never raised and nothing is checkpointed', () => {
  const w = watchOf('internal.db', 'internal');
  w.setSize(100 * MIB);
  const { status, lastResort } = w.watch.check();
  assert.deepEqual(status, { bytes: 100 * MIB, alarm_bytes: MIB, over_alarm: false });
  assert.equal(lastResort, null);
  assert.deepEqual(w.logged, []);
  assert.equal(w.checkpointsRun(), 0);
});

test(`the last resort runs from ${WAL_LAST_RESORT_FACTOR} times the alarm, at most once a minute, and only while the file grows`, async () => {
  const w = watchOf('last-resort.db', 'external');
  const far = WAL_LAST_RESORT_FACTOR * MIB;
  w.setSize(far - 1);
  assert.equal(w.watch.check().lastResort, null, 'over the alarm, below the last resort');
  w.setSize(far);
  await w.watch.check().lastResort;
  assert.equal(w.checkpointsRun(), 1);
  assert.ok(w.logged.some((l) => l.level === 'warn' && /ran one PASSIVE checkpoint as a last resort/.test(l.message)));

  // Growing, but within the minute: not again.
  w.setSize(far + MIB);
  w.clock.advance(WAL_LAST_RESORT_INTERVAL_MS - 1);
  assert.equal(w.watch.check().lastResort, null);
  // A minute on, but the file has not grown since (the WAL is reused from its start): not again.
  w.setSize(far);
  w.clock.advance(1);
  assert.equal(w.watch.check().lastResort, null);
  // Past where it was at the last one: again.
  w.setSize(far + 2 * MIB);
  await w.watch.check().lastResort;
  assert.equal(w.checkpointsRun(), 2);

  // Truncated by Litestream, then grown back past the threshold: counts as new growth.
  w.setSize(0);
  w.watch.check();
  w.clock.advance(WAL_LAST_RESORT_INTERVAL_MS);
  w.setSize(far + MIB);
  await w.watch.check().lastResort;
  assert.equal(w.checkpointsRun(), 3);
  await w.watch.settled();
});

test('a failing last resort is logged as an error and does not throw into the tick', async () => {
  const dbPath = join(dir, 'failing.db');
  writeFileSync(`${dbPath}-wal`, '');
  truncateSync(`${dbPath}-wal`, 8 * MIB);
  const errors: string[] = [];
  const log = {
    warn: () => {},
    info: () => {},
    error: (r: { message: string }) => void errors.push(r.message),
  } as unknown as ConsolaInstance;
  const watch = createWalWatch({ dbPath, checkpoints: 'external', walAlarmMb: 1 }, new ManualClock(0), log, () =>
    Promise.reject(new Error('disk I/O error')),
  );
  await watch.check().lastResort;
  assert.deepEqual(errors, ['the last-resort WAL checkpoint failed']);
});
