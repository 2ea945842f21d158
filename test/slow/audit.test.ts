// The audit log (docs/operations.md#audit-log-ces-audit-list): every change an operator (`cli:<OS
// user>`) or an API key (`api_key:<key id>`, its mode in details) makes is recorded in the
// transaction of the change, listed newest first by `ces audit list`, and no record holds a secret,
// an API key or a participant's personal data.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { recordAudit } from '../../src/audit/audit.ts';
import { migrate } from '../../src/db/migrate.ts';
import {
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  OPERATOR,
  runCli,
  startTestServer,
  submitEntry,
  type TestServer,
} from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';

const ME = `cli:${userInfo().username}`;
const PRIVATE_OK = { CES_ALLOW_PRIVATE_WEBHOOKS: '1' };

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(): Promise<TestServer> {
  const t = await startTestServer();
  cleanups.push(() => t.close());
  return t;
}

interface AuditJson {
  id: number;
  at: string;
  actor: string;
  action: string;
  campaign_id: string | null;
  details: Record<string, unknown>;
}

async function auditList(t: TestServer, args: string[] = []): Promise<AuditJson[]> {
  const res = await runCli(['audit', 'list', '--limit', '1000', ...args, '--json'], { dbPath: t.dbPath });
  assert.equal(res.code, 0, res.stderr);
  return res.json;
}

/** Runs a CLI command that must succeed; its --json output. */
async function cli(t: TestServer, args: string[], env: Record<string, string> = {}): Promise<any> {
  const res = await runCli([...args, '--json'], { dbPath: t.dbPath, env });
  assert.equal(res.code, 0, `${args.join(' ')}: ${res.stderr}`);
  return res.json;
}

