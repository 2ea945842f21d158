// ces draw create|list|show|freeze|numbers|results|run|disqualify|publish: the apuração of a
// campaign's lucky numbers from a Loteria Federal extraction (CONTRACT: Draws). Every rule lives in
// src/draws/; this file reads flags, asks for confirmation where a person must look first, prints.
import type { Command } from 'commander';
import { once } from 'node:events';
import { closeSync, rmSync, writeSync } from 'node:fs';
import type { Ctx } from '../../src/context.ts';
import { AppError } from '../../src/errors.ts';
import {
  createDraw,
  disqualifyWinner,
  findRunOutcome,
  freezeDraw,
  frozenNumbersText,
  getDraw,
  listDraws,
  publishDraw,
  recordResults,
  runDraw,
  type Draw,
  type RunOutcome,
} from '../../src/draws/draws.ts';
import { fetchFederalResult, type FetchedExtraction } from '../../src/draws/loteria.ts';
import { parseDecimal } from '../../src/numbers.ts';
import { openPrivateFileExclusive, publishFileExclusive, tempPathBeside } from '../../src/private-files.ts';
import { askYesNo } from '../confirm.ts';
import { drawRows, renderDraw, renderDrawDetail, renderFetchedExtraction, renderRun } from '../draw-text.ts';
import { cliIo } from '../io.ts';
import { parseMode, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import {
  details,
  escapeControlCharacters,
  fail,
  openCommandContext,
  runCommand,
  table,
  withCommonOptions,
  type CommonOptions,
} from '../output.ts';

interface CreateFlags extends CommonOptions {
  campaign: string;
  mode: string;
  name: string;
  cutoff: string;
  extractionDate?: string;
  winners?: string;
  series?: string;
  element?: string;
  approximation?: string;
  oneWinPerDocument: boolean;
}

interface ResultsFlags extends CommonOptions {
  extraction?: string;
  date?: string;
  prizes?: string;
  fetch?: boolean;
  yes?: boolean;
}

/** What `ces draw numbers --out` prints: where the list went and what it is. */
interface NumbersFile {
  draw_id: string;
  file: string;
  eligible_count: number | null;
  numbers_sha256: string | null;
  bytes: number;
}

/** --extraction with --fetch: the extraction number, or undefined for Caixa's latest. */
function parseExtractionOption(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = parseDecimal(value);
  if (!Number.isInteger(n) || n < 1 || n > 999_999)
    throw new AppError(422, 'invalid_option', `--extraction must be a whole number from 1 to 999999, got "${value}"`);
  return n;
}

/**
 * Shows what was read from Caixa on stderr and records nothing until a person says so: at a
 * terminal, the answer to "Record these results? [y/N]"; elsewhere (a script, a pipe) --yes, given
 * by someone who has checked the result beforehand.
 */
async function confirmFetched(fetched: FetchedExtraction, yes: boolean): Promise<void> {
  const io = cliIo();
  io.stderr.write(`${escapeControlCharacters(renderFetchedExtraction(fetched), { keepLineBreaks: true })}\n`);
  if (yes) return;
  if (io.stdin?.isTTY !== true)
    throw new AppError(
      409,
      'confirmation_required',
      'Not recorded: without a terminal nobody can confirm what was read. Check the extraction above against Caixa and run again with --yes.',
    );
  if (!(await askYesNo(io.stdin, io.stderr, 'Record these results? [y/N] ')))
    throw new AppError(409, 'not_confirmed', 'Not recorded: the results were not confirmed.');
}

async function recordDrawResults(ctx: Ctx, drawId: string, flags: ResultsFlags): Promise<Draw> {
  if (!flags.fetch) {
    const missing = (['extraction', 'date', 'prizes'] as const).filter((f) => flags[f] === undefined).map((f) => `--${f}`);
    if (missing.length > 0)
      throw new AppError(422, 'invalid_option', `give ${missing.join(', ')} (or --fetch to read the results from Caixa)`);
    return recordResults(
      ctx,
      drawId,
      { extraction: flags.extraction!, date: flags.date!, prizes: flags.prizes!.split(','), source: 'typed' },
      cliOperator(),
    );
  }
  if (flags.prizes !== undefined) throw new AppError(422, 'invalid_option', 'give --prizes or --fetch, not both');
  if (flags.date !== undefined) throw new AppError(422, 'invalid_option', "--date goes with --prizes: with --fetch the date is Caixa's");
  const extraction = parseExtractionOption(flags.extraction);
  // Refused before the network is asked and the operator shown anything: a draw that has run.
  const draw = getDraw(ctx, drawId);
  if (draw.status === 'drawn' || draw.status === 'published')
    throw new AppError(
      409,
      'draw_already_run',
      'The draw has run: its results can no longer change. Create a new draw to use another extraction.',
    );
  const fetched = await fetchFederalResult({ baseUrl: ctx.config.loteriaUrl, timeoutMs: ctx.config.loteriaTimeoutMs, extraction });
  await confirmFetched(fetched, flags.yes === true);
  return recordResults(
    ctx,
    drawId,
    { extraction: fetched.number, date: fetched.date, prizes: fetched.prizes, source: 'caixa' },
    cliOperator(),
  );
}

/**
 * The frozen list into a new file: written under a temp name (0600, O_EXCL) and linked into place
 * whole, never over an existing file (src/private-files.ts).
 */
function writeNumbersFile(ctx: Ctx, drawId: string, out: string): NumbersFile {
  const draw = getDraw(ctx, drawId);
  const chunks = frozenNumbersText(ctx, drawId);
  const temp = tempPathBeside(out, ctx.random);
  const fd = openPrivateFileExclusive(temp);
  let bytes = 0;
  try {
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at);
      bytes += chunk.length;
    }
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  publishFileExclusive(temp, out);
  return { draw_id: drawId, file: out, eligible_count: draw.eligible_count, numbers_sha256: draw.numbers_sha256, bytes };
}

