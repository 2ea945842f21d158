// An anonymisation's erasure from the file while another connection holds a read snapshot (issue
// 43): SQLite can then neither copy the later pages back over the older ones nor empty the WAL, so
// the participant's CPF stays on disk. The command must say so ("waiting_for_readers", naming the
// reader's process as /proc does), intake must go on meanwhile, and once the reader has ended the
// server's tick completes the erasure: only then is it reported done (audit, /healthz), and only
// then is the CPF in no file. The reader is a second better-sqlite3 connection in a process of its
// own with a read transaction open, as a `sqlite3` shell or Litestream holds one.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { closeCampaign } from '../../src/closing/close.ts';
import {
  cpf,
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  OPERATOR,
  runCli,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
} from '../support/harness.ts';

const ROSA = { document_number: cpf(943), full_name: 'Rosa Quaresma Ventura', email: 'rosa.quaresma.ventura@example.org' };
const NEEDLES = [ROSA.document_number, 'Quaresma', 'rosa.quaresma'];
const fileBytes = (path: string): Buffer => (existsSync(path) ? readFileSync(path) : Buffer.alloc(0));
const holds = (bytes: Buffer): string[] => NEEDLES.filter((n) => bytes.includes(Buffer.from(n, 'utf8')));

const READER_CODE = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2], { readonly: true, fileMustExist: true });
db.exec('BEGIN');
db.prepare('SELECT count(*) FROM enrollments').get();
process.stdout.write('reading\\n');
process.stdin.once('data', () => {
  db.exec('COMMIT');
  db.close();
  process.exit(0);
});
`;

/** A process with a read transaction open on the file until `release()`. */
async function holdSnapshot(path: string): Promise<{ child: ChildProcessWithoutNullStreams; release: () => Promise<void> }> {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const child = spawn(process.execPath, ['-e', READER_CODE, sqlite, path]);
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => (String(d).startsWith('reading') ? resolve() : reject(new Error(String(d)))));
    child.once('exit', (code) => reject(new Error(`the reader exited (${code}): ${child.stderr.read() ?? ''}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    release: async () => {
      child.stdin.write('go\n');
      await exited;
    },
  };
}

let t: TestServer;
let w: World;
before(async () => {
  t = await startTestServer();
  w = makeCampaign(t.ctx);
});
after(() => t.close());

const erasures = (): Array<{ actor: string; details: string }> =>
  t.ctx.db.prepare(`SELECT actor, details FROM audit_log WHERE action = 'participant.erasure_completed' ORDER BY id`).all() as Array<{
    actor: string;
    details: string;
  }>;

test('while a reader holds a snapshot the anonymisation says it waits, naming the reader; once it ends the tick erases, and only then is it said done', async () => {
  await submitEntry(t, w.liveKey, entryBody({ enrollment: ROSA }, 0), 'rosa-1');
  await drainAll(t);
  t.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
  assert.deepEqual(holds(fileBytes(t.dbPath)).sort(), [...NEEDLES].sort(), 'the search finds every value before');

  const reader = await holdSnapshot(t.dbPath);
  try {
    const res = await runCli(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', ROSA.document_number, '--json'], {
      dbPath: t.dbPath,
    });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.json.erasure, 'waiting_for_readers', 'not said erased while the reader holds');
    assert.ok(res.json.erasure_waiting_for.includes(`node (pid ${reader.child.pid})`), JSON.stringify(res.json.erasure_waiting_for));
    const plain = await runCli(['audit', 'list', '--action', 'participant.erasure_completed', '--json'], { dbPath: t.dbPath });
    assert.deepEqual(plain.json, [], 'no erasure recorded as completed');
    // What the command says is true: the older page images are still on disk.
    assert.notDeepEqual(holds(Buffer.concat([fileBytes(t.dbPath), fileBytes(`${t.dbPath}-wal`)])), [], 'the CPF is still in a file');

    // Intake goes on while the erasure waits: an entry is answered, the erasure still pending, the reader still there.
    const entry = await t.request('POST', '/v1/entries', {
      key: w.liveKey,
      body: entryBody({ enrollment: { document_number: cpf(944) } }, 1),
      headers: { 'idempotency-key': 'other-1' },
    });
    assert.equal(entry.status, 202, entry.text);
    assert.equal(reader.child.exitCode, null, 'the reader still holds its snapshot');

    const waiting = await t.request('GET', '/healthz');
    assert.deepEqual(waiting.body.erasures, { pending: 1, oldest_anonymized_at: res.json.anonymized_at });
    assert.equal(waiting.body.status, 'ok', 'a pending erasure does not take the server out');
    assert.match((await t.request('GET', '/metrics')).text, /^ces_erasures_pending 1$/m);

    // The tick tries again while the reader holds: still waiting, still on disk.
    await t.tick();
    assert.deepEqual(erasures(), []);
    assert.equal((await t.request('GET', '/healthz')).body.erasures.pending, 1);
  } finally {
    await reader.release();
  }

  await t.tick();
  assert.deepEqual(holds(fileBytes(t.dbPath)), [], 'the database file');
  assert.deepEqual(holds(fileBytes(`${t.dbPath}-wal`)), [], 'the WAL');
  const [done] = erasures();
  assert.ok(done, 'participant.erasure_completed recorded once the reader ended');
  assert.match(done.actor, /^cli:/, 'on behalf of the operator who asked');
  assert.equal(JSON.parse(done.details).mode, 'live');
  const healthy = await t.request('GET', '/healthz');
  assert.deepEqual(healthy.body.erasures, { pending: 0, oldest_anonymized_at: null });
  assert.match((await t.request('GET', '/metrics')).text, /^ces_erasures_pending 0$/m);
});

