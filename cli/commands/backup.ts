// ces backup DEST / ces restore SRC: an online, consistent copy of the database while the server
// runs, and its restoration (refused while a server has the database open).
import type { Command } from 'commander';
import { systemClock } from '../../src/kernel/clock.ts';
import { loadCommandConfig } from '../../src/kernel/config.ts';
import { backupDatabase, restoreDatabase, type Progress } from '../../src/backup/backup.ts';
import { cryptoRandom } from '../../src/kernel/random.ts';
import { cliIo } from '../io.ts';
import { cliOperator } from '../operator.ts';
import { details, escapeControlCharacters, fail, runCommand, toJsonDocument, withCommonOptions, type CommonOptions } from '../output.ts';

interface ForceFlags extends CommonOptions {
  force?: boolean;
}

/**
 * A copy and its check take minutes on a file of gigabytes: each step, and every minute of the
 * check, is a line on stderr, so the operator sees it working and stdout stays the result alone.
 */
function toStderr(): Progress {
  const io = cliIo();
  return (line) => io.stderr.write(`ces: ${escapeControlCharacters(line)}\n`);
}

export function registerBackupCommands(program: Command): void {
  withCommonOptions(
    program
      .command('backup')
      .description('copy the database to DEST, consistently, even while ces serve is writing')
      .argument('<dest>', 'backup file to create'),
  )
    .option('--force', 'overwrite DEST if it exists')
    .action(async (dest: string, flags: ForceFlags) => {
      // As the database is: not created where there is none, not upgraded to this ces's schema.
      await runCommand(
        flags,
        (ctx) => backupDatabase(ctx, dest, { force: flags.force, pid: process.pid, actor: cliOperator(), progress: toStderr() }),
        (r) => details(r as unknown as Record<string, unknown>),
        { migrate: false, mustExist: true },
      );
    });

  // Not through runCommand: that would open the very database this command replaces.
  withCommonOptions(
    program
      .command('restore')
      .description('replace the database with the backup SRC (ces serve must be stopped)')
      .argument('<src>', 'backup file'),
  )
    .option('--force', 'replace an existing database (it is kept beside as <db>.pre-restore-<time>)')
    .action(async (src: string, flags: ForceFlags) => {
      try {
        const io = cliIo();
        const config = loadCommandConfig({ db: flags.db }, io.env);
        const result = await restoreDatabase({
          source: src,
          dbPath: config.dbPath,
          force: flags.force,
          pid: process.pid,
          clock: systemClock,
          actor: cliOperator(),
          random: cryptoRandom,
          checkpoints: config.checkpoints,
          progress: toStderr(),
        });
        io.stdout.write(flags.json ? `${toJsonDocument(result)}\n` : `${details(result as unknown as Record<string, unknown>)}\n`);
      } catch (error) {
        fail(flags, error);
      }
    });
}
