// ces stats: a campaign's entries by status and day, rejection reasons, prizes, lucky-number fill
// and webhook delivery success, as terminal tables or one JSON document.
import type { Command } from 'commander';
import { collectCampaignStats, type CampaignStats } from '../../src/exports/stats.ts';
import { parseSingleMode, parseUuid } from '../options.ts';
import { runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

function renderStats(s: CampaignStats): string {
  const pct = (n: number | null): string => (n === null ? '-' : `${n}%`);
  const sections = [
    `Campaign ${s.campaign_id} (${s.mode})  generated ${s.generated_at}`,
    '',
    `ENTRIES  total ${s.entries.total}  approved ${s.entries.by_status.APPROVED}  rejected ${s.entries.by_status.REJECTED}  pending ${s.entries.by_status.PENDING}`,
    '',
    `ENTRIES BY DAY (${s.time_zone})`,
    table(s.entries.by_day as unknown as Array<Record<string, unknown>>, ['day', 'total', 'APPROVED', 'REJECTED', 'PENDING']),
    '',
    'REJECTION REASONS',
    table(s.rejection_reasons, ['code', 'count']),
    '',
    'PRIZES',
    table(s.prizes as unknown as Array<Record<string, unknown>>, [
      'name',
      'initial_stock',
      'current_stock',
      'awarded',
      'pending',
      'revoked',
      'voided',
      'awarded_beyond_pool',
    ]),
    '',
    `LUCKY NUMBERS  ${s.lucky_numbers.mechanic}: ${s.lucky_numbers.assigned} of ${s.lucky_numbers.capacity} pairs (${pct(s.lucky_numbers.fill_percent)}) held by ${s.lucky_numbers.entries_with_numbers} entries`,
    '',
    `WEBHOOK DELIVERIES  success ${pct(s.deliveries.success_rate_percent)}  delivered ${s.deliveries.delivered}  failed ${s.deliveries.failed}  pending ${s.deliveries.pending}  skipped ${s.deliveries.skipped}`,
  ];
  return sections.join('\n');
}

export function registerStatsCommand(program: Command): void {
  withCommonOptions(
    program.command('stats').description("a campaign's entries, rejections, prizes, lucky-number fill and delivery success"),
  )
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--mode <mode>', 'live | test', 'live')
    .action(async (flags: CommonOptions & { campaign: string; mode: string }) => {
      await runCommand(flags, (ctx) => collectCampaignStats(ctx, flags.campaign, parseSingleMode(flags.mode)), renderStats);
    });
}
