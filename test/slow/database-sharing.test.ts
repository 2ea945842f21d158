// Processes sharing one database file, through the real CLI and real `ces serve` children:
// - a second `ces serve` refuses to start beside a running one (it would send the first one's
//   webhooks again), and starts once the first has stopped or died;
// - a newer ces does not upgrade the schema of a database another process has open (an older
//   server's statements would then fail);
// - `ces backup` copies the database as it is: never upgraded, never created;
// - a --db that cannot be opened, or is not a ces database, is refused with its own code and
//   left as it was.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, SCHEMA_VERSION } from '../../src/db/migrate.ts';
import { entryBody, makeCampaign, request, runCli } from '../support/harness.ts';
import { killServe, openFileCtx, spawnServe, type ServeProcess } from '../support/serve-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-sharing-'));
const servers: ServeProcess[] = [];
after(async () => {
  for (const s of servers) await killServe(s);
  rmSync(dir, { recursive: true, force: true });
});

async function serve(dbPath: string): Promise<ServeProcess> {
  // The first server's /healthz must say 200: at a 20 ms tick a busy machine's 200 ms stall would
  // count the tick dead. The tick is not what these tests are about.
  const s = await spawnServe({ dbPath, tickMs: 1_000 });
  servers.push(s);
  return s;
}

