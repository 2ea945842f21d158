// ces audit list: who changed what (docs/operations.md#audit-log-ces-audit-list), newest first.
import type { Command } from 'commander';
import { getCampaign } from '../../src/campaigns/campaigns.ts';
import { AUDIT_ACTIONS, listAuditRecords, type AuditRecord } from '../../src/audit/audit.ts';
import { parseAuditAction, parseLimit, parseUuid } from '../options.ts';
import { runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('the audit log: changes made by operators and API keys');

  withCommonOptions(audit.command('list').description('audit records, newest first'))
    .option('--campaign <id>', 'only records about this campaign', parseUuid)
    .option('--action <name>', `only this action: ${AUDIT_ACTIONS.join(' | ')}`)
    .option('--limit <n>', 'at most this many (1 to 100000)', '50')
    .action(async (flags: CommonOptions & { campaign?: string; action?: string; limit: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          const action = flags.action === undefined ? undefined : parseAuditAction(flags.action);
          const limit = parseLimit(flags.limit);
          if (flags.campaign !== undefined) getCampaign(ctx, flags.campaign);
          return listAuditRecords(ctx, { campaignId: flags.campaign, action, limit });
        },
        (list: AuditRecord[]) =>
          table(
            list.map((r) => ({ ...r, details: summarize(r.details) })),
            ['id', 'at', 'actor', 'action', 'campaign_id', 'details'],
          ),
      );
    });
}

/**
 * `key=value` pairs on one line for the table (values other than strings as compact JSON); --json
 * has the object. C0/C1 characters (a campaign name typed with an escape sequence) are shown
 * escaped, never sent to the terminal raw.
 */
function summarize(details: Record<string, unknown>): string {
  const text = Object.entries(details)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
