// ces prize add|list: the prize pool of a campaign, per mode.
import type { Command } from 'commander';
import { addPrize, listOperatorPrizes, type OperatorPrize } from '../../src/mechanics/prizes.ts';
import { parseDecimal } from '../../src/kernel/numbers.ts';
import { parseMode, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { details, runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

export function registerPrizeCommands(program: Command): void {
  const prize = program.command('prize').description('register and list prizes (per campaign and mode)');

  withCommonOptions(prize.command('add').description("add a prize to the campaign's pool for one mode"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .requiredOption('--mode <mode>', 'live | test')
    .requiredOption('--name <name>', 'prize name')
    .requiredOption('--type <type>', 'prize type (free text, e.g. voucher)')
    .requiredOption('--unit-value <n>', 'value of one unit (number >= 0)')
    .requiredOption('--stock <n>', 'initial stock (whole number >= 0)')
    .action(
      async (flags: CommonOptions & { campaign: string; mode: string; name: string; type: string; unitValue: string; stock: string }) => {
        await runCommand(
          flags,
          (ctx) =>
            addPrize(
              ctx,
              {
                campaignId: flags.campaign,
                mode: parseMode(flags.mode),
                name: flags.name,
                type: flags.type,
                unitValue: parseDecimal(flags.unitValue),
                stock: parseDecimal(flags.stock),
              },
              cliOperator(),
            ),
          (p) => details(p as unknown as Record<string, unknown>),
        );
      },
    );

  withCommonOptions(prize.command('list').description("list the campaign's prizes of one mode, with stock and wins beyond the pool"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .requiredOption('--mode <mode>', 'live | test')
    .action(async (flags: CommonOptions & { campaign: string; mode: string }) => {
      await runCommand(
        flags,
        (ctx) => listOperatorPrizes(ctx, flags.campaign, parseMode(flags.mode)),
        (list: OperatorPrize[]) =>
          table(list as unknown as Array<Record<string, unknown>>, [
            'id',
            'name',
            'type',
            'unit_value',
            'initial_stock',
            'current_stock',
            'awarded_beyond_pool',
          ]),
      );
    });
}
