#!/usr/bin/env node
// The `ces` program: one commander program, one file per noun under commands/.
import { Command, CommanderError } from 'commander';
import { dropCertificateCheckOverride } from '../src/config.ts';
import { AppError } from '../src/errors.ts';
import { carryOnWithoutStderr, endQuietlyWhenReaderLeaves, fail } from './output.ts';
import { registerCampaignCommands } from './commands/campaign.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerEntryCommands } from './commands/entries.ts';
import { registerExportCommand } from './commands/export.ts';
import { registerStatsCommand } from './commands/stats.ts';
import { registerParticipantCommands } from './commands/participant.ts';
import { registerBackupCommands } from './commands/backup.ts';
import { registerKeyCommands } from './commands/key.ts';
import { registerOpenApiCommand } from './commands/openapi.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerWebhookCommands } from './commands/webhook.ts';
import { registerPrizeCommands } from './commands/prize.ts';
import { registerWindowCommands } from './commands/window.ts';
import { registerAwardCommands } from './commands/award.ts';
import { registerAuditCommands } from './commands/audit.ts';
import { registerDashboardCommands } from './commands/dashboard.ts';

const program = new Command('ces')
  .description('Campaign Entry Service: intake of promotional-campaign entries over HTTP')
  .version('0.1.0')
  // CONTRACT: a failure is one line on stderr (and {"error"} on stdout with --json); commander's own
  // usage errors (unknown option, missing --name...) go through the catch at the end instead of
  // printing the help text.
  // A parent command run without its subcommand (`ces`, `ces key`) is such an error too: commander
  // would write the whole help to stderr (writeErr), and the catch writes one line instead.
  .configureOutput({ outputError: () => {}, writeErr: () => {} })
  .exitOverride()
  // Every command may print into a pipe that closes early (`ces … | head`); not `ces serve`, whose
  // stdout is its log and which stops only on a signal.
  .hook('preAction', (_program, command) => {
    if (command.name() !== 'serve') endQuietlyWhenReaderLeaves();
  });

registerServeCommand(program);
registerCampaignCommands(program);
registerKeyCommands(program);
registerEntryCommands(program);
registerExportCommand(program);
registerStatsCommand(program);
registerParticipantCommands(program);
registerBackupCommands(program);
registerDemoCommand(program);
registerWebhookCommands(program);
registerPrizeCommands(program);
registerWindowCommands(program);
registerAwardCommands(program);
registerAuditCommands(program);
registerDashboardCommands(program);
registerOpenApiCommand(program);

// Before parsing: a usage error is written to stderr too.
carryOnWithoutStderr();
// Before any connection: certificates are always checked (src/config.ts), and the operator is told.
if (dropCertificateCheckOverride()) {
  process.stderr.write(
    'ces: NODE_TLS_REJECT_UNAUTHORIZED is ignored: certificates are always checked (trust a CA with NODE_EXTRA_CA_CERTS)\n',
  );
}
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // A usage error is printed like any command's failure, maybe into a pipe already closed.
  endQuietlyWhenReaderLeaves();
  const json = { json: process.argv.includes('--json') };
  const named = commandNamedBy(program, process.argv.slice(2));
  // A parent command without its subcommand. Also with an option of its subcommands (`ces key
  // --json`): the option is not what is wrong.
  const missing =
    (error.code === 'commander.help' && error.exitCode !== 0) ||
    (error.code === 'commander.unknownOption' && named.command.commands.length > 0);
  if (missing) {
    fail(json, new AppError(400, 'invalid_usage', missingSubcommand(named)));
  } else if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
    process.exitCode = error.exitCode;
  } else {
    const message = `${error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (see --help)`;
    fail(json, new AppError(400, 'invalid_usage', message));
  }
}

/** The command the words name (`ces key --json` names `ces key`), and its path. */
function commandNamedBy(root: Command, args: string[]): { command: Command; path: string[] } {
  let command = root;
  const path = [root.name()];
  for (const word of args) {
    if (word.startsWith('-')) continue;
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    command = sub;
    path.push(sub.name());
  }
  return { command, path };
}

/** "missing command after 'ces key': one of issue, list, revoke (see ces key --help)". */
function missingSubcommand({ command, path }: { command: Command; path: string[] }): string {
  const names = command.commands.filter((c) => c.name() !== 'help').map((c) => c.name());
  const name = path.join(' ');
  return `missing command after '${name}': one of ${names.join(', ')} (see ${name} --help)`;
}
