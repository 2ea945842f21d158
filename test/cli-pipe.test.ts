// A reader that stops early (`ces … | head -1`): stdout closes while the command still has far more
// to print than a pipe holds. Every command then ends quietly with status 0 (README, CLI reference),
// instead of an unhandled EPIPE with a Node stack trace and status 1.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../src/db/open.ts';
import { EXPORT_COLUMNS } from '../src/exports/entries-export.ts';
import { cpf, makeCampaign, runCliIntoHead } from './support/harness.ts';
import { openTestCtx, seedEntries } from './support/seed-entries.ts';

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
      assert.deepEqual(db.prepare(`SELECT action FROM audit_log`).pluck().all(), ['participant.export'], 'its audit record committed before printing');
    } finally {
      db.close();
    }
  });
});
