// ces key issue|list|revoke|rotate
import type { Command } from 'commander';
import { issueKey, listKeys, revokeKey, rotateKey, type ApiKey } from '../../src/keys/keys.ts';
import { parseGraceSeconds } from '../../src/input/grace.ts';
import { parseMode, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { details, runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('issue, list, rotate and revoke API keys');

  withCommonOptions(key.command('issue').description('issue an API key (the secret is printed only now)'))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .requiredOption('--mode <mode>', 'live | test')
    .option('--label <label>', 'a note for operators')
    .action(async (flags: CommonOptions & { campaign: string; mode: string; label?: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          const issued = issueKey(ctx, { campaignId: flags.campaign, mode: parseMode(flags.mode), label: flags.label }, cliOperator());
          return {
            id: issued.id,
            campaign_id: issued.campaign_id,
            mode: issued.mode,
            key: issued.key,
            prefix: issued.prefix,
            label: issued.label,
            created_at: issued.created_at,
          };
        },
        (k) => `${details(k)}\n\nStore the key now: it is shown only once.`,
      );
    });

  withCommonOptions(key.command('list').description("list a campaign's keys (never the secrets)"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .action(async (flags: CommonOptions & { campaign: string }) => {
      await runCommand(
        flags,
        (ctx) => listKeys(ctx, flags.campaign),
        (list: ApiKey[]) =>
          table(list as unknown as Array<Record<string, unknown>>, ['id', 'mode', 'prefix', 'label', 'created_at', 'revoked_at']),
      );
    });

  withCommonOptions(
    key.command('revoke').description('revoke a key: it gives 401 from now on').argument('<key_id>', 'API key id', parseUuid),
  ).action(async (keyId: string, flags: CommonOptions) => {
    await runCommand(
      flags,
      (ctx) => revokeKey(ctx, keyId, cliOperator()),
      (k) => details(k as unknown as Record<string, unknown>),
    );
  });

  withCommonOptions(
    key
      .command('rotate')
      .description('issue a new key of the same campaign and mode and revoke the old one')
      .argument('<key_id>', 'API key id', parseUuid),
  )
    .option('--grace <seconds>', 'keep the old key working this long (at most 2592000, 30 days)', '0')
    .action(async (keyId: string, flags: CommonOptions & { grace: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          const { issued, revoked } = rotateKey(ctx, keyId, parseGraceSeconds(flags.grace), cliOperator());
          return {
            key: {
              id: issued.id,
              campaign_id: issued.campaign_id,
              mode: issued.mode,
              key: issued.key,
              prefix: issued.prefix,
              label: issued.label,
              created_at: issued.created_at,
            },
            revoked,
          };
        },
        (r) => `${details(r.key)}\n\nold key ${r.revoked.id} revoked at ${r.revoked.revoked_at}`,
      );
    });
}
