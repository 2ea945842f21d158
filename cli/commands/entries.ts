// ces entries list|show
import type { Command } from 'commander';
import { getCampaign } from '../../src/campaigns/campaigns.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { findEnrollmentById } from '../../src/entries/enrollments.repo.ts';
import { listEntries } from '../../src/entries/entries.repo.ts';
import { enrollmentToView, entryToView, getEntry } from '../../src/mechanics/entry-view.ts';
import { listEntryAwards } from '../../src/mechanics/awards.ts';
import { listEntryDeliveryViews } from '../../src/webhooks/deliveries.ts';
import { parseLimit, parseModeFilter, parseStatus, parseUuid } from '../options.ts';
import { details, runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

function showEntry(ctx: Ctx, entryId: string): Record<string, unknown> {
  const row = getEntry(ctx, entryId);
  const view = entryToView(ctx, row);
  const enrollment = findEnrollmentById(ctx.db, row.enrollment_id);
  return {
    ...view,
    campaign_id: row.campaign_id,
    idempotency_key: row.idempotency_key,
    access_key: row.access_key,
    enrollment: enrollment ? enrollmentToView(enrollment) : null,
    // Every award of the entry (a reassigned one leaves its revoked predecessor), each with its history.
    awards: listEntryAwards(ctx, row.id),
    // The webhook events about the entry, oldest first, as `ces webhook deliveries` shows them.
    deliveries: listEntryDeliveryViews(ctx, row.id),
  };
}

export function registerEntryCommands(program: Command): void {
  const entries = program.command('entries').description('list, show and export entries');

  withCommonOptions(entries.command('list').description("list a campaign's entries, newest first"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--mode <mode>', 'live | test')
    .option('--status <status>', 'PENDING | APPROVED | REJECTED')
    .option('--limit <n>', 'at most this many (1 to 100000)', '50')
    .action(async (flags: CommonOptions & { campaign: string; mode?: string; status?: string; limit: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          getCampaign(ctx, flags.campaign);
          const livemode = parseModeFilter(flags.mode);
          const status = parseStatus(flags.status);
          return listEntries(ctx.db, {
            campaignId: flags.campaign,
            livemode,
            status,
            limit: parseLimit(flags.limit),
          }).map((row) => entryToView(ctx, row));
        },
        (list) =>
          table(
            list.map((e) => ({ ...e, mode: e.livemode ? 'live' : 'test', reasons: e.rejection_reasons.map((r) => r.code).join(',') })),
            ['entry_id', 'mode', 'status', 'reasons', 'created_at'],
          ),
      );
    });

  withCommonOptions(
    entries
      .command('show')
      .description('one entry with enrollment, mechanics, award, lucky numbers and deliveries')
      .argument('<entry_id>', 'entry id', parseUuid),
  ).action(async (entryId: string, flags: CommonOptions) => {
    await runCommand(
      flags,
      (ctx) => showEntry(ctx, entryId),
      (e) => details(e),
    );
  });
}
