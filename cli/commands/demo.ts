// ces demo: a ready test campaign, its test key and a prize, plus a curl command that gets a 202.
import type { Command } from 'commander';
import type { Actor } from '../../src/audit/actor.ts';
import { createCampaign } from '../../src/campaigns/campaigns.ts';
import type { Ctx } from '../../src/context.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { issueKey } from '../../src/keys/keys.ts';
import { addPrize } from '../../src/mechanics/prizes.ts';
import { cliOperator } from '../operator.ts';
import { runCommand, withCommonOptions, type CommonOptions } from '../output.ts';

export function createDemo(ctx: Ctx, baseUrl: string, actor: Actor): Record<string, unknown> {
  return ctx.db.transaction(() => {
    const campaign = createCampaign(ctx, { name: 'Demo campaign', luckyNumbers: 'auto', instantPrize: 'INTEGRATOR_DECLARED' }, actor);
    const key = issueKey(ctx, { campaignId: campaign.id, mode: 'test', label: 'demo' }, actor);
    const prize = addPrize(
      ctx,
      { campaignId: campaign.id, mode: 'test', name: 'Demo voucher', type: 'voucher', unitValue: '50', stock: '100' },
      actor,
    );
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
    return { campaign, key: { id: key.id, mode: key.mode, key: key.key, prefix: key.prefix }, prize, curl };
  })();
}

export function registerDemoCommand(program: Command): void {
  withCommonOptions(program.command('demo').description('create a ready test campaign, key and prize, and print a curl quick start'))
    .option('--url <base>', 'where clients reach the server (default CES_PUBLIC_URL, else http://127.0.0.1:3000)')
    .action(async (flags: CommonOptions & { url?: string }) => {
      await runCommand(
        flags,
        (ctx) => createDemo(ctx, (flags.url ?? ctx.config.publicUrl ?? 'http://127.0.0.1:3000').replace(/\/$/, ''), cliOperator()),
        (d) => {
          const campaign = d.campaign as { id: string; name: string };
          const key = d.key as { key: string };
          const prize = d.prize as { id: string };
          return [
            `Campaign  ${campaign.id}  (${campaign.name}, test mode, automatic lucky numbers, declared instant prizes)`,
            `Test key  ${key.key}`,
            `Prize     ${prize.id}`,
            '',
            'Start the server (npm start), then submit an entry:',
            '',
            String(d.curl),
          ].join('\n');
        },
        {},
        { publicUrl: true },
      );
    });
}
