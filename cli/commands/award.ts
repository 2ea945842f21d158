// ces award list|revoke: the instant-prize ledger of a campaign (each award with its history), and the operator's revoke.
import type { Command } from 'commander';
import { getCampaign } from '../../src/campaigns/campaigns.ts';
import { nowIso } from '../../src/kernel/clock.ts';
import { AWARD_STATUSES } from '../../src/mechanics/awards.repo.ts';
import { listOperatorAwards, type OperatorAward } from '../../src/mechanics/awards.ts';
import { revokeAwardAsOperator } from '../../src/mechanics/instant-prize.ts';
import { parseMode, parseStatusOption, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { details, runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

export function registerAwardCommands(program: Command): void {
  const award = program.command('award').description('instant-prize awards');

  withCommonOptions(award.command('list').description("list a campaign's awards, oldest first (--json includes each award's history)"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--status <status>', 'pending | awarded | revoked | declined | voided')
    .option('--mode <mode>', 'live | test')
    .action(async (flags: CommonOptions & { campaign: string; status?: string; mode?: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          getCampaign(ctx, flags.campaign);
          const status = parseStatusOption(flags.status, AWARD_STATUSES);
          const mode = flags.mode === undefined ? undefined : parseMode(flags.mode);
          return listOperatorAwards(ctx, { campaignId: flags.campaign, status, mode });
        },
        (list: OperatorAward[]) =>
          table(
            list.map((a) => ({
              ...a,
              mode: a.livemode ? 'live' : 'test',
              prize: a.prize_name,
              beyond_pool: a.beyond_pool ? 'yes' : '',
              last_change: a.history.length > 0 ? `${a.history.at(-1)!.actor} ${a.history.at(-1)!.reason ?? ''}`.trim() : '',
            })),
            ['id', 'entry_id', 'mode', 'prize', 'source', 'status', 'beyond_pool', 'updated_at', 'last_change'],
          ),
      );
    });

  withCommonOptions(
    award
      .command('revoke')
      .description('revoke an entry\'s instant-prize win (unit returned; idempotent; history actor "cli")')
      .argument('<entry_id>', 'entry id', parseUuid),
  )
    .option('--reason <text>', 'recorded in the award history')
    .action(async (entryId: string, flags: CommonOptions & { reason?: string }) => {
      await runCommand(
        flags,
        (ctx) => revokeAwardAsOperator(ctx, entryId, flags.reason ?? null, nowIso(ctx.clock), cliOperator()),
        (a) => details(a as unknown as Record<string, unknown>),
      );
    });
}
