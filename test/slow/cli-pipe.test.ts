// A reader that stops early (`ces … | head -1`): stdout closes while the command still has far more
// to print than a pipe holds. Every command then ends quietly with status 0 (docs/operations.md, CLI reference),
// instead of an unhandled EPIPE with a Node stack trace and status 1. And a closed stderr
// (`ces … 2>&1 | true`) only silences a command: it ends with the status it would have had.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/open.ts';
import { EXPORT_COLUMNS } from '../../src/exports/entries-export.ts';
import { cpf, makeCampaign, runCliIntoHead, runCliWithClosedStderr } from '../support/harness.ts';
import { openTestCtx, seedEntries } from '../support/seed-entries.ts';

describe('a reader that stops early ends any command quietly, with status 0', () => {
  let dir: string;
  let dbPath: string;
  let campaignId: string;
  let participantCampaignId: string;

  before(() => {
    const opened = openTestCtx();
    ({ dir, dbPath } = opened);
    const { ctx } = opened;
    campaignId = makeCampaign(ctx).campaign.id;
    seedEntries(ctx, { campaignId, count: 3_000 });
    // One participant with 2000 entries: a data-subject export of about 2 MB.
    participantCampaignId = makeCampaign(ctx).campaign.id;
    seedEntries(ctx, { campaignId: participantCampaignId, count: 2_000, oneParticipant: cpf(0) });
    ctx.db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // [what is run, its arguments, the first word it prints]
  const CASES: Array<[string, () => string[], string]> = [
    ['entries export', () => ['entries', 'export', '--campaign', campaignId], EXPORT_COLUMNS.join(',')],
    ['entries list --limit 2000', () => ['entries', 'list', '--campaign', campaignId, '--limit', '2000'], 'ENTRY_ID'],
    ['entries list --limit 2000 --json', () => ['entries', 'list', '--campaign', campaignId, '--limit', '2000', '--json'], '['],
    ['openapi', () => ['openapi'], '{'],
  ];
  for (const [name, args, first] of CASES) {
    test(`\`ces ${name} | head -1\` prints its first line, then exits 0 and says nothing on stderr`, async () => {
      const res = await runCliIntoHead(args(), { dbPath });
      assert.equal(res.firstLine.split(/\s/)[0], first);
      assert.equal(res.stderr, '');
      assert.equal(res.code, 0);
    });
  }

  test('`ces participant export | head -1` of a participant with 2000 entries exits 0 quietly; the request was served and logged all the same', async () => {
    const res = await runCliIntoHead(['participant', 'export', '--campaign', participantCampaignId, '--document', cpf(0)], { dbPath });
    assert.equal(res.firstLine, '{');
    assert.equal(res.stderr, '');
    assert.equal(res.code, 0);
    const db = openDatabase(dbPath);
    try {
      assert.deepEqual(
        db.prepare(`SELECT action FROM audit_log WHERE action LIKE 'participant.%'`).pluck().all(),
        ['participant.exported'],
        'its audit record committed before printing',
      );
    } finally {
      db.close();
    }
  });
});

describe('a closed stderr: the command carries on and ends with the status it would have had', () => {
  let dir: string;
  let dbPath: string;
  let campaignId: string;

  before(() => {
    const opened = openTestCtx();
    ({ dir, dbPath } = opened);
    campaignId = makeCampaign(opened.ctx).campaign.id;
    seedEntries(opened.ctx, { campaignId, count: 5 });
    opened.ctx.db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // [what is run, its arguments, its status, what it prints on stdout]
  const CASES: Array<[string, () => string[], number, (stdout: string) => void]> = [
    // A failure: its one line goes to the closed stderr.
    ['entries show nope', () => ['entries', 'show', 'nope'], 1, (out) => assert.equal(out, '')],
    [
      'entries show nope --json',
      () => ['entries', 'show', 'nope', '--json'],
      1,
      (out) => assert.equal(JSON.parse(out).error.code, 'not_found'),
    ],
    // A usage error, caught by cli/ces.ts after commander's parse.
    ['campaign create', () => ['campaign', 'create'], 1, (out) => assert.equal(out, '')],
    // A success that writes its summary ("exported 5 entries in … ms") to stderr.
    [
      'entries export --campaign ID',
      () => ['entries', 'export', '--campaign', campaignId],
      0,
      (out) => assert.equal(out.trimEnd().split('\n').length, 6),
    ],
  ];
  for (const [name, args, code, checkStdout] of CASES) {
    test(`\`ces ${name}\` with a closed stderr exits ${code}, without an uncaught error`, async () => {
      const res = await runCliWithClosedStderr(args(), { dbPath });
      assert.equal(res.uncaught, '');
      assert.equal(res.code, code);
      checkStdout(res.stdout);
    });
  }
});
