// ces check, and ces serve's check of a database file it has not opened before
// (docs/operations.md#backups-ces-backup-and-ces-restore; issue 33: a corrupt restore started,
// answered /healthz and took entries while reads failed with "malformed"). A damaged file is made
// deterministically: an index whose definition no longer matches its rows, which SQLite's
// integrity_check reports.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { ManualClock } from '../src/kernel/clock.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { openDatabase } from '../src/db/open.ts';
import { openService } from '../src/http/server.ts';
import { createSilentLogger } from '../src/kernel/log.ts';
import { seededRandom } from '../src/kernel/random.ts';
import { runCli } from './support/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-integrity-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function makeDatabase(name: string): string {
  const path = join(dir, name);
  const db = openDatabase(path);
  db.exec(`INSERT INTO campaigns (id, name, created_at, updated_at) VALUES ('c1', 'x', '2026', '2026'), ('c2', 'y', '2026', '2026')`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return path;
}

/** An index that no longer agrees with its table: what a replica that skipped WAL frames leaves. */
function damage(path: string): void {
  const raw = new Database(path);
  raw.unsafeMode(true);
  raw.exec(`CREATE INDEX campaigns_name ON campaigns (name)`);
  const version = raw.pragma('schema_version', { simple: true }) as number;
  raw.pragma('writable_schema = ON');
  raw.prepare(`UPDATE sqlite_master SET sql = 'CREATE INDEX campaigns_name ON campaigns (created_at)' WHERE name = 'campaigns_name'`).run();
  raw.pragma(`schema_version = ${version + 1}`);
  raw.pragma('writable_schema = OFF');
  raw.close();
}

const serve = (path: string) =>
  openService(
    loadConfig({ db: path, port: 0, host: '127.0.0.1', logFormat: 'json' }, { CES_CHECKPOINT_THREAD: '0' }, false),
    createSilentLogger(),
    {
      clock: new ManualClock('2026-11-22T12:00:00.000Z'),
      random: seededRandom(1),
    },
  );

test('ces check: exit 0 on a sound database; on a damaged one exit 1, naming the problem, with the report in --json', async () => {
  const sound = makeDatabase('sound.db');
  const ok = await runCli(['check', '--db', sound, '--json']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(ok.json, { ok: true, integrity_check: ['ok'], foreign_key_check: [] });
  assert.equal((await runCli(['check', '--db', sound])).stdout, 'integrity_check: ok\nforeign_key_check: ok\n');

  const bad = makeDatabase('bad.db');
  damage(bad);
  const refused = await runCli(['check', '--db', bad, '--json']);
  assert.equal(refused.code, 1);
  assert.equal(refused.json.error.code, 'database_corrupt');
  assert.equal(refused.json.ok, false);
  assert.deepEqual(refused.json.integrity_check, ['row 1 missing from index campaigns_name', 'row 2 missing from index campaigns_name']);
  assert.match(refused.stderr, /^ces: The database at .*bad\.db failed its integrity check \(row 1 missing from index campaigns_name\)/);
  // The domain names the next step, the CLI the command that takes it.
  assert.match(refused.stderr, /check the file again until it passes \(npx ces check --db \S*bad\.db\)\.\n$/);
  const text = await runCli(['check', '--db', bad]);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^integrity_check:\n {2}row 1 missing from index campaigns_name\n/);
  const none = await runCli(['check', '--db', join(dir, 'missing.db'), '--json']);
  assert.equal(none.json.error.code, 'database_not_found', 'a check creates nothing');
});

test('ces check: a row that points to a missing row fails the foreign-key check', async () => {
  const path = makeDatabase('orphan.db');
  const raw = new Database(path);
  raw.pragma('foreign_keys = OFF');
  raw
    .prepare(`INSERT INTO api_keys (id, campaign_id, mode, prefix, key_hash, created_at) VALUES ('k1', 'gone', 'live', 'p', x'01', '2026')`)
    .run();
  raw.close();
  const refused = await runCli(['check', '--db', path, '--json']);
  assert.equal(refused.code, 1);
  assert.deepEqual(refused.json.integrity_check, ['ok']);
  assert.deepEqual(
    refused.json.foreign_key_check.map((f: { table: string; parent: string }) => [f.table, f.parent]),
    [['api_keys', 'campaigns']],
  );
  assert.match(refused.json.error.message, /a row of api_keys points to a missing row of campaigns/);
});

test('ces serve refuses a damaged file it has not opened before, with what to do; a file it checked is not checked again', async () => {
  const restored = makeDatabase('restored.db');
  damage(restored);
  assert.throws(() => serve(restored), { code: 'database_corrupt', message: /failed its integrity check .* restore another backup/ });

  // A sound file passes and is remembered by its inode...
  const path = makeDatabase('live.db');
  await serve(path).release();
  // ...a copy of it (a restore is a new file) is checked again, and a damaged copy refused...
  const copy = join(dir, 'copy.db');
  copyFileSync(path, copy);
  damage(copy);
  assert.throws(() => serve(copy), { code: 'database_corrupt' });
  // ...while a restart on the file it checked skips the check (a restart stays quick on a large
  // file): `ces check` is how a file that was already served is checked.
  damage(path);
  await serve(path).release();
  assert.equal((await runCli(['check', '--db', path])).code, 1);
});
