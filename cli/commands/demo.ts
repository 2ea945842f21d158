// ces demo: a ready test campaign, its test key and a prize, plus a curl command that gets a 202,
// and a webhook configuration, paused, whose secret signs what `ces webhook listen` forwards to a
// local receiver (docs/integrating.md: from zero to a verified webhook).
import type { Command } from 'commander';
import type { Actor } from '../../src/audit/actor.ts';
import { createCampaign } from '../../src/campaigns/campaigns.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { issueKey } from '../../src/keys/keys.ts';
import { addPrize } from '../../src/mechanics/prizes.ts';
import { cesCommand, runningAs, serveCommand } from '../../src/tools/runtime.ts';
import { parseWebhookPatch, patchWebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { cliOperator } from '../operator.ts';
import { runCommand, withCommonOptions, type CommonOptions } from '../output.ts';

/**
 * The demo's webhook endpoint: a placeholder, paused, so that nothing leaves the machine; the
 * configuration exists for its secret, which `ces webhook listen` signs with.
 */
const DEMO_WEBHOOK_URL = 'https://example.com/';
export const DEMO_RECEIVER_URL = 'http://localhost:4000/webhooks';

/** `dbFlag`: the --db the demo was given, which `ces webhook listen` needs as well. */
function createDemo(ctx: Ctx, baseUrl: string, actor: Actor, dbFlag?: string): Record<string, unknown> {
  return ctx.db.transaction(() => {
    const campaign = createCampaign(ctx, { name: 'Demo campaign', luckyNumbers: 'auto', instantPrize: 'INTEGRATOR_DECLARED' }, actor);
    const key = issueKey(ctx, { campaignId: campaign.id, mode: 'test', label: 'demo' }, actor);
    const prize = addPrize(
      ctx,
      { campaignId: campaign.id, mode: 'test', name: 'Demo voucher', type: 'voucher', unitValue: 50, stock: 100 },
      actor,
    );
    const webhook = patchWebhookConfig(ctx, campaign.id, parseWebhookPatch({ endpoint_url: DEMO_WEBHOOK_URL, is_active: false }), actor);
    const now = new Date(ctx.clock.now());
    const yymm = `${String(now.getUTCFullYear() % 100).padStart(2, '0')}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const body = {
      enrollment: { document_number: '529.982.247-25', full_name: 'Maria da Silva', email: 'maria@example.com', phone: '5511987654321' },
      consent: { granted_at: now.toISOString(), ip_address: '203.0.113.7', user_agent: 'curl', term_version: 'v1' },
      evidence: { type: 'fiscal_key', access_key: makeAccessKey({ yymm }) },
    };
    const idempotencyKey = ctx.random.uuid();
    const curl = [
      `curl -i -X POST ${baseUrl}/v1/entries \\`,
      `  -H 'Authorization: Bearer ${key.key}' \\`,
      `  -H 'Idempotency-Key: ${idempotencyKey}' \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -d '${JSON.stringify(body)}'`,
    ].join('\n');
    const listen = `${cesCommand()} webhook listen --campaign ${campaign.id} --forward-to ${DEMO_RECEIVER_URL}${dbOption(dbFlag)}`;
    return {
      campaign,
      key: { id: key.id, mode: key.mode, key: key.key, prefix: key.prefix },
      prize,
      webhook: { ...webhook.config, hmac_secret: webhook.hmac_secret },
      curl,
      listen,
    };
  })();
}

/** ` --db PATH`, quoted for a shell where it needs to be; '' without --db. */
function dbOption(dbFlag: string | undefined): string {
  if (dbFlag === undefined) return '';
  return ` --db ${/^[\w./:-]+$/.test(dbFlag) ? dbFlag : `'${dbFlag.replaceAll("'", `'\\''`)}'`}`;
}

/**
 * How to start the server on the demo's database, as this ces was started: the server needs the
 * same --db as the demo, or the printed key is one it has never seen. `npm start` passes on what
 * follows `--`.
 */
function demoServeCommand(dbFlag?: string): string {
  const db = dbOption(dbFlag);
  if (db === '') return serveCommand();
  return runningAs() === 'source' ? `${serveCommand()} --${db}` : `${serveCommand()}${db}`;
}

export function registerDemoCommand(program: Command): void {
  withCommonOptions(program.command('demo').description('create a ready test campaign, key and prize, and print a curl quick start'))
    .option('--url <base>', 'where clients reach the server (default CES_PUBLIC_URL, else http://127.0.0.1:3000)')
    .action(async (flags: CommonOptions & { url?: string }) => {
      await runCommand(
        flags,
        (ctx) =>
          createDemo(ctx, (flags.url ?? ctx.config.publicUrl ?? 'http://127.0.0.1:3000').replace(/\/$/, ''), cliOperator(), flags.db),
        (d) => {
          const campaign = d.campaign as { id: string; name: string };
          const key = d.key as { key: string };
          const prize = d.prize as { id: string };
          const webhook = d.webhook as { hmac_secret: string };
          return [
            `Campaign  ${campaign.id}  (${campaign.name}, test mode, automatic lucky numbers, declared instant prizes)`,
            `Test key  ${key.key}`,
            `Prize     ${prize.id}`,
            `Secret    ${webhook.hmac_secret}  (signs the webhooks; the configured endpoint ${DEMO_WEBHOOK_URL} is paused)`,
            '',
            `Start the server (${demoServeCommand(flags.db)}), then submit an entry:`,
            '',
            String(d.curl),
            '',
            'To receive its events on this machine, signed with the secret (docs/integrating.md):',
            '',
            String(d.listen),
          ].join('\n');
        },
        {},
        { publicUrl: true },
      );
    });
}
