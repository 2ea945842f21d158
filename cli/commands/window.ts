// ces window add|list: time-gated prize windows of a WINDOW campaign (one prize unit each).
import type { Command } from 'commander';
import { getCampaign } from '../../src/campaigns/campaigns.ts';
import { addWindows, listPrizeWindows, type PrizeWindow } from '../../src/mechanics/windows.ts';
import { parseDecimal } from '../../src/kernel/numbers.ts';
import { parseMode, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

const COLUMNS = ['id', 'prize_id', 'opens_at', 'claimed_by_entry_id', 'claimed_at'];

export function registerWindowCommands(program: Command): void {
  const window = program.command('window').description('prize windows of WINDOW instant-prize campaigns');

  withCommonOptions(
    window.command('add').description('create prize windows; each is won by the first approved entry evaluated at or after its opens_at'),
  )
    .requiredOption('--campaign <id>', 'campaign id (instant prize WINDOW)', parseUuid)
    .requiredOption('--mode <mode>', 'live | test')
    .requiredOption('--prize <prize_id>', 'prize of the campaign and mode that the window gives', parseUuid)
    .requiredOption('--opens-at <iso>', 'when the (first) window opens (ISO 8601 with its zone)')
    .option('--count <n>', 'number of windows (default 1); all open at --opens-at unless spread')
    .option('--every <seconds>', 'spread: window i opens at --opens-at + i * SECONDS')
    .option('--until <iso>', 'spread: windows evenly from --opens-at (first) to --until (last; ISO 8601 with its zone)')
    .action(
      async (
        flags: CommonOptions & {
          campaign: string;
          mode: string;
          prize: string;
          opensAt: string;
          count?: string;
          every?: string;
          until?: string;
        },
      ) => {
        await runCommand(
          flags,
          (ctx) =>
            addWindows(
              ctx,
              {
                campaignId: flags.campaign,
                mode: parseMode(flags.mode),
                prizeId: flags.prize,
                opensAt: flags.opensAt,
                count: flags.count === undefined ? undefined : parseDecimal(flags.count),
                every: flags.every === undefined ? undefined : parseDecimal(flags.every),
                until: flags.until,
              },
              cliOperator(),
            ),
          (list: PrizeWindow[]) =>
            `${table(list as unknown as Array<Record<string, unknown>>, COLUMNS)}\n\n${list.length} window(s) created`,
        );
      },
    );

  withCommonOptions(window.command('list').description("list a campaign's windows, earliest first, with their claims"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--mode <mode>', 'live | test')
    .action(async (flags: CommonOptions & { campaign: string; mode?: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          getCampaign(ctx, flags.campaign);
          return listPrizeWindows(ctx, flags.campaign, flags.mode === undefined ? undefined : parseMode(flags.mode));
        },
        (list: PrizeWindow[]) =>
          table(
            list.map((w) => ({ ...w, mode: w.livemode ? 'live' : 'test' })),
            ['id', 'mode', ...COLUMNS.slice(1)],
          ),
      );
    });
}
