// ces entries export: a campaign's entries as CSV or JSON Lines, to a file or to stdout, with a
// progress bar on stderr when stderr is a terminal. Registered under the `entries` noun.
import type { Command } from 'commander';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Transform } from 'node:stream';
import { getCampaign } from '../../src/campaigns/campaigns.ts';
import { systemClock } from '../../src/kernel/clock.ts';
import { loadCommandConfig } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { countEntriesToExport, runExport, type ExportFormat } from '../../src/exports/entries-export.ts';
import { createProgressBar } from '../progress.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { openPrivateFileExclusive, tempPathBeside } from '../../src/tools/private-files.ts';
import { cryptoRandom } from '../../src/kernel/random.ts';
import { cliIo, type CliOutput } from '../io.ts';
import { cliOperator } from '../operator.ts';
import { details, escapeControlCharacters, fail, toJsonDocument, withCommonOptions, type CommonOptions } from '../output.ts';
import { parseModeFilter, parseStatus, parseUuid } from '../options.ts';

interface ExportFlags extends CommonOptions {
  campaign: string;
  format: string;
  out?: string;
  mode?: string;
  status?: string;
  progress?: boolean;
}

interface ExportSummary {
  campaign_id: string;
  format: ExportFormat;
  rows: number;
  file: string | null;
  elapsed_ms: number;
}

async function exportEntries(ctx: Ctx, flags: ExportFlags): Promise<ExportSummary> {
  const format = flags.format;
  if (format !== 'csv' && format !== 'jsonl') throw new AppError(422, 'invalid_option', '--format must be csv or jsonl');
  if (flags.json && !flags.out)
    throw new AppError(422, 'invalid_option', '--json needs --out FILE: without it stdout carries the export itself');
  getCampaign(ctx, flags.campaign);
  const filter = { campaignId: flags.campaign, livemode: parseModeFilter(flags.mode), status: parseStatus(flags.status) };
  const started = ctx.clock.now();
  const io = cliIo();
  const showProgress = flags.progress !== false && io.stderr.isTTY === true;
  const bar = showProgress ? createProgressBar(io.stderr, countEntriesToExport(ctx, filter), () => ctx.clock.now()) : null;
  // A file is written beside its destination and renamed into place when complete, so an
  // interrupted export never leaves a truncated file under the requested name. The temp file is
  // 0600 under a random name, created exclusively (src/tools/private-files.ts): it holds personal data.
  const temp = flags.out ? tempPathBeside(flags.out, ctx.random) : null;
  const screen = !temp && io.stdout.isTTY === true ? escapingForTerminal(io.stdout) : null;
  const out: NodeJS.WritableStream = temp ? createWriteStream(temp, { fd: openPrivateFileExclusive(temp) }) : (screen ?? io.stdout);
  let rows: number;
  try {
    // Started once the output is open: runExport records the export before its first row, as the
    // dashboard's download does. An export refused before (a bad option, a folder that does not
    // exist) records nothing.
    const run = runExport(ctx, { filter, format }, { out, onProgress: bar ? (done) => bar.update(done) : undefined }, cliOperator());
    rows = await run.written;
    if (temp) {
      await new Promise<void>((resolve, reject) => {
        out.on('error', reject);
        out.end(() => resolve());
      });
      renameSync(temp, flags.out!);
    }
    if (screen) await new Promise<void>((resolve) => screen.end(resolve));
  } catch (error) {
    if (temp) rmSync(temp, { force: true });
    throw error;
  }
  bar?.finish(rows);
  return { campaign_id: flags.campaign, format, rows, file: flags.out ?? null, elapsed_ms: ctx.clock.now() - started };
}

/**
 * An export printed on a terminal is read by a person, not a program: control characters from the
 * API (an ESC sequence in a name) are shown escaped
 * (docs/operations.md#exports-ces-entries-export), record line ends kept. A pipe or a file gets the
 * data exactly as exported. Each write is one whole record, so no character is split.
 */
function escapingForTerminal(terminal: CliOutput): Transform {
  const screen = new Transform({
    decodeStrings: false,
    transform(chunk: string, _encoding, done) {
      done(null, escapeControlCharacters(chunk, { keepLineBreaks: true }));
    },
  });
  screen.pipe(terminal, { end: false });
  return screen;
}

export function registerExportCommand(program: Command): void {
  const entries = program.commands.find((c) => c.name() === 'entries');
  if (!entries) throw new Error('the entries command must be registered before entries export');
  withCommonOptions(
    entries.command('export').description("stream a campaign's entries as CSV or JSON Lines (columns: see docs/operations.md)"),
  )
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--format <format>', 'csv | jsonl', 'csv')
    .option('--out <file>', 'write to this file (default: stdout)')
    .option('--mode <mode>', 'live | test (default: both)')
    .option('--status <status>', 'PENDING | APPROVED | REJECTED')
    .option('--no-progress', 'never draw the progress bar')
    .action(async (flags: ExportFlags) => {
      // A reader that goes away (`ces entries export … | head`) ends the export quietly with status
      // 0 (endQuietlyWhenReaderLeaves, for every command): it only reads, so nothing is left half
      // done, and the connection, busy with the export's row iterator, is released by the exit.
      let ctx: Ctx | undefined;
      try {
        const io = cliIo();
        const config = loadCommandConfig({ db: flags.db }, io.env);
        ctx = {
          db: openDatabase(config.dbPath, { checkpoints: config.checkpoints }),
          clock: systemClock,
          random: cryptoRandom,
          config,
          log: createSilentLogger(),
        };
        const summary = await exportEntries(ctx, flags);
        // stdout belongs to the data unless --out was given; the summary then goes there.
        if (flags.json) io.stdout.write(`${toJsonDocument(summary)}\n`);
        else if (flags.out) io.stdout.write(`${details(summary as unknown as Record<string, unknown>)}\n`);
        else io.stderr.write(`exported ${summary.rows} entries in ${summary.elapsed_ms} ms\n`);
      } catch (error) {
        fail(flags, error);
      } finally {
        ctx?.db.close();
      }
    });
}
