// The `ces` program: one commander program, one file per noun under commands/. createProgram builds
// a fresh one (commander keeps parsed options on the command, so a program runs once);
// runProgram runs it on a list of arguments with an io (cli/io.ts): the process's for the binary
// (cli/ces.ts), buffers for a test that runs the CLI in process.
import { Command, CommanderError } from 'commander';
import { AppError } from '../src/kernel/errors.ts';
import { cesCommand } from '../src/tools/runtime.ts';
import { cliIo, processIo, withCliIo, type CliIo } from './io.ts';
import { endQuietlyWhenReaderLeaves, fail } from './output.ts';
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
import { registerCheckCommand } from './commands/check.ts';
import { registerDrawCommands } from './commands/draw.ts';
import { registerWinnersCommands } from './commands/winners.ts';
import { registerVersionCommand } from './commands/version.ts';
import { VERSION } from '../src/kernel/version.ts';

function createProgram(): Command {
  const program = new Command('ces')
    .description('Campaign Entry Service: intake of promotional-campaign entries over HTTP')
    .version(VERSION)
    // A failure is one line on stderr (and {"error"} on stdout with --json;
    // docs/operations.md#cli-reference-campaigns-keys-entries-demo); commander's own usage errors
    // (unknown option, missing --name...) go through the catch in runProgram instead of printing
    // the help text.
    // A parent command run without its subcommand (`ces`, `ces key`) is such an error too: commander
    // would write the whole help to stderr (writeErr), and the catch writes one line instead.
    // --help and --version print on the run's stdout.
    .configureOutput({ writeOut: (text) => void cliIo().stdout.write(text), outputError: () => {}, writeErr: () => {} })
    .exitOverride()
    // Every command may print into a pipe that closes early (`ces … | head`); not `ces serve`, whose
    // stdout is its log and which stops only on a signal. Only the process's stdout is a pipe.
    .hook('preAction', (_program, command) => {
      if (command.name() !== 'serve' && cliIo() === processIo) endQuietlyWhenReaderLeaves();
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
  registerCheckCommand(program);
  registerDrawCommands(program);
  registerWinnersCommands(program);
  registerOpenApiCommand(program);
  registerVersionCommand(program);
  return program;
}

/**
 * Runs `ces ARGS…` (the words after the program name) with `io`, and returns the status it ends
 * with. Anything but a usage error that escapes a command is thrown, as a bug.
 */
export async function runProgram(args: string[], io: CliIo = processIo): Promise<number> {
  return withCliIo(io, async () => {
    const program = createProgram();
    try {
      await program.parseAsync(args, { from: 'user' });
    } catch (error) {
      if (!(error instanceof CommanderError)) throw error;
      reportUsageError(program, args, error);
    }
    return io.exitCode;
  });
}

function reportUsageError(program: Command, args: string[], error: CommanderError): void {
  // A usage error is printed like any command's failure, maybe into a pipe already closed.
  if (cliIo() === processIo) endQuietlyWhenReaderLeaves();
  const json = { json: args.includes('--json') };
  const named = commandNamedBy(program, args);
  // A parent command without its subcommand. Also with an option of its subcommands (`ces key
  // --json`): the option is not what is wrong.
  const missing =
    (error.code === 'commander.help' && error.exitCode !== 0) ||
    (error.code === 'commander.unknownOption' && named.command.commands.length > 0);
  if (missing) {
    fail(json, new AppError(400, 'invalid_usage', missingSubcommand(named)));
  } else if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
    cliIo().exitCode = error.exitCode;
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

/**
 * "missing command after 'ces key': one of issue, list, revoke (see ces key --help)": the command by
 * its name, and the help by what to type where ces runs (`npx ces key --help` in a checkout).
 */
function missingSubcommand({ command, path }: { command: Command; path: string[] }): string {
  const names = command.commands.filter((c) => c.name() !== 'help').map((c) => c.name());
  const help = [cesCommand(), ...path.slice(1), '--help'].join(' ');
  return `missing command after '${path.join(' ')}': one of ${names.join(', ')} (see ${help})`;
}
