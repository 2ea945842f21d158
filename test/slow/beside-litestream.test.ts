// Living beside Litestream (issue 33): a refusal names the process that holds the database, from
// /proc ("litestream (pid N)", "ces serve (pid N)"), instead of guessing at an older ces serve; a
// schema upgrade goes ahead beside Litestream (it copies WAL frames, whatever they hold) but not
// beside another process; the tables Litestream adds (_litestream_seq, _litestream_lock) make no
// database look foreign and fail no check. The holders are real processes: a node child that opens
// the file with better-sqlite3 and sets its title (its /proc/PID/comm) as Litestream's binary has,
// or that is started as the executable is, `./ces serve`.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { migrate, SCHEMA_VERSION } from '../../src/db/migrate.ts';
import { entryBody, makeCampaign, request, ROOT, runCli } from '../support/harness.ts';
import { killServe, openFileCtx, spawnServe } from '../support/serve-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-litestream-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Holder {
  pid: number;
  /** Closes its connection and exits; resolves once it has. */
  release(): Promise<void>;
}

const holders = new Set<ChildProcess>();
after(() => {
  for (const child of holders) child.kill('SIGKILL');
});

/** A node script that holds `dbPath` open with a read done, as Litestream does, until its stdin ends. */
function holderScript(dbPath: string, title?: string): string {
  return `
    ${title === undefined ? '' : `process.title = ${JSON.stringify(title)};`}
    const db = new (require(${JSON.stringify(join(ROOT, 'node_modules/better-sqlite3'))}))(${JSON.stringify(dbPath)});
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    process.stdout.write('ready\\n');
    process.stdin.on('data', () => {});
    process.stdin.on('end', () => { db.close(); process.exit(0); });
  `;
}

