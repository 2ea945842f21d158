// ces backup / ces restore (issue 6, Backups): a backup taken by the real CLI while the real server
// accepts entries under concurrent load and the pipeline runs is a consistent snapshot: restored
// into a new path it passes integrity_check and foreign_key_check, every entry has its enrollment,
// consent, outbox events and pending work, and it holds every entry accepted before it started and
// nothing the live database does not. Restore refuses corrupt or foreign files, an existing
// database without --force, and a database a running process has open.
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  entryBody,
  makeCampaign,
  makePrize,
  ROOT,
  runCli,
  startTestServer,
  type CliResult,
  type TestServer,
  type World,
} from '../support/harness.ts';

type Row = Record<string, unknown>;

function runCliAsync(args: string[]): { done: Promise<CliResult>; startedAt: number } {
  const startedAt = performance.now();
  const done = new Promise<CliResult>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/ces.ts'), ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr, json });
    });
  });
  return { done, startedAt };
}

describe('ces backup under load, then ces restore', () => {
  let t: TestServer;
  let w: World;
  let dir: string;
  const accepted: Array<{ id: string; at: number }> = [];
  let backupStartedAt = 0;
  let acceptedDuringBackup = 0;
  let backupResult: CliResult;
  let restoredPath: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ces-backup-'));
    // In process the 16 clients outrun the per-key limit's burst on a clock that stands still; the
    // limiter is not what is tested here (test/slow/limits.test.ts).
    t = await startTestServer({ env: { CES_RATE_LIMIT_RPS: '0' } });
    w = makeCampaign(t.ctx, { luckyNumbers: 'auto', instantPrize: 'INTEGRATOR_DECLARED' });
    const prizeId = makePrize(t.ctx, w.campaign.id, 'live', 50).id;
    let stop = false;
    let n = 0;
    const failures: string[] = [];
    const waitForAccepted = async (count: number): Promise<void> => {
      while (accepted.length < count) {
        if (failures.length > 0) throw new Error(`load failed: ${failures[0]}`);
        await new Promise((r) => setImmediate(r));
      }
    };
    // 16 clients submitting back to back, some with declared wins, while the pipeline ticks.
    const client = async (): Promise<void> => {
      while (!stop) {
        const i = n++;
        const body = entryBody(i % 5 === 0 ? { instant_win: { won: true, prize_definition_id: prizeId } } : {}, 1000 + i);
        const res = await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: `load-${i}`, body });
        if (res.status !== 202) {
          failures.push(`${res.status} ${res.text}`);
          return;
        }
        accepted.push({ id: res.body.entry_id, at: performance.now() });
      }
    };
    // A tick with nothing to send settles in microtasks alone: yield to I/O between ticks.
    const ticker = async (): Promise<void> => {
      while (!stop) {
        await t.tick();
        await new Promise((r) => setImmediate(r));
      }
    };
    const load = [...Array.from({ length: 16 }, client), ticker()];
    await waitForAccepted(150);
    const backup = runCliAsync(['backup', join(dir, 'snapshot.db'), '--db', t.dbPath, '--json']);
    backupStartedAt = backup.startedAt;
    backupResult = await backup.done;
    acceptedDuringBackup = accepted.filter((a) => a.at > backupStartedAt).length;
    // Keep the load a little longer so the live database is strictly ahead of the snapshot.
    const target = accepted.length + 50;
    await waitForAccepted(target);
    stop = true;
    await Promise.all(load);
    assert.ok(acceptedDuringBackup > 0, 'entries were accepted while the backup ran');
    restoredPath = join(dir, 'restored', 'ces.db');
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the backup completes with integrity ok and is logged in the live database', () => {
    assert.equal(backupResult.code, 0, backupResult.stderr);
    assert.equal(backupResult.json.integrity, 'ok');
    assert.equal(backupResult.json.file, join(dir, 'snapshot.db'));
    assert.ok(backupResult.json.pages > 0);
    const audit = t.ctx.db
      .prepare(`SELECT actor, action, details ->> '$.file' AS file FROM audit_log WHERE action = 'backup.created'`)
      .all();
    assert.deepEqual(audit, [{ actor: `cli:${userInfo().username}`, action: 'backup.created', file: join(dir, 'snapshot.db') }]);
    assert.deepEqual(readdirSync(dir).sort(), ['snapshot.db'], 'one self-contained file: no temp file, -wal or -shm beside it');
  });

  test('restored into a new path, the snapshot is consistent and a prefix of the live data', async (tc) => {
    const res = await runCli(['restore', join(dir, 'snapshot.db'), '--db', restoredPath, '--json']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.json.integrity, 'ok');
    assert.equal(res.json.replaced, null);
    const db = new Database(restoredPath, { readonly: true });
    try {
      const all = (sql: string): Row[] => db.prepare(sql).all() as Row[];
      const count = (sql: string): number => db.prepare(sql).pluck().get() as number;
      assert.deepEqual(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(all('PRAGMA foreign_key_check'), []);
      const entries = all('SELECT id, status, evaluated_at FROM entries');
      assert.ok(entries.length >= 150, `snapshot has ${entries.length} entries`);
      // Every entry accepted (202 received) before the backup started is in it.
      const inSnapshot = new Set(entries.map((e) => e.id));
      const before = accepted.filter((a) => a.at < backupStartedAt);
      assert.deepEqual(
        before.filter((a) => !inSnapshot.has(a.id)),
        [],
      );
      // Nothing the live database does not have; each entry there is in the same or a later state.
      const live = new Map((t.ctx.db.prepare('SELECT id, status FROM entries').all() as Row[]).map((e) => [e.id, e.status]));
      assert.ok(entries.length < live.size, `snapshot ${entries.length} < live ${live.size}`);
      tc.diagnostic(
        `snapshot ${entries.length} entries (${before.length} accepted before it started), live ${live.size}; accepted while the backup ran: ${acceptedDuringBackup}`,
      );
      for (const e of entries) {
        assert.ok(live.has(e.id), `entry ${e.id} exists live`);
        if (e.status !== 'PENDING') assert.equal(live.get(e.id), e.status);
      }
      // The intake transaction is all or nothing: consent, enrollment and events with every entry.
      assert.equal(
        count('SELECT count(*) FROM entries e WHERE (SELECT count(*) FROM consents c WHERE c.entry_id = e.id) <> 1'),
        0,
        'one consent per entry',
      );
      assert.equal(count('SELECT count(*) FROM entries e LEFT JOIN enrollments n ON n.id = e.enrollment_id WHERE n.id IS NULL'), 0);
      assert.equal(
        count(
          `SELECT count(*) FROM entries e WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.entry_id = e.id AND d.event_type = 'entry.received')`,
        ),
        0,
      );
      // The pipeline's work is never lost between states: a PENDING entry still has its process
      // job, an approved one not yet evaluated its evaluate job, and finished ones their events.
      assert.equal(
        count(
          `SELECT count(*) FROM entries e WHERE e.status = 'PENDING' AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.entry_id = e.id AND j.kind = 'process')`,
        ),
        0,
      );
      assert.equal(
        count(
          `SELECT count(*) FROM entries e WHERE e.status = 'APPROVED' AND e.evaluated_at IS NULL AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.entry_id = e.id AND j.kind = 'evaluate')`,
        ),
        0,
      );
      assert.equal(
        count(
          `SELECT count(*) FROM entries e WHERE e.status <> 'PENDING' AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.entry_id = e.id AND d.event_type = 'entry.completed')`,
        ),
        0,
      );
      assert.equal(
        count(
          `SELECT count(*) FROM entries e WHERE e.evaluated_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.entry_id = e.id AND d.event_type = 'entry.evaluated')`,
        ),
        0,
      );
      assert.equal(
        count(`SELECT count(*) FROM jobs j JOIN entries e ON e.id = j.entry_id WHERE e.evaluated_at IS NOT NULL OR e.status = 'REJECTED'`),
        0,
        'no job left for finished entries',
      );
      // Prize ledger: units taken equal awarded wins within the pool.
      const ledger = db
        .prepare(
          `SELECT p.initial_stock - p.current_stock AS taken,
        (SELECT count(*) FROM awards a WHERE a.prize_id = p.id AND a.status = 'awarded' AND a.beyond_pool = 0) AS awarded FROM prizes p`,
        )
        .all() as Array<{ taken: number; awarded: number }>;
      for (const p of ledger) assert.equal(p.taken, p.awarded);
      assert.ok(
        count('SELECT count(*) FROM lucky_numbers') > 0 && count(`SELECT count(*) FROM entries WHERE status = 'APPROVED'`) > 0,
        'the snapshot caught the pipeline at work',
      );
      assert.deepEqual(all(`SELECT actor, action FROM audit_log WHERE action = 'database.restored'`), [
        { actor: `cli:${userInfo().username}`, action: 'database.restored' },
      ]);
    } finally {
      db.close();
    }
    // The restored database opens and serves through the CLI.
    const list = await runCli(['entries', 'list', '--campaign', w.campaign.id, '--limit', '1', '--json'], { dbPath: restoredPath });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.json.length, 1);
  });

  test('restore refuses an existing database without --force, and one that a running server has open even with it', async () => {
    const exists = await runCli(['restore', join(dir, 'snapshot.db'), '--db', restoredPath, '--json']);
    assert.equal(exists.code, 1);
    assert.equal(exists.json.error.code, 'destination_exists');
    // A real process, as an operator's: the test process is the one holding the database open.
    const inUse = await runCli(['restore', join(dir, 'snapshot.db'), '--db', t.dbPath, '--force', '--json'], { process: true });
    assert.equal(inUse.code, 1);
    assert.equal(inUse.json.error.code, 'database_in_use');
    assert.match(inUse.json.error.message, new RegExp(`is open in node \\(pid ${process.pid}\\); stop it before restoring\\.$`));
    const again = await runCli(['backup', join(dir, 'snapshot.db'), '--db', t.dbPath, '--json']);
    assert.equal(again.json.error.code, 'destination_exists');
  });

  test("a path through a symlink is the same file: restore and backup onto the running server's database are refused", async () => {
    // The server's folder reached through a symlink; /proc names the real path of open files.
    const link = join(dir, 'link-to-server');
    symlinkSync(dirname(t.dbPath), link);
    const viaLink = join(link, basename(t.dbPath));
    const before = t.ctx.db.prepare('SELECT count(*) FROM entries').pluck().get();
    const restore = await runCli(['restore', join(dir, 'snapshot.db'), '--db', viaLink, '--force', '--json'], { process: true });
    assert.equal(restore.code, 1, restore.stdout);
    assert.equal(restore.json.error.code, 'database_in_use');
    // A backup from another database onto the live one, named through the link.
    const other = join(dir, 'other.db');
    assert.equal((await runCli(['campaign', 'list', '--db', other])).code, 0, 'creates the other database');
    const backup = await runCli(['backup', viaLink, '--force', '--db', other, '--json'], { process: true });
    assert.equal(backup.code, 1, backup.stdout);
    assert.equal(backup.json.error.code, 'database_in_use');
    // Nor may a database be backed up onto itself under another spelling.
    const self = await runCli(['backup', viaLink, '--force', '--db', t.dbPath, '--json']);
    assert.equal(self.code, 1, self.stdout);
    assert.equal(self.json.error.code, 'invalid_option');
    assert.ok(existsSync(`${t.dbPath}-wal`), 'the live -wal is still there');
    assert.equal(t.ctx.db.prepare('SELECT count(*) FROM entries').pluck().get(), before);
    const res = await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'after-symlink', body: entryBody({}, 4242) });
    assert.equal(res.status, 202, res.text);
    assert.equal(t.ctx.db.prepare('SELECT count(*) FROM entries WHERE idempotency_key = ?').pluck().get('after-symlink'), 1);
  });

  test('restore --force keeps the replaced database (with its -wal) beside, under a .pre-restore name', async () => {
    const res = await runCli(['restore', join(dir, 'snapshot.db'), '--db', restoredPath, '--force', '--json']);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.json.replaced, /ces\.db\.pre-restore-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    assert.ok(existsSync(res.json.replaced));
    const db = new Database(res.json.replaced, { readonly: true });
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    assert.equal(
      db.prepare(`SELECT count(*) FROM audit_log WHERE action = 'database.restored'`).pluck().get(),
      1,
      'the replaced copy is the first restore, intact',
    );
    db.close();
  });
});