describe('what operators do at the CLI', () => {
  test('every change is recorded with actor cli:<OS user> and its campaign, newest first, and no record holds a secret, a key or personal data', async () => {
    const t = await server();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const campaign = await cli(t, ['campaign', 'create', '--name', 'Audited', '--instant-prize', 'INTEGRATOR_DECLARED']);
    const id: string = campaign.id;
    await cli(t, ['campaign', 'update', id, '--require', 'full_name,email', '--webhook-api', 'live']);
    const live = await cli(t, ['key', 'issue', '--campaign', id, '--mode', 'live', '--label', 'crm']);
    const testKey = await cli(t, ['key', 'issue', '--campaign', id, '--mode', 'test']);
    const rotated = await cli(t, ['key', 'rotate', testKey.id, '--grace', '60']);
    await cli(t, ['key', 'revoke', rotated.key.id]);
    const hook = await cli(
      t,
      ['webhook', 'set', '--campaign', id, '--url', receiver.url.replace('https://', 'https://hook:pa55word@')],
      PRIVATE_OK,
    );
    await cli(t, ['webhook', 'set', '--campaign', id, '--inactive'], PRIVATE_OK);
    const secret2 = await cli(t, ['webhook', 'rotate-secret', '--campaign', id, '--grace', '60']);
    const prize = await cli(t, [
      'prize',
      'add',
      '--campaign',
      id,
      '--mode',
      'live',
      '--name',
      'Voucher',
      '--type',
      'voucher',
      '--unit-value',
      '50',
      '--stock',
      '10',
    ]);

    const person = {
      document_number: '529.982.247-25',
      full_name: 'Maria Auditada',
      email: 'maria.auditada@example.com',
      phone: '5511987650001',
    };
    const body = entryBody({ enrollment: person, instant_win: { won: true, prize_definition_id: prize.id } }, 0);
    const entry = await submitEntry(t, live.key, body, 'audit-1');
    await drainAll(t);
    await cli(t, ['award', 'revoke', entry.entry_id, '--reason', 'duplicate receipt']);
    await cli(t, ['participant', 'export', '--campaign', id, '--document', person.document_number]);
    await cli(t, ['participant', 'anonymize', '--campaign', id, '--document', person.document_number, '--reason', 'ticket LGPD-7']);

    const windowed = await cli(t, ['campaign', 'create', '--name', 'Windows', '--instant-prize', 'WINDOW']);
    const windowPrize = await cli(t, [
      'prize',
      'add',
      '--campaign',
      windowed.id,
      '--mode',
      'test',
      '--name',
      'Cap',
      '--type',
      'merch',
      '--unit-value',
      '10',
      '--stock',
      '3',
    ]);
    const windows = await cli(t, [
      'window',
      'add',
      '--campaign',
      windowed.id,
      '--mode',
      'test',
      '--prize',
      windowPrize.id,
      '--opens-at',
      '2026-12-01T00:00:00-03:00',
      '--count',
      '3',
      '--every',
      '3600',
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'ces-audit-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    await cli(t, ['backup', join(dir, 'copy.db')]);

    const records = await auditList(t);
    assert.deepEqual(
      records.map((r) => r.action),
      [
        'backup.created',
        'window.added',
        'prize.added',
        'campaign.created',
        'participant.erasure_completed',
        'participant.anonymized',
        'participant.exported',
        'award.revoked',
        'prize.added',
        'webhook.secret_rotated',
        'webhook.updated',
        'webhook.created',
        'key.revoked',
        'key.rotated',
        'key.issued',
        'key.issued',
        'campaign.updated',
        'campaign.created',
      ],
    );
    assert.deepEqual([...new Set(records.map((r) => r.actor))], [ME]);
    assert.deepEqual(
      records.map((r) => r.id),
      records.map((r) => r.id).sort((a, b) => b - a),
      'newest first',
    );
    for (const r of records) assert.match(r.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(
      records.map((r) => r.campaign_id),
      [null, windowed.id, windowed.id, windowed.id, ...Array(14).fill(id)],
    );
    const find = (action: string) => records.filter((r) => r.action === action).at(-1)!;
    assert.deepEqual(find('campaign.updated').details, { changed: { required_fields: ['full_name', 'email'], webhook_api: 'live' } });
    assert.equal((find('campaign.created').details.settings as Record<string, unknown>).instant_prize, 'INTEGRATOR_DECLARED');
    assert.deepEqual(find('key.rotated').details, {
      key_id: rotated.key.id,
      replaced_key_id: testKey.id,
      mode: 'test',
      grace_seconds: 60,
      replaced_key_revoked_at: rotated.revoked.revoked_at,
    });
    assert.deepEqual(find('key.revoked').details, {
      key_id: rotated.key.id,
      mode: 'test',
      revoked_at: records.find((r) => r.action === 'key.revoked')!.details.revoked_at,
    });
    assert.deepEqual(find('webhook.created').details, {
      endpoint_url: receiver.url.replace('https://', 'https://hook:***@'),
      is_active: true,
    });
    assert.deepEqual(find('webhook.updated').details, { changed: { is_active: false } });
    assert.deepEqual(find('webhook.secret_rotated').details, {
      grace_seconds: 60,
      previous_secret_expires_at: secret2.previous_secret_expires_at,
    });
    assert.deepEqual(find('award.revoked').details, {
      entry_id: entry.entry_id,
      award_id: records.find((r) => r.action === 'award.revoked')!.details.award_id,
      prize_id: prize.id,
      mode: 'live',
    });
    assert.deepEqual(find('window.added').details, {
      prize_id: windowPrize.id,
      mode: 'test',
      count: 3,
      window_ids: [windows[0].id, windows[2].id],
      opens_at: ['2026-12-01T03:00:00.000Z', '2026-12-01T05:00:00.000Z'],
    });
    assert.equal(find('participant.anonymized').details.reason, 'ticket LGPD-7');
    // No reader held a snapshot: erased at once, the record naming the anonymisation it completes.
    const { anonymized_at: anonymizedAt, ...erased } = find('participant.erasure_completed').details;
    assert.deepEqual(erased, {
      enrollment_id: find('participant.anonymized').details.enrollment_id,
      mode: 'live',
      anonymized_audit_id: find('participant.anonymized').id,
    });
    assert.match(anonymizedAt as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(find('backup.created').details.file, join(dir, 'copy.db'));

    // Nothing secret or personal anywhere in the log, read straight from the table.
    const stored = JSON.stringify(t.ctx.db.prepare('SELECT * FROM audit_log').all());
    const forbidden = [
      live.key,
      testKey.key,
      rotated.key.key,
      hook.hmac_secret,
      secret2.hmac_secret,
      'pa55word',
      live.prefix,
      'whsec_',
      'service_live_',
      'service_test_',
      '52998224725',
      '529.982.247-25',
      person.full_name,
      person.email,
      person.phone,
      body.evidence && (body.evidence as { access_key: string }).access_key,
      'duplicate receipt',
    ];
    for (const value of forbidden) assert.ok(!stored.includes(value as string), `audit_log holds ${value}`);
    // The export lists the participant's own earlier requests from the log.
    const again = await runCli(['participant', 'export', '--campaign', id, '--document', person.document_number, '--json'], {
      dbPath: t.dbPath,
    });
    assert.equal(again.json.error.code, 'not_found', 'anonymized: no longer findable by document');
  });

  test('ces audit list: --campaign, --action and --limit filter, the table is readable, bad values fail with stable codes', async () => {
    const t = await server();
    const a = makeCampaign(t.ctx);
    const b = makeCampaign(t.ctx);
    makePrize(t.ctx, b.campaign.id, 'live');
    const all = await auditList(t);
    assert.deepEqual(
      all.map((r) => r.action),
      ['prize.added', 'key.issued', 'key.issued', 'campaign.created', 'key.issued', 'key.issued', 'campaign.created'],
    );
    assert.deepEqual([...new Set(all.map((r) => r.actor))], ['cli:test-operator']);
    assert.deepEqual(Object.keys(all[0]), ['id', 'at', 'actor', 'action', 'campaign_id', 'details']);
    assert.deepEqual(
      (await auditList(t, ['--campaign', a.campaign.id])).map((r) => r.action),
      ['key.issued', 'key.issued', 'campaign.created'],
    );
    assert.deepEqual(
      (await auditList(t, ['--campaign', b.campaign.id.toUpperCase(), '--action', 'KEY.ISSUED'])).map((r) => r.details.mode),
      ['test', 'live'],
    );
    const keys = await auditList(t, ['--action', 'key.issued']);
    assert.deepEqual(
      keys.map((r) => r.details.key_id),
      [b.testKeyId, b.liveKeyId, a.testKeyId, a.liveKeyId],
    );
    const two = await runCli(['audit', 'list', '--limit', '2', '--json'], { dbPath: t.dbPath });
    assert.deepEqual(
      two.json.map((r: AuditJson) => r.id),
      all.slice(0, 2).map((r) => r.id),
    );

    const human = await runCli(['audit', 'list', '--campaign', b.campaign.id], { dbPath: t.dbPath });
    assert.equal(human.code, 0, human.stderr);
    const lines = human.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^ID\s+AT\s+ACTOR\s+ACTION\s+CAMPAIGN_ID\s+DETAILS$/);
    assert.match(
      lines[1],
      new RegExp(
        `^${all[0].id}\\s+2026-11-22T12:00:00.000Z\\s+cli:test-operator\\s+prize.added\\s+${b.campaign.id}\\s+prize_id=\\S+ mode=live name=Voucher type=voucher unit_value=50 stock=10$`,
      ),
    );
    assert.equal(lines.length, 5);

    const failures: Array<[string[], string]> = [
      [['--action', 'key.deleted'], 'invalid_option'],
      [['--limit', '0'], 'invalid_option'],
      [['--limit', 'ten'], 'invalid_option'],
      [['--limit', '100001'], 'invalid_option'],
      [['--campaign', '00000000-0000-4000-8000-000000000000'], 'not_found'],
    ];
    for (const [args, code] of failures) {
      const res = await runCli(['audit', 'list', ...args, '--json'], { dbPath: t.dbPath });
      assert.equal(res.code, 1, args.join(' '));
      assert.equal(res.json.error.code, code, args.join(' '));
      assert.match(res.stderr, /^ces: .+\n$/);
    }
  });

  test('a restore is recorded in the restored database, after the restore', async () => {
    const t = await server();
    makeCampaign(t.ctx);
    const dir = mkdtempSync(join(tmpdir(), 'ces-audit-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    await cli(t, ['backup', join(dir, 'snap.db')]);
    const restoredPath = join(dir, 'restored', 'ces.db');
    const restore = await runCli(['restore', join(dir, 'snap.db'), '--db', restoredPath, '--json']);
    assert.equal(restore.code, 0, restore.stderr);
    const restored = await runCli(['audit', 'list', '--json'], { dbPath: restoredPath });
    assert.deepEqual(
      restored.json.slice(0, 2).map((r: AuditJson) => [r.action, r.actor]),
      [
        ['database.restored', ME],
        ['key.issued', 'cli:test-operator'],
      ],
    );
    assert.equal(restored.json[0].id, restore.json.audit_id);
    assert.deepEqual(restored.json[0].details, { source: join(dir, 'snap.db'), database: restoredPath, replaced: null });
    assert.ok(
      !restored.json.some((r: AuditJson) => r.action === 'backup.created'),
      'the backup was recorded in the live database after the copy was taken',
    );
    assert.deepEqual(await auditList(t, ['--action', 'database.restored']), [], 'the live database knows nothing of the restore elsewhere');
  });
});

describe('what API keys do', () => {
  test("PATCH /v1/webhook, revoke and reassign are recorded as api_key:<key id> with the key's mode; no-ops and refusals are not", async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p1 = makePrize(t.ctx, w.campaign.id, 'test', 5, 'One');
    const p2 = makePrize(t.ctx, w.campaign.id, 'test', 5, 'Two');
    const before = (await auditList(t)).length;
    const created = await t.request('PATCH', '/v1/webhook', { key: w.testKey, body: { endpoint_url: 'https://hooks.example.com/ces' } });
    assert.equal(created.status, 201);
    assert.equal((await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: {} })).status, 200, 'an empty PATCH changes nothing');
    assert.equal(
      (await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://hooks.example.com/ces' } })).status,
      200,
      'nor does the same URL',
    );
    assert.equal(
      (
        await t.request('PATCH', '/v1/webhook', {
          key: w.liveKey,
          body: { endpoint_url: 'https://hooks.example.com/v2', is_active: false },
        })
      ).status,
      200,
    );
    await cli(t, ['campaign', 'update', w.campaign.id, '--webhook-api', 'live']);
    assert.equal((await t.request('PATCH', '/v1/webhook', { key: w.testKey, body: { is_active: true } })).status, 403);

    const e1 = await submitEntry(t, w.testKey, entryBody({ instant_win: { won: true, prize_definition_id: p1.id } }, 1), 'api-1');
    const e2 = await submitEntry(t, w.testKey, entryBody({}, 2), 'api-2');
    await drainAll(t);
    const reassigned = await t.request('POST', `/v1/entries/${e1.entry_id}/instant-prize/reassign`, {
      key: w.testKey,
      body: { prize_definition_id: p2.id, target_entry_id: e2.entry_id },
    });
    assert.equal(reassigned.status, 200, reassigned.text);
    const revoked = await t.request('POST', `/v1/entries/${e2.entry_id}/instant-prize/revoke`, {
      key: w.testKey,
      body: { reason: 'Maria asked' },
    });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(
      (await t.request('POST', `/v1/entries/${e2.entry_id}/instant-prize/revoke`, { key: w.testKey, body: {} })).status,
      200,
      'revoking again is idempotent',
    );

    const records = (await auditList(t)).slice(0, -before);
    assert.deepEqual(
      records.map((r) => [r.action, r.actor, r.details.mode]),
      [
        ['award.revoked', `api_key:${w.testKeyId}`, 'test'],
        ['award.reassigned', `api_key:${w.testKeyId}`, 'test'],
        ['campaign.updated', ME, undefined],
        ['webhook.updated', `api_key:${w.liveKeyId}`, 'live'],
        ['webhook.created', `api_key:${w.testKeyId}`, 'test'],
      ],
    );
    assert.deepEqual(records[3].details, { changed: { endpoint_url: 'https://hooks.example.com/v2', is_active: false }, mode: 'live' });
    assert.deepEqual(records[1].details, {
      entry_id: e1.entry_id,
      award_id: records[1].details.award_id,
      target_entry_id: e2.entry_id,
      new_award_id: reassigned.body.award_id ?? records[1].details.new_award_id,
      prize_id: p2.id,
      mode: 'test',
    });
    assert.ok(records.every((r) => r.campaign_id === w.campaign.id));
    const stored = JSON.stringify(t.ctx.db.prepare('SELECT * FROM audit_log').all());
    for (const value of [w.liveKey, w.testKey, created.body.hmac_secret, 'Maria asked'])
      assert.ok(!stored.includes(value), `audit_log holds ${value}`);
  });
});

describe('the record commits with its change', () => {
  test('recordAudit outside a transaction throws; a change that fails records nothing', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    assert.throws(
      () => recordAudit(t.ctx, { actor: OPERATOR, action: 'campaign.updated', campaignId: w.campaign.id, details: {} }),
      /outside a transaction/,
    );
    const count = (): number => t.ctx.db.prepare('SELECT count(*) FROM audit_log').pluck().get() as number;
    const before = count();
    const bad = await runCli(['campaign', 'update', w.campaign.id, '--lucky-quantity', '0', '--json'], { dbPath: t.dbPath });
    assert.equal(bad.json.error.code, 'invalid_campaign_options');
    const same = await runCli(['campaign', 'update', w.campaign.id, '--name', w.campaign.name, '--json'], { dbPath: t.dbPath });
    assert.equal(same.code, 0, 'a change to the value it has is no change');
    const revoked = await runCli(['key', 'revoke', w.liveKeyId, '--json'], { dbPath: t.dbPath });
    assert.equal(revoked.code, 0);
    assert.equal(
      (await runCli(['key', 'revoke', w.liveKeyId, '--json'], { dbPath: t.dbPath })).code,
      0,
      'revoking again is no change either',
    );
    assert.equal(count(), before + 1, 'only the first revoke is recorded');
  });
});

describe('schema upgrade', () => {
  test('the audit records of an older database are kept under the new action names, campaign and subject moved', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ces-audit-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = new Database(join(dir, 'old.db'));
    try {
      // Version 12: the audit_log of schema v1 (subject, detail), before 013-audit-log.ts.
      migrate(db, 12);
      const insert = db.prepare('INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?)');
      insert.run(
        '2026-11-01T10:00:00.000Z',
        'cli',
        'participant.export',
        'enrollment:e-1',
        JSON.stringify({ campaign_id: 'c-1', livemode: true, entries: 2 }),
      );
      insert.run(
        '2026-11-01T11:00:00.000Z',
        'cli',
        'participant.anonymize',
        'enrollment:e-1',
        JSON.stringify({ campaign_id: 'c-1', livemode: true, reason: null, kept: { entries: 2 }, consents_redacted: 2 }),
      );
      insert.run('2026-11-01T12:00:00.000Z', 'cli', 'database.backup', '/backups/ces.db', JSON.stringify({ bytes: 4096, pages: 1 }));
      insert.run(
        '2026-11-01T13:00:00.000Z',
        'cli',
        'database.restore',
        '/data/ces.db',
        JSON.stringify({ source: '/backups/ces.db', replaced: null }),
      );
      migrate(db);
      const rows = db.prepare('SELECT id, at, actor, action, campaign_id, json(details) AS details FROM audit_log ORDER BY id').all();
      assert.deepEqual(rows, [
        {
          id: 1,
          at: '2026-11-01T10:00:00.000Z',
          actor: 'cli',
          action: 'participant.exported',
          campaign_id: 'c-1',
          details: '{"livemode":true,"entries":2,"enrollment_id":"e-1"}',
        },
        {
          id: 2,
          at: '2026-11-01T11:00:00.000Z',
          actor: 'cli',
          action: 'participant.anonymized',
          campaign_id: 'c-1',
          details: '{"livemode":true,"reason":null,"kept":{"entries":2},"consents_redacted":2,"enrollment_id":"e-1"}',
        },
        {
          id: 3,
          at: '2026-11-01T12:00:00.000Z',
          actor: 'cli',
          action: 'backup.created',
          campaign_id: null,
          details: '{"bytes":4096,"pages":1,"file":"/backups/ces.db"}',
        },
        {
          id: 4,
          at: '2026-11-01T13:00:00.000Z',
          actor: 'cli',
          action: 'database.restored',
          campaign_id: null,
          details: '{"source":"/backups/ces.db","replaced":null,"database":"/data/ces.db"}',
        },
      ]);
      assert.deepEqual(
        db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name`).pluck().all(),
        ['audit_log_action', 'audit_log_campaign'],
      );
      assert.match(
        db
          .prepare(`EXPLAIN QUERY PLAN SELECT * FROM audit_log WHERE campaign_id = 'c-1' ORDER BY id DESC LIMIT 5`)
          .all()
          .map((r) => (r as { detail: string }).detail)
          .join(' '),
        /USING INDEX audit_log_campaign/,
      );
      assert.match(
        db
          .prepare(`EXPLAIN QUERY PLAN SELECT * FROM audit_log WHERE action = 'key.issued' ORDER BY id DESC LIMIT 5`)
          .all()
          .map((r) => (r as { detail: string }).detail)
          .join(' '),
        /USING INDEX audit_log_action/,
      );
    } finally {
      db.close();
    }
  });
});
