// Personal data at rest (docs/deploy.md#1-the-service-user-and-its-files): every file ces writes is
// 0600 and every folder it creates is 0700, whatever the umask: the database with its -wal and -shm
// while the server runs, backups, exports, restored databases (a restore used to turn a 0600
// database into 0644), and a database created by an older ces, which the next open tightens. Temp
// files get random names and are created exclusively (test/unit/private-files.test.ts).
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { entryBody, makeCampaign, runCli, startTestServer, submitEntry, type TestServer, type World } from './support/harness.ts';

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('file modes: what ces writes is readable by its owner only', () => {
  let t: TestServer;
  let w: World;
  let dir: string;

  before(async () => {
    t = await startTestServer();
    w = makeCampaign(t.ctx);
    await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: 'Helena Brandão Moura' } }, 0), 'modes-1');
    dir = mkdtempSync(join(tmpdir(), 'ces-modes-'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the database, its -wal and its -shm are 0600 while the server writes, and a folder ces creates is 0700', async () => {
    for (const file of [t.dbPath, `${t.dbPath}-wal`, `${t.dbPath}-shm`]) assert.equal(modeOf(file), '600', file);
    const fresh = join(dir, 'new', 'deeper', 'ces.db');
    const res = await runCli(['campaign', 'list', '--json'], { dbPath: fresh });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(modeOf(fresh), '600');
    assert.equal(modeOf(join(dir, 'new')), '700');
    assert.equal(modeOf(join(dir, 'new', 'deeper')), '700');
  });

  test('a database left 0644 by an older ces is 0600 after the next command opens it', async () => {
    const old = join(dir, 'old.db');
    assert.equal((await runCli(['campaign', 'list', '--json'], { dbPath: old })).code, 0);
    chmodSync(old, 0o644);
    const res = await runCli(['campaign', 'list', '--json'], { dbPath: old });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(modeOf(old), '600');
  });

  test('ces backup writes a 0600 file, over an existing 0644 one with --force too', async () => {
    const backup = join(dir, 'ces.backup');
    const res = await runCli(['backup', backup, '--json'], { dbPath: t.dbPath });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(modeOf(backup), '600');
    chmodSync(backup, 0o644);
    const again = await runCli(['backup', backup, '--force', '--json'], { dbPath: t.dbPath });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(modeOf(backup), '600');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp file left behind',
    );
  });

  test('ces restore leaves a 0600 database, into a new folder (0700) and over an existing database', async () => {
    const backup = join(dir, 'for-restore.backup');
    assert.equal((await runCli(['backup', backup, '--json'], { dbPath: t.dbPath })).code, 0);
    chmodSync(backup, 0o644);
    const target = join(dir, 'restored', 'ces.db');
    const res = await runCli(['restore', backup, '--json'], { dbPath: target });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(modeOf(target), '600');
    assert.equal(modeOf(join(dir, 'restored')), '700');
    const over = await runCli(['restore', backup, '--force', '--json'], { dbPath: target });
    assert.equal(over.code, 0, over.stderr);
    assert.equal(modeOf(target), '600', 'a restore over a 0600 database keeps it 0600');
    for (const suffix of ['-wal', '-shm']) if (existsSync(target + suffix)) assert.equal(modeOf(target + suffix), '600', suffix);
  });

  test('ces entries export --out writes a 0600 file in both formats, over an existing 0644 one too', async () => {
    for (const format of ['csv', 'jsonl']) {
      const out = join(dir, `entries.${format}`);
      writeFileSync(out, 'old\n', { mode: 0o644 });
      const res = await runCli(['entries', 'export', '--campaign', w.campaign.id, '--format', format, '--out', out, '--json'], {
        dbPath: t.dbPath,
      });
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.json.rows, 1);
      assert.equal(modeOf(out), '600', format);
      assert.match(readFileSync(out, 'utf8'), /Helena Brandão Moura/);
    }
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp file left behind',
    );
  });
});