describe('ces restore refuses what it cannot trust', () => {
  let dir: string;
  let good: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ces-restore-'));
    const source = join(dir, 'source.db');
    const made = await runCli(['campaign', 'create', '--name', 'Backup me', '--json'], { dbPath: source });
    assert.equal(made.code, 0, made.stderr);
    good = join(dir, 'good.db');
    const b = await runCli(['backup', good, '--json'], { dbPath: source });
    assert.equal(b.code, 0, b.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a file that fails integrity_check, a file that is not SQLite, a SQLite file without ces tables, a missing file', async () => {
    const corrupt = join(dir, 'corrupt.db');
    copyFileSync(good, corrupt);
    const fd = openSync(corrupt, 'r+');
    // Scribble over the second page (a b-tree page): the header stays valid, the content does not.
    writeSync(fd, Buffer.alloc(2048, 0xa5), 0, 2048, 4096 + 8);
    closeSync(fd);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'this is not a database\n'.repeat(200));
    const foreign = join(dir, 'foreign.db');
    const f = new Database(foreign);
    f.exec('CREATE TABLE t (x)');
    f.close();
    const cases: Array<[string, string]> = [
      [corrupt, 'backup_corrupt'],
      [text, 'backup_corrupt'],
      [foreign, 'not_a_ces_database'],
      [join(dir, 'missing.db'), 'not_found'],
    ];
    for (const [src, code] of cases) {
      const target = join(dir, `target-${code}.db`);
      const res = await runCli(['restore', src, '--db', target, '--json']);
      assert.equal(res.code, 1, src);
      assert.equal(res.json.error.code, code, `${src}: ${res.stdout}`);
      assert.equal(existsSync(target), false, 'nothing was put in place');
      const left = readdirSync(dir).filter((name) => name.startsWith(`.target-${code}.db.`));
      assert.deepEqual(left, [], 'the copy that failed its check is removed');
    }
    const ok = await runCli(['restore', good, '--db', join(dir, 'target-ok.db'), '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    // Each step on stderr (a check of gigabytes takes minutes), the result alone on stdout.
    assert.match(
      ok.stderr,
      /^ces: copying .*good\.db \(\d+ kB\) to a temporary file beside .*target-ok\.db\nces: copied in \d+ s; checking the copy: integrity_check reads every page and matches each index against its table, then foreign_key_check\nces: checked in \d+ s\n$/,
    );
    assert.equal(ok.json.integrity, 'ok');
    const shown = await runCli(['campaign', 'list', '--json'], { dbPath: join(dir, 'target-ok.db') });
    assert.deepEqual(
      shown.json.map((c: { name: string }) => c.name),
      ['Backup me'],
    );
  });
});
