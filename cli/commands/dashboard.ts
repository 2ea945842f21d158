// ces dashboard link|sessions|revoke: sign-in to the operator dashboard
// (docs/operations.md#dashboard).
import type { Command } from 'commander';
import { linkBaseUrl } from '../../src/dashboard/public-url.ts';
import {
  createSignInLink,
  DEFAULT_LINK_TTL_MINUTES,
  listSessions,
  MAX_LINK_TTL_MINUTES,
  revokeSessions,
  type SessionView,
} from '../../src/dashboard/sessions.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { cesCommand } from '../../src/tools/runtime.ts';
import { cliOperator } from '../operator.ts';
import { parseUuid } from '../options.ts';
import { runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

export function registerDashboardCommands(program: Command): void {
  const dashboard = program.command('dashboard').description('sign-in links and sessions of the operator dashboard (/dashboard/)');

  withCommonOptions(dashboard.command('link').description('print a one-time sign-in link to the dashboard'))
    .option('--as <name>', 'the operator the session names in the audit log (default: your OS user)')
    .option('--ttl <minutes>', `the link works this long, once (1 to ${MAX_LINK_TTL_MINUTES})`, String(DEFAULT_LINK_TTL_MINUTES))
    .action(async (flags: CommonOptions & { as?: string; ttl: string }) => {
      let name = '';
      await runCommand(
        flags,
        (ctx) => {
          const operator = cliOperator();
          const link = createSignInLink(
            ctx,
            { name: flags.as ?? (operator.kind === 'cli' ? operator.user : ''), ttlMinutes: flags.ttl },
            operator,
          );
          name = link.name;
          return { url: `${linkBaseUrl(ctx)}/dashboard/signin/${link.token}`, expires_at: link.expires_at };
        },
        (r) => `${r.url}\n\nIt signs in as ${name}, once, until ${r.expires_at}. Anyone holding it can use it: send it privately.`,
        {},
        { publicUrl: true, serveAddress: true },
      );
    });

  withCommonOptions(dashboard.command('sessions').description('list dashboard sessions, newest first')).action(
    async (flags: CommonOptions) => {
      await runCommand(
        flags,
        (ctx) => listSessions(ctx),
        (list: SessionView[]) =>
          table(list as unknown as Array<Record<string, unknown>>, ['id', 'name', 'state', 'created_at', 'last_seen_at', 'ended_at']),
      );
    },
  );

  withCommonOptions(
    dashboard
      .command('revoke')
      .description('end a dashboard session (or every open one with --all)')
      .argument('[session_id]', 'session id (from ces dashboard sessions)', parseUuid),
  )
    .option('--all', 'end every open session')
    .action(async (id: string | undefined, flags: CommonOptions & { all?: boolean }) => {
      await runCommand(
        flags,
        (ctx) => {
          if ((id === undefined) === (flags.all !== true))
            throw new AppError(400, 'invalid_usage', `give a session id or --all (see ${cesCommand()} dashboard revoke --help)`);
          return revokeSessions(ctx, id === undefined ? { all: true } : { id }, cliOperator());
        },
        (list: SessionView[]) =>
          list.length === 0
            ? 'no open session'
            : table(list as unknown as Array<Record<string, unknown>>, ['id', 'name', 'state', 'ended_at']),
      );
    });
}
