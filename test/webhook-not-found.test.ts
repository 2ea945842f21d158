// A campaign id that names no campaign is "Campaign not found" (404 not_found) in every webhook
// command and page, never "Webhook configuration not found", which says the campaign exists and
// has none (issue 43: `ces webhook listen` said so). A campaign that exists without a configuration
// still says that.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { makeCampaign, runCli, startTestServer, type TestServer } from './support/harness.ts';
import { signIn } from './support/dashboard.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(): Promise<TestServer> {
  const t = await startTestServer();
  cleanups.push(() => t.close());
  return t;
}

const NO_SUCH_CAMPAIGN = '0196a1b2-0000-7000-8000-000000000000';

const COMMANDS: string[][] = [
  ['webhook', 'show'],
  ['webhook', 'set', '--active'],
  ['webhook', 'rotate-secret'],
  ['webhook', 'deliveries'],
  ['webhook', 'test'],
  ['webhook', 'listen', '--forward-to', 'http://127.0.0.1:9/'],
];

describe('a campaign that does not exist', () => {
  test('every webhook command says "Campaign not found."', async () => {
    const t = await server();
    for (const command of COMMANDS) {
      const r = await runCli([...command, '--campaign', NO_SUCH_CAMPAIGN, '--json'], { dbPath: t.dbPath });
      assert.equal(r.code, 1, command.join(' '));
      assert.deepEqual([r.json.error.code, r.json.error.message], ['not_found', 'Campaign not found.'], command.join(' '));
    }
  });

  test('the dashboard’s webhook page is a 404 naming the campaign', async () => {
    const t = await server();
    const maria = await signIn(t);
    const page = await maria.get(`/dashboard/campaigns/${NO_SUCH_CAMPAIGN}/webhook`);
    assert.equal(page.status, 404);
    assert.match(page.text, /Campaign not found/);
  });

  test('a campaign that exists without a configuration still says so, in show and listen', async () => {
    const t = await server();
    const { campaign } = makeCampaign(t.ctx);
    for (const command of [COMMANDS[0], COMMANDS[5]]) {
      const r = await runCli([...command, '--campaign', campaign.id, '--json'], { dbPath: t.dbPath });
      assert.deepEqual([r.json.error.code, r.json.error.message], ['not_found', 'Webhook configuration not found.'], command.join(' '));
    }
  });
});
