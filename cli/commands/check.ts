// ces check: SQLite's integrity_check and foreign_key_check of the database
// (docs/operations.md#backups-ces-backup-and-ces-restore); exit 0 only when both are clean. Run it
// on a restored file before serving it.
import type { Command } from 'commander';
import { checkDatabase, corruptDatabase, type IntegrityReport } from '../../src/db/integrity.ts';
import { cliMessage } from '../fields.ts';
import { cliIo } from '../io.ts';
import { escapeControlCharacters, fail, openCommandContext, toJsonDocument, withCommonOptions, type CommonOptions } from '../output.ts';

export function registerCheckCommand(program: Command): void {
  withCommonOptions(
    program.command('check').description("check the database's integrity and foreign keys (exit 0 only when both are clean)"),
  ).action(async (flags: CommonOptions) => {
    const io = cliIo();
    let ctx;
    try {
      // As the file is: not created, not upgraded (a check must not write to what it checks).
      ctx = openCommandContext(flags, { migrate: false, mustExist: true });
      const report = checkDatabase(ctx.db);
      if (report.ok) {
        io.stdout.write(flags.json ? `${toJsonDocument(report)}\n` : 'integrity_check: ok\nforeign_key_check: ok\n');
        return;
      }
      const error = corruptDatabase(ctx.config.dbPath, report);
      const message = cliMessage(error);
      if (flags.json) io.stdout.write(`${toJsonDocument({ error: { code: error.code, message }, ...report })}\n`);
      else io.stdout.write(`${escapeControlCharacters(renderReport(report), { keepLineBreaks: true })}\n`);
      io.stderr.write(`ces: ${escapeControlCharacters(message)}\n`);
      io.exitCode = 1;
    } catch (error) {
      fail(flags, error);
    } finally {
      ctx?.db.close();
    }
  });
}

function renderReport(report: IntegrityReport): string {
  const fks = report.foreign_key_check.map((f) => `  ${f.table} row ${f.rowid ?? '-'} -> ${f.parent} (constraint ${f.fkid})`);
  return [
    'integrity_check:',
    ...report.integrity_check.map((line) => `  ${line}`),
    `foreign_key_check: ${fks.length === 0 ? 'ok' : ''}`.trimEnd(),
    ...fks,
  ].join('\n');
}
