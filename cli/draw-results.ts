// `ces draw results`: the extraction's five prizes, typed by the operator or read from Caixa's
// results API (src/draws/loteria.ts). What was read is shown and recorded only once a person says
// so: at a terminal, the answer to "Record these results? [y/N]"; elsewhere, --yes.
import { AppError } from '../src/kernel/errors.ts';
import type { Ctx } from '../src/kernel/context.ts';
import { parseExtractionNumber } from '../src/draws/draw-input.ts';
import { recordResults } from '../src/draws/lifecycle.ts';
import { fetchFederalResult, type FetchedExtraction } from '../src/draws/loteria.ts';
import type { Draw } from '../src/draws/model.ts';
import { assertResultsOpen } from '../src/draws/status.ts';
import { getDraw } from '../src/draws/views.ts';
import { askYesNo } from './confirm.ts';
import { renderFetchedExtraction } from './draw-text.ts';
import { cliIo } from './io.ts';
import { cliOperator } from './operator.ts';
import { escapeControlCharacters, type CommonOptions } from './output.ts';

export interface ResultsFlags extends CommonOptions {
  extraction?: string;
  date?: string;
  prizes?: string;
  fetch?: boolean;
  yes?: boolean;
  reason?: string;
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

/** Records the results the flags give: typed, or read from Caixa and confirmed. */
export async function recordDrawResults(ctx: Ctx, drawId: string, flags: ResultsFlags): Promise<Draw> {
  if (!flags.fetch) {
    const missing = (['extraction', 'date', 'prizes'] as const).filter((f) => flags[f] === undefined).map((f) => `--${f}`);
    if (missing.length > 0)
      throw new AppError(422, 'invalid_option', `give ${missing.join(', ')} (or --fetch to read the results from Caixa)`);
    return recordResults(
      ctx,
      drawId,
      {
        extraction: parseExtractionNumber(flags.extraction!),
        date: flags.date!,
        prizes: flags.prizes!.split(','),
        source: 'typed',
        reason: flags.reason ?? null,
      },
      cliOperator(),
    );
  }
  if (flags.prizes !== undefined) throw new AppError(422, 'invalid_option', 'give --prizes or --fetch, not both');
  if (flags.date !== undefined) throw new AppError(422, 'invalid_option', "--date goes with --prizes: with --fetch the date is Caixa's");
  // --extraction picks the extraction to read (Caixa's latest without it): an option, not results.
  const extraction = flags.extraction === undefined ? null : parseExtractionNumber(flags.extraction, 'invalid_option');
  // Refused before the network is asked and the operator shown anything: a draw that has run.
  assertResultsOpen(getDraw(ctx, drawId).status);
  const fetched = await fetchFederalResult({ baseUrl: ctx.config.loteriaUrl, timeoutMs: ctx.config.loteriaTimeoutMs, extraction });
  await confirmFetched(fetched, flags.yes === true);
  return recordResults(
    ctx,
    drawId,
    { extraction: fetched.number, date: fetched.date, prizes: fetched.prizes, source: 'caixa', reason: flags.reason ?? null },
    cliOperator(),
  );
}