test('with no reader the anonymisation erases at once and says done', async () => {
  await submitEntry(t, w.liveKey, entryBody({ enrollment: { document_number: cpf(945), full_name: 'Ilda Parreira' } }, 2), 'ilda-1');
  await drainAll(t);
  const before = erasures().length;
  const res = await runCli(['participant', 'anonymize', '--campaign', w.campaign.id, '--document', cpf(945), '--json'], {
    dbPath: t.dbPath,
  });
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.json.erasure, 'done');
  assert.deepEqual(res.json.erasure_waiting_for, []);
  assert.equal(erasures().length, before + 1);
  const bytes = Buffer.concat([fileBytes(t.dbPath), fileBytes(`${t.dbPath}-wal`)]);
  assert.ok(!bytes.includes(Buffer.from(cpf(945))) && !bytes.includes(Buffer.from('Parreira')));
});

// The closing carries out the anonymisations the legal hold kept back (issue 42): the same erasure,
// reported by the closing in the same words.
test('a closing that carries out a held anonymisation while a reader holds a snapshot says it waits; the tick erases it', async () => {
  const held = makeCampaign(t.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
  const prizeId = makePrize(t.ctx, held.campaign.id, 'live', 3).id;
  const TEREZA = { document_number: cpf(946), full_name: 'Tereza Alcântara Bispo' };
  await submitEntry(
    t,
    held.liveKey,
    entryBody({ enrollment: TEREZA, instant_win: { won: true, prize_definition_id: prizeId } }, 3),
    'tereza-1',
  );
  await drainAll(t);
  const refused = await runCli(
    ['participant', 'anonymize', '--campaign', held.campaign.id, '--document', TEREZA.document_number, '--json'],
    {
      dbPath: t.dbPath,
    },
  );
  assert.equal(refused.json.error.code, 'legal_hold');
  t.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
  const before = erasures().length;

  const reader = await holdSnapshot(t.dbPath);
  try {
    const closed = closeCampaign(t.ctx, held.campaign.id, { force: true, reason: 'teste' }, OPERATOR, { truncateRetries: 0 });
    assert.equal(closed.anonymizations_carried_out, 1);
    assert.equal(closed.erasure?.erasure, 'waiting_for_readers');
    assert.ok(closed.erasure.erasure_waiting_for.includes(`node (pid ${reader.child.pid})`));
    const onDisk = Buffer.concat([fileBytes(t.dbPath), fileBytes(`${t.dbPath}-wal`)]);
    assert.ok(onDisk.includes(Buffer.from(TEREZA.document_number)), 'the CPF is still on disk');
    assert.equal(erasures().length, before);
  } finally {
    await reader.release();
  }
  await t.tick();
  assert.equal(erasures().length, before + 1);
  // Only the CPF: the prestação de contas the closing stored keeps the winner's name, as SPA must see it.
  const bytes = Buffer.concat([fileBytes(t.dbPath), fileBytes(`${t.dbPath}-wal`)]);
  assert.ok(!bytes.includes(Buffer.from(TEREZA.document_number)), 'the CPF is in no file');
});

test('an erasure still waiting when the server is restarted with external checkpoints is handed to Litestream by its first tick', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-erasure-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const own = await startTestServer({ dbPath: join(dir, 'ces.db') });
  const world = makeCampaign(own.ctx);
  await submitEntry(own, world.liveKey, entryBody({ enrollment: { document_number: cpf(947) } }, 4), 'lia-1');
  await drainAll(own);
  const reader = await holdSnapshot(own.dbPath);
  let anonymizedAt: string;
  try {
    const res = await runCli(['participant', 'anonymize', '--campaign', world.campaign.id, '--document', cpf(947), '--json'], {
      dbPath: own.dbPath,
    });
    assert.equal(res.json.erasure, 'waiting_for_readers', res.stderr);
    anonymizedAt = res.json.anonymized_at;
    // Stopped while the reader still holds: nothing has erased it.
    await own.close();
  } finally {
    await reader.release();
  }

  const external = await startTestServer({ dbPath: own.dbPath, env: { CES_CHECKPOINTS: 'external' } });
  try {
    assert.deepEqual((await external.request('GET', '/healthz')).body.erasures, { pending: 1, oldest_anonymized_at: anonymizedAt });
    await external.tick();
    assert.deepEqual((await external.request('GET', '/healthz')).body.erasures, { pending: 0, oldest_anonymized_at: null });
    const rows = external.ctx.db
      .prepare(`SELECT action, actor, details FROM audit_log WHERE action LIKE 'participant.erasure%' ORDER BY id`)
      .all() as Array<{ action: string; actor: string; details: string }>;
    assert.deepEqual(
      rows.map((r) => r.action),
      ['participant.erasure_left_to_litestream'],
      'handed over, never said erased by ces',
    );
    assert.match(rows[0].actor, /^cli:/);
    assert.equal(JSON.parse(rows[0].details).anonymized_at, anonymizedAt);
    await external.tick();
    assert.equal(
      (external.ctx.db.prepare(`SELECT count(*) AS n FROM audit_log WHERE action LIKE 'participant.erasure%'`).get() as { n: number }).n,
      1,
      'once',
    );
  } finally {
    await external.close();
  }
});