/** Starts `ces serve` expecting it to refuse: resolves with its exit code and output. */
async function serveRefused(dbPath: string): Promise<{ code: number | null; output: string }> {
  const error = await serve(dbPath).then(
    () => assert.fail('the second ces serve started'),
    (e: Error) => e,
  );
  const code = /exited early \(code (\d+)/.exec(error.message)?.[1];
  return { code: code === undefined ? null : Number(code), output: error.message };
}

const version = (path: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

/** A ces database file at the schema version before this one, as the previous ces left it. */
function previousVersionDb(name: string, version = SCHEMA_VERSION - 1): string {
  const path = join(dir, name);
  const db = new Database(path);
  migrate(db, version);
  db.close();
  return path;
}

describe('one ces serve per database', () => {
  test(
    'a second server is refused while the first runs; the first keeps serving; after SIGTERM or SIGKILL the next one starts',
    { timeout: 120_000 },
    async () => {
      const dbPath = join(dir, 'served.db');
      const setup = await openFileCtx(dbPath);
      const world = makeCampaign(setup);
      setup.db.close();
      const first = await serve(dbPath);

      const refused = await serveRefused(dbPath);
      assert.equal(refused.code, 1);
      assert.match(
        refused.output,
        new RegExp(
          `ces: cannot start: A ces server \\(process ${first.child.pid}, started [^)]+\\) is already serving .*; .*give this one another --db\\.`,
        ),
      );

      const health = await request(first.url, 'GET', '/healthz');
      assert.equal(health.status, 200, health.text);
      const accepted = await request(first.url, 'POST', '/v1/entries', {
        key: world.liveKey,
        idempotencyKey: 'after-refusal',
        body: entryBody({}, 1),
      });
      assert.equal(accepted.status, 202, accepted.text);

      // A graceful stop removes the record: the next server starts without a word about it.
      first.child.kill('SIGTERM');
      assert.deepEqual(await first.exited, { code: 0, signal: null });
      const second = await serve(dbPath);
      assert.doesNotMatch(second.output(), /last served/);

      // A server that died leaves its record behind; its pid no longer has the file open.
      second.child.kill('SIGKILL');
      await second.exited;
      const third = await serve(dbPath);
      const res = await request(third.url, 'POST', '/v1/entries', {
        key: world.liveKey,
        idempotencyKey: 'after-restart',
        body: entryBody({}, 2),
      });
      assert.equal(res.status, 202, res.text);
    },
  );
});

describe('a newer ces and a database another process has open', () => {
  test('a CLI command refuses to upgrade it (database_in_use, naming the process) and upgrades it once that process is gone', async () => {
    const path = previousVersionDb('held.db');
    // This test process holds the file open, as an older ces serve would.
    const older = new Database(path);
    const refused = await runCli(['campaign', 'list', '--json'], { dbPath: path, process: true });
    assert.equal(refused.code, 1);
    assert.equal(refused.json.error.code, 'database_in_use');
    assert.match(
      refused.json.error.message,
      new RegExp(`schema version ${SCHEMA_VERSION - 1} and this ces needs ${SCHEMA_VERSION}; node \\(pid ${process.pid}\\) has it open`),
    );
    assert.equal(version(path), SCHEMA_VERSION - 1, 'not upgraded');

    // Nor does a newer ces serve upgrade it.
    const serveRefusal = await serveRefused(path);
    assert.equal(serveRefusal.code, 1);
    assert.match(serveRefusal.output, /cannot start: The database has schema version/);
    assert.equal(version(path), SCHEMA_VERSION - 1, 'not upgraded');

    older.close();
    const upgraded = await runCli(['campaign', 'list', '--json'], { dbPath: path });
    assert.equal(upgraded.code, 0, upgraded.stderr);
    assert.deepEqual(upgraded.json, []);
    assert.equal(version(path), SCHEMA_VERSION);
  });

  test('a database of the current version is shared as before: commands run beside whoever has it open', async () => {
    const path = join(dir, 'current.db');
    const ctx = await openFileCtx(path);
    const res = await runCli(['campaign', 'list', '--json'], { dbPath: path });
    assert.equal(res.code, 0, res.stderr);
    ctx.db.close();
  });
});

describe('ces backup copies the database as it is', () => {
  test('an older schema is copied at its version, even while an older server has it open, and the source is not upgraded', async () => {
    const path = previousVersionDb('older.db');
    const older = new Database(path);
    const dest = join(dir, 'older-backup.db');
    const res = await runCli(['backup', dest, '--json'], { dbPath: path });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.json.schema_version, SCHEMA_VERSION - 1);
    assert.equal(version(path), SCHEMA_VERSION - 1);
    assert.equal(version(dest), SCHEMA_VERSION - 1);
    // Recorded in the audit_log the older schema has, under the current action name (a schema older
    // than 13 keeps it in subject and detail: test/slow/audit.test.ts, schema upgrade).
    assert.equal(older.prepare("SELECT count(*) FROM audit_log WHERE action = 'backup.created'").pluck().get(), 1);
    older.close();
  });

  test('a database from before version 13 gets its backup record in the audit_log it has (subject, detail)', async () => {
    const path = previousVersionDb('v12.db', 12);
    const res = await runCli(['backup', join(dir, 'v12-backup.db'), '--json'], { dbPath: path });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(version(path), 12);
    const older = new Database(path);
    assert.equal(older.prepare("SELECT count(*) FROM audit_log WHERE action = 'backup.created' AND json_valid(detail)").pluck().get(), 1);
    older.close();
  });

  test('no database at --db is an error, and none is created there', async () => {
    const path = join(dir, 'nowhere', 'ces.db');
    const res = await runCli(['backup', join(dir, 'nothing.db'), '--json'], { dbPath: path });
    assert.equal(res.code, 1);
    assert.equal(res.json.error.code, 'database_not_found');
    assert.equal(existsSync(path), false);
    assert.equal(existsSync(join(dir, 'nothing.db')), false);
  });

  test('a SQLite file without ces tables, and a ces database newer than this ces, are refused', async () => {
    const foreign = join(dir, 'foreign.db');
    const f = new Database(foreign);
    f.exec('CREATE TABLE t (x)');
    f.close();
    const notCes = await runCli(['backup', join(dir, 'foreign-backup.db'), '--json'], { dbPath: foreign });
    assert.equal(notCes.json.error.code, 'not_a_ces_database');

    const newer = join(dir, 'newer.db');
    const n = new Database(newer);
    migrate(n);
    n.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    n.close();
    const tooNew = await runCli(['backup', join(dir, 'newer-backup.db'), '--json'], { dbPath: newer });
    assert.equal(tooNew.json.error.code, 'not_a_ces_database');
    assert.match(tooNew.json.error.message, new RegExp(`schema version ${SCHEMA_VERSION + 1}, newer than this ces`));
    assert.equal(existsSync(join(dir, 'newer-backup.db')), false);
  });
});

describe('a --db that is not a usable ces database', () => {
  test('a path under a file, a folder, a very long name, or a file under /proc: cannot_open_database, saying why', async () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'notes');
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const cases: Array<[string, RegExp]> = [
      [join(file, 'ces.db'), /: a part of its folder path is a file$/],
      [folder, /: it is a folder$/],
      [join(dir, `${'x'.repeat(300)}.db`), /: the path is too long$/],
      // Opened, but no WAL file can be made beside it.
      ['/proc/version', /: (SQLite cannot open it|permission denied)$/],
    ];
    for (const [path, reason] of cases) {
      const res = await runCli(['campaign', 'list', '--json'], { dbPath: path });
      assert.equal(res.code, 1, res.stderr);
      assert.equal(res.json.error.code, 'cannot_open_database', res.stdout);
      assert.match(res.json.error.message, reason);
      assert.ok(res.json.error.message.startsWith(`cannot open the database at ${path}`));
      assert.equal(res.stderr, `ces: ${res.json.error.message}\n`);
    }
    assert.equal(readFileSync(file, 'utf8'), 'notes');
  });

  test('a file that is not SQLite, an SQLite file of something else, and a newer ces database: not_a_ces_database, and each is left as it was', async () => {
    const text = join(dir, 'text.db');
    writeFileSync(text, 'not a database at all, but long enough to have a header: '.repeat(4));
    const foreign = join(dir, 'someone-elses.db');
    const f = new Database(foreign);
    f.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('theirs')");
    f.close();
    const newer = join(dir, 'from-a-newer-ces.db');
    const n = new Database(newer);
    migrate(n);
    n.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    n.close();
    const cases: Array<[string, RegExp]> = [
      [text, /is not a database \(not an SQLite file\)/],
      [foreign, /is an SQLite database of something else/],
      [newer, new RegExp(`has schema version ${SCHEMA_VERSION + 1}, newer than this ces \\(${SCHEMA_VERSION}\\); upgrade ces`)],
    ];
    for (const [path, message] of cases) {
      const res = await runCli(['campaign', 'list', '--json'], { dbPath: path });
      assert.equal(res.code, 1, res.stderr);
      assert.equal(res.json.error.code, 'not_a_ces_database', res.stdout);
      assert.match(res.json.error.message, message);
    }
    assert.match(readFileSync(text, 'utf8'), /^not a database at all/);
    const tables = new Database(foreign, { readonly: true });
    assert.deepEqual(tables.prepare('SELECT name FROM sqlite_schema').pluck().all(), ['t'], 'no ces table created among theirs');
    assert.equal(tables.pragma('user_version', { simple: true }), 0);
    tables.close();
    assert.equal(version(newer), SCHEMA_VERSION + 1);
  });
});