/** Starts a holder and resolves once it has the file open. */
async function startHolder(command: string, args: string[], cwd: string): Promise<Holder> {
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  holders.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before it opened the file`)));
  });
  return {
    pid: child.pid!,
    release: async () => {
      child.stdin!.end();
      await exited;
      holders.delete(child);
    },
  };
}

/** A process named `title` (its comm) holding `dbPath` open. */
function holdOpen(dbPath: string, title: string): Promise<Holder> {
  return startHolder(process.execPath, ['-e', holderScript(dbPath, title)], ROOT);
}

/**
 * A process started as `./ces serve` holding `dbPath` open, as the executable is: its comm and
 * argv[0] are what /proc shows of it, so node under the name ces (a link) running a file named serve.
 */
function holdOpenAsExecutable(dbPath: string): Promise<Holder> {
  const bin = mkdtempSync(join(dir, 'bin-'));
  symlinkSync(process.execPath, join(bin, 'ces'));
  writeFileSync(join(bin, 'serve'), holderScript(dbPath));
  return startHolder('./ces', ['serve'], bin);
}

const version = (path: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

/** What Litestream adds to the database it replicates. */
function addLitestreamTables(path: string): void {
  const db = new Database(path);
  db.exec('CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER)');
  db.exec('CREATE TABLE _litestream_lock (id INTEGER)');
  db.close();
}

/** A ces database with a campaign, through the CLI. */
async function cesDatabase(name: string): Promise<{ path: string; campaignId: string }> {
  const path = join(dir, name);
  const created = await runCli(['campaign', 'create', '--name', 'Verão', '--json'], { dbPath: path });
  assert.equal(created.code, 0, created.stderr);
  return { path, campaignId: created.json.id };
}

describe('ces restore beside Litestream', () => {
  test('refused while Litestream holds the database, naming it and the order to follow; done once it has stopped', async () => {
    const live = await cesDatabase('live.db');
    const backup = join(dir, 'live-backup.db');
    assert.equal((await runCli(['backup', backup, '--json'], { dbPath: live.path })).code, 0);

    const litestream = await holdOpen(live.path, 'litestream');
    const refused = await runCli(['restore', backup, '--force', '--json'], { dbPath: live.path });
    assert.equal(refused.code, 1);
    assert.equal(refused.json.error.code, 'database_in_use');
    assert.match(refused.json.error.message, new RegExp(`is open in litestream \\(pid ${litestream.pid}\\); stop it before restoring\\.`));
    assert.match(
      refused.json.error.message,
      /Beside Litestream: stop the server and Litestream, restore .*check the restored file, then start them again \(npx ces check --db \S*live\.db\)\./,
    );
    assert.doesNotMatch(refused.json.error.message, /older ces|a running ces serve\?/);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.startsWith('live.db.pre-restore')),
      [],
      'nothing was moved aside',
    );

    await litestream.release();
    const restored = await runCli(['restore', backup, '--force', '--json'], { dbPath: live.path });
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal((await runCli(['check', '--json'], { dbPath: live.path })).code, 0);
  });

  test('refused while ces serve runs, naming it as ces serve', { timeout: 90_000 }, async () => {
    const live = await cesDatabase('served.db');
    const backup = join(dir, 'served-backup.db');
    assert.equal((await runCli(['backup', backup, '--json'], { dbPath: live.path })).code, 0);
    const server = await spawnServe({ dbPath: live.path });
    try {
      const refused = await runCli(['restore', backup, '--force', '--json'], { dbPath: live.path });
      assert.equal(refused.json.error.code, 'database_in_use');
      assert.match(
        refused.json.error.message,
        new RegExp(`is open in ces serve \\(pid ${server.child.pid}\\); stop it before restoring\\.$`),
      );
    } finally {
      await killServe(server);
    }
  });

  test('refused while the executable runs, naming it as ces serve', async () => {
    const live = await cesDatabase('binary.db');
    const backup = join(dir, 'binary-backup.db');
    assert.equal((await runCli(['backup', backup, '--json'], { dbPath: live.path })).code, 0);
    const server = await holdOpenAsExecutable(live.path);
    try {
      const refused = await runCli(['restore', backup, '--force', '--json'], { dbPath: live.path });
      assert.equal(refused.json.error.code, 'database_in_use');
      assert.match(refused.json.error.message, new RegExp(`is open in ces serve \\(pid ${server.pid}\\); stop it before restoring\\.$`));
    } finally {
      await server.release();
    }
  });
});

describe('a schema upgrade beside another process', () => {
  function previousVersionDb(name: string): string {
    const path = join(dir, name);
    const db = new Database(path);
    migrate(db, SCHEMA_VERSION - 1);
    db.close();
    return path;
  }

  test('goes ahead beside Litestream, which replicates it like any write', async () => {
    const path = previousVersionDb('upgrade-beside-litestream.db');
    const litestream = await holdOpen(path, 'litestream');
    try {
      const listed = await runCli(['campaign', 'list', '--json'], { dbPath: path });
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(version(path), SCHEMA_VERSION);
    } finally {
      await litestream.release();
    }
  });

  test('is refused beside any other process, which the message names; done once it has stopped', async () => {
    const path = previousVersionDb('upgrade-beside-other.db');
    const other = await holdOpen(path, 'legacy-report');
    const refused = await runCli(['campaign', 'list', '--json'], { dbPath: path });
    assert.equal(refused.code, 1);
    assert.equal(refused.json.error.code, 'database_in_use');
    assert.match(
      refused.json.error.message,
      new RegExp(
        `schema version ${SCHEMA_VERSION - 1} and this ces needs ${SCHEMA_VERSION}; legacy-report \\(pid ${other.pid}\\) has it open`,
      ),
    );
    assert.equal(version(path), SCHEMA_VERSION - 1, 'not upgraded');
    await other.release();
    assert.equal((await runCli(['campaign', 'list', '--json'], { dbPath: path })).code, 0);
    assert.equal(version(path), SCHEMA_VERSION);
  });
});

describe("Litestream's tables", () => {
  test('a new file Litestream touched first becomes a ces database', async () => {
    const path = join(dir, 'litestream-first.db');
    addLitestreamTables(path);
    const created = await runCli(['campaign', 'create', '--name', 'Primeira', '--json'], { dbPath: path });
    assert.equal(created.code, 0, created.stderr);
    assert.equal(version(path), SCHEMA_VERSION);
    assert.equal((await runCli(['check', '--json'], { dbPath: path })).code, 0);
  });

  test('a file with other tables is still not a ces database', async () => {
    const path = join(dir, 'theirs.db');
    addLitestreamTables(path);
    const db = new Database(path);
    db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY)');
    db.close();
    const refused = await runCli(['campaign', 'list', '--json'], { dbPath: path });
    assert.equal(refused.json.error.code, 'not_a_ces_database');
  });

  test(
    'in a ces database they fail no check: ces check, backup, restore, and ces serve on the restored file',
    { timeout: 90_000 },
    async () => {
      const live = await cesDatabase('with-litestream-tables.db');
      const setup = await openFileCtx(live.path);
      const world = makeCampaign(setup);
      setup.db.close();
      addLitestreamTables(live.path);

      const check = await runCli(['check', '--json'], { dbPath: live.path });
      assert.equal(check.code, 0, check.stdout);
      assert.deepEqual(check.json, { ok: true, integrity_check: ['ok'], foreign_key_check: [] });
      const backup = join(dir, 'with-litestream-tables-backup.db');
      const backedUp = await runCli(['backup', backup, '--json'], { dbPath: live.path });
      assert.equal(backedUp.code, 0, backedUp.stderr);
      const restoredPath = join(dir, 'with-litestream-tables-restored.db');
      const restored = await runCli(['restore', backup, '--json'], { dbPath: restoredPath });
      assert.equal(restored.code, 0, restored.stderr);

      // A file it has not opened before: ces serve checks it first, and starts.
      const server = await spawnServe({ dbPath: restoredPath });
      try {
        const res = await request(server.url, 'POST', '/v1/entries', {
          key: world.liveKey,
          idempotencyKey: 'restored-1',
          body: entryBody({}, 1),
        });
        assert.equal(res.status, 202, res.text);
      } finally {
        await killServe(server);
      }
    },
  );
});
