// ces draw create|list|show|freeze|numbers|results|run|disqualify|publish|void|report|clause: the
// apuração of a campaign's lucky numbers from a Loteria Federal extraction
// (docs/operations.md#running-a-draw-ces-draw). Every rule lives in src/draws/; this file reads
// flags and prints (results: cli/draw-results.ts).
import type { Command } from 'commander';
import { once } from 'node:events';
import type { Ctx } from '../../src/kernel/context.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { renderDrawClause } from '../../src/draws/clause.ts';
import { WINNERS } from '../../src/draws/draw-input.ts';
import { frozenHoldersText, frozenNumbersText } from '../../src/draws/frozen-set.ts';
import { drawParticipantList } from '../../src/draws/participant-list.ts';
import { createDraw, freezeDraw, voidDraw } from '../../src/draws/lifecycle.ts';
import { publishDraw } from '../../src/draws/publish.ts';
import type { RunOutcome } from '../../src/draws/model.ts';
import { renderDrawReport, type ReportFormat } from '../../src/draws/report.ts';
import { disqualifyWinner, getRunOutcome, runDraw } from '../../src/draws/run.ts';
import { hasRun } from '../../src/draws/status.ts';
import { getDraw, listDraws } from '../../src/draws/views.ts';
import { parseInteger } from '../../src/input/integers.ts';
import { writePrivateFileExclusive } from '../../src/tools/private-files.ts';
import { cesCommand } from '../../src/tools/runtime.ts';
import { recordDrawResults, type ResultsFlags } from '../draw-results.ts';
import { drawRows, renderDraw, renderDrawDetail, renderRun } from '../draw-text.ts';
import { cliIo } from '../io.ts';
import { parseMode, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { details, fail, openCommandContext, runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

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
  emptySeries?: string;
  place?: string;
  prize: string[];
  oneWinPerDocument: boolean;
}

/** What `ces draw numbers --out` prints: where the list went and what it is. */
interface NumbersFile {
  draw_id: string;
  file: string;
  eligible_count: number | null;
  numbers_sha256: string | null;
  bytes: number;
  format?: NumbersFormat;
  holders_sha256?: string | null;
}

/** The lists `ces draw numbers` writes: the canonical list, the holders list, SPA's participant list. */
type NumbersFormat = 'canonical' | 'holders' | 'scpc-csv';

function parseNumbersFormat(value: string | undefined): NumbersFormat {
  const format = (value ?? 'canonical').toLowerCase();
  if (format !== 'canonical' && format !== 'holders' && format !== 'scpc-csv')
    throw new AppError(422, 'invalid_option', `--format must be canonical, holders or scpc-csv, got "${value}"`);
  return format;
}

/** The list in the format asked for (scpc-csv holds names: its listing is audited). */
function numbersChunks(ctx: Ctx, drawId: string, format: NumbersFormat): Generator<Buffer> {
  if (format === 'holders') return frozenHoldersText(ctx, drawId);
  if (format === 'scpc-csv') return drawParticipantList(ctx, drawId, cliOperator());
  return frozenNumbersText(ctx, drawId);
}

/** A document a command prints as text; with --json, inside one JSON object. */
interface DrawDocument {
  draw_id: string;
  format: ReportFormat | 'text';
  text: string;
}

/** The document as printed: its own text, without the line break runCommand adds. */
const renderDocument = (d: DrawDocument): string => d.text.replace(/\n$/, '');

function parseReportFormat(value: string): ReportFormat {
  const format = value.toLowerCase();
  if (format !== 'md' && format !== 'html') throw new AppError(422, 'invalid_option', `--format must be md or html, got "${value}"`);
  return format;
}

/**
 * The frozen list into a new file: written under a temp name (0600, O_EXCL) and linked into place
 * whole, never over an existing file (src/tools/private-files.ts).
 */
function writeNumbersFile(ctx: Ctx, drawId: string, out: string, format: NumbersFormat): NumbersFile {
  const draw = getDraw(ctx, drawId);
  const bytes = writePrivateFileExclusive(out, numbersChunks(ctx, drawId, format), ctx.random);
  const file: NumbersFile = { draw_id: drawId, file: out, eligible_count: draw.eligible_count, numbers_sha256: draw.numbers_sha256, bytes };
  if (format === 'canonical') return file;
  return { ...file, format, ...(format === 'holders' ? { holders_sha256: draw.holders_sha256 } : {}) };
}

/** The frozen list on stdout, as is (the bytes numbers_sha256 is the SHA-256 of), waiting for a slow reader. */
async function printNumbers(flags: CommonOptions & { format?: string }, drawId: string): Promise<void> {
  const io = cliIo();
  let ctx: Ctx | undefined;
  try {
    if (flags.json) throw new AppError(422, 'invalid_option', '--json needs --out FILE: without it stdout carries the list itself');
    const format = parseNumbersFormat(flags.format);
    ctx = openCommandContext(flags);
    for (const chunk of numbersChunks(ctx, drawId, format)) if (!io.stdout.write(chunk)) await once(io.stdout, 'drain');
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
    .option('--extraction-date <date>', 'date of the Loteria Federal extraction the regulation names (YYYY-MM-DD; required)')
    .option('--winners <n>', 'how many winners (default 1)')
    .option('--series <digits>', 'DIGITS the series is read from (default: the tens of the 1st..k-th prizes)')
    .option('--element <digits>', 'DIGITS the element is read from (default 1u,2u,3u,4u,5u)')
    .option('--approximation <rule>', 'nearest (scpc is its other name) | above-then-below | up-wrap (default nearest)')
    .option(
      '--empty-series <rule>',
      'a series with no eligible number passes to: alternate (+1, -1, +2 …) | lower-first (default alternate)',
    )
    .option('--place <s>', 'where the apuração happens')
    .option(
      '--prize <DESCRIPTION=VALUE>',
      'prize of a position, value in reais with a dot (Moto 0 km=15990.00); repeat once per position in order, or once for all',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
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
              winners: flags.winners === undefined ? undefined : parseInteger('winners', flags.winners, WINNERS),
              series: flags.series,
              element: flags.element,
              approximation: flags.approximation,
              emptySeries: flags.emptySeries,
              place: flags.place ?? null,
              prizes: flags.prize,
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
        const detail = getDraw(ctx, id);
        outcome = hasRun(detail.status) ? getRunOutcome(ctx, id) : null;
        return detail;
      },
      (detail) => renderDrawDetail(detail, outcome),
    );
  });

  withCommonOptions(
    draw
      .command('freeze')
      .description(
        'record the numbers eligible at the cut-off and their SHA-256 (refused before the cut-off, after the planned extraction, and while entries received by the cut-off are pending)',
      )
      .argument('<draw_id>'),
  )
    .option('--force', 'freeze although entries received by the cut-off are still pending (needs --reason; the record says how many)')
    .option('--reason <text>', 'with --force: why the freeze cannot wait, for the record')
    .action(async (drawId: string, flags: CommonOptions & { force?: boolean; reason?: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          if (flags.reason !== undefined && !flags.force) throw new AppError(422, 'invalid_option', '--reason goes with --force');
          return freezeDraw(ctx, parseUuid(drawId), cliOperator(), { force: flags.force === true, reason: flags.reason });
        },
        renderDraw,
      );
    });

  withCommonOptions(
    draw
      .command('numbers')
      .description(
        'the frozen canonical list, one S/EEEEE a line (what numbers_sha256 is the SHA-256 of); or the holders list, or the participant list for SPA',
      )
      .argument('<draw_id>'),
  )
    .option('--out <file>', 'write it to this new file (0600; refused if the file exists) instead of stdout')
    .option(
      '--format <format>',
      'canonical (default) | holders (S/EEEEE;H, what holders_sha256 is the SHA-256 of) | scpc-csv (name;number, personal data, audited)',
    )
    .action(async (drawId: string, flags: CommonOptions & { out?: string; format?: string }) => {
      const id = parseUuid(drawId);
      if (flags.out === undefined) {
        await printNumbers(flags, id);
        return;
      }
      const out = flags.out;
      await runCommand(
        flags,
        (ctx) => writeNumbersFile(ctx, id, out, parseNumbersFormat(flags.format)),
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
    .option('--reason <text>', 'why the extraction is later than the planned one (a postponement), or why the results are corrected')
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
          const position = parseInteger('position', flags.position, WINNERS);
          const detail = disqualifyWinner(ctx, id, { position, reason: flags.reason }, cliOperator());
          outcome = getRunOutcome(ctx, id);
          return detail;
        },
        (detail) => renderDrawDetail(detail, outcome),
      );
    });

  withCommonOptions(
    draw.command('report').description('the apuração record, in Portuguese: Markdown, or HTML to print and sign').argument('<draw_id>'),
  )
    .option('--format <format>', 'md | html', 'md')
    .action(async (drawId: string, flags: CommonOptions & { format: string }) => {
      const id = parseUuid(drawId);
      await runCommand(
        flags,
        (ctx): DrawDocument => {
          const format = parseReportFormat(flags.format);
          return { draw_id: id, format, text: renderDrawReport(ctx, id, format, `${cesCommand()} draw numbers ${id}`) };
        },
        renderDocument,
      );
    });

  withCommonOptions(
    draw
      .command('clause')
      .description("the regulation clause for the draw's rules, in Portuguese, with a worked example")
      .argument('<draw_id>'),
  ).action(async (drawId: string, flags: CommonOptions) => {
    const id = parseUuid(drawId);
    await runCommand(flags, (ctx): DrawDocument => ({ draw_id: id, format: 'text', text: renderDrawClause(ctx, id) }), renderDocument);
  });

  withCommonOptions(
    draw
      .command('void')
      .description('void the draw (before publication): it stays listed, and its extraction may decide a new draw, whose record names it')
      .argument('<draw_id>'),
  )
    .requiredOption('--reason <text>', 'why, for the record')
    .action(async (drawId: string, flags: CommonOptions & { reason: string }) => {
      await runCommand(flags, (ctx) => voidDraw(ctx, parseUuid(drawId), { reason: flags.reason }, cliOperator()), renderDraw);
    });

  withCommonOptions(
    draw
      .command('publish')
      .description("make the draw's winners final and send draw.published to the campaign's webhook")
      .argument('<draw_id>'),
  ).action(async (drawId: string, flags: CommonOptions) => {
    await runCommand(
      flags,
      (ctx) => {
        const id = parseUuid(drawId);
        return publishDraw(ctx, id, cliOperator(), `${cesCommand()} draw numbers ${id}`);
      },
      renderDraw,
    );
  });
}