/** The frozen list on stdout, as is (the bytes numbers_sha256 is the SHA-256 of), waiting for a slow reader. */
async function printNumbers(flags: CommonOptions, drawId: string): Promise<void> {
  const io = cliIo();
  let ctx: Ctx | undefined;
  try {
    if (flags.json) throw new AppError(422, 'invalid_option', '--json needs --out FILE: without it stdout carries the list itself');
    ctx = openCommandContext(flags);
    for (const chunk of frozenNumbersText(ctx, drawId)) if (!io.stdout.write(chunk)) await once(io.stdout, 'drain');
  } catch (error) {
    fail(flags, error);
  } finally {
    ctx?.db.close();
  }
}

export function registerDrawCommands(program: Command): void {
  const draw = program.command('draw').description('draws (apuração): winners among the lucky numbers from a Loteria Federal extraction');

  withCommonOptions(draw.command('create').description("create a draw of the campaign's lucky numbers of one mode"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .requiredOption('--mode <mode>', 'live | test')
    .requiredOption('--name <name>', 'name of the draw, as the regulation calls it')
    .requiredOption('--cutoff <iso>', 'numbers held at this date-time take part (with its zone: 2026-12-31T23:59:59-03:00)')
    .option('--extraction-date <date>', 'date of the Loteria Federal extraction the regulation names (YYYY-MM-DD)')
    .option('--winners <n>', 'how many winners (default 1)')
    .option('--series <digits>', 'DIGITS the series is read from (default: the tens of the 1st..k-th prizes)')
    .option('--element <digits>', 'DIGITS the element is read from (default 1u,2u,3u,4u,5u)')
    .option('--approximation <rule>', 'scpc | up-wrap (default scpc)')
    .option('--no-one-win-per-document', "a participant's document may win more than once in the draw")
    .action(async (flags: CreateFlags) => {
      await runCommand(
        flags,
        (ctx) =>
          createDraw(
            ctx,
            {
              campaignId: flags.campaign,
              mode: parseMode(flags.mode),
              name: flags.name,
              cutoff: flags.cutoff,
              extractionDate: flags.extractionDate ?? null,
              winners: flags.winners,
              series: flags.series,
              element: flags.element,
              approximation: flags.approximation,
              oneWinPerDocument: flags.oneWinPerDocument,
            },
            cliOperator(),
          ),
        renderDraw,
      );
    });

  withCommonOptions(draw.command('list').description("the campaign's draws, newest first"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .action(async (flags: CommonOptions & { campaign: string }) => {
      await runCommand(
        flags,
        (ctx) => listDraws(ctx, flags.campaign),
        (list) =>
          table(drawRows(list), ['id', 'name', 'mode', 'status', 'cutoff', 'winners', 'eligible', 'extraction', 'formed', 'created_at']),
      );
    });

  withCommonOptions(
    draw.command('show').description('one draw with its winners and the steps that chose them').argument('<draw_id>'),
  ).action(async (drawId: string, flags: CommonOptions) => {
    const id = parseUuid(drawId);
    let outcome: RunOutcome | null = null;
    await runCommand(
      flags,
      (ctx) => {
        outcome = findRunOutcome(ctx, id);
        return getDraw(ctx, id);
      },
      (detail) => renderDrawDetail(detail, outcome),
    );
  });

  withCommonOptions(
    draw
      .command('freeze')
      .description('record the numbers eligible at the cut-off and their SHA-256 (refused before the cut-off)')
      .argument('<draw_id>'),
  ).action(async (drawId: string, flags: CommonOptions) => {
    await runCommand(flags, (ctx) => freezeDraw(ctx, parseUuid(drawId), cliOperator()), renderDraw);
  });

  withCommonOptions(
    draw
      .command('numbers')
      .description('the frozen canonical list, one S/EEEEE a line (what numbers_sha256 is the SHA-256 of)')
      .argument('<draw_id>'),
  )
    .option('--out <file>', 'write it to this new file (0600; refused if the file exists) instead of stdout')
    .action(async (drawId: string, flags: CommonOptions & { out?: string }) => {
      const id = parseUuid(drawId);
      if (flags.out === undefined) {
        await printNumbers(flags, id);
        return;
      }
      const out = flags.out;
      await runCommand(
        flags,
        (ctx) => writeNumbersFile(ctx, id, out),
        (r: NumbersFile) => details(r as unknown as Record<string, unknown>),
      );
    });

  withCommonOptions(
    draw
      .command('results')
      .description("record the extraction's five prizes: typed (--extraction --date --prizes) or read from Caixa (--fetch)")
      .argument('<draw_id>'),
  )
    .option('--extraction <n>', 'Loteria Federal extraction number (with --fetch: default the latest)')
    .option('--date <date>', 'date of the extraction (YYYY-MM-DD)')
    .option('--prizes <list>', 'the 1st to 5th prizes, comma-separated: 5 digits each, or 6 with a leading 0')
    .option('--fetch', "read the extraction from Caixa's results API (CES_LOTERIA_URL) and ask before recording it")
    .option('--yes', 'with --fetch: record what was read without asking (needed when stdin is not a terminal)')
    .action(async (drawId: string, flags: ResultsFlags) => {
      const id = parseUuid(drawId);
      await runCommand(flags, (ctx) => recordDrawResults(ctx, id, flags), renderDraw, {}, flags.fetch ? { readsLoteria: true } : {});
    });

  withCommonOptions(
    draw
      .command('run')
      .description('run the draw (freezing it first if needed); a draw that has run prints its outcome again')
      .argument('<draw_id>'),
  ).action(async (drawId: string, flags: CommonOptions) => {
    await runCommand(flags, (ctx) => runDraw(ctx, parseUuid(drawId), cliOperator()), renderRun);
  });

  withCommonOptions(
    draw
      .command('disqualify')
      .description('disqualify the winner at a position (before publication); the next eligible number after the last winner takes it')
      .argument('<draw_id>'),
  )
    .requiredOption('--position <n>', 'the winner position')
    .requiredOption('--reason <text>', 'why, for the record')
    .action(async (drawId: string, flags: CommonOptions & { position: string; reason: string }) => {
      const id = parseUuid(drawId);
      let outcome: RunOutcome | null = null;
      await runCommand(
        flags,
        (ctx) => {
          const detail = disqualifyWinner(ctx, id, { position: flags.position, reason: flags.reason }, cliOperator());
          outcome = findRunOutcome(ctx, id);
          return detail;
        },
        (detail) => renderDrawDetail(detail, outcome),
      );
    });

  withCommonOptions(
    draw
      .command('publish')
      .description("make the draw's winners final and send draw.published to the campaign's webhook")
      .argument('<draw_id>'),
  ).action(async (drawId: string, flags: CommonOptions) => {
    await runCommand(flags, (ctx) => publishDraw(ctx, parseUuid(drawId), cliOperator()), renderDraw);
  });
}
