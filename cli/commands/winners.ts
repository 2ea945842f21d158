// ces winners list|show|record|taxes|attachment: every prize won, from the apuração to its
// delivery (docs/operations.md#winners-ces-winners). Every rule lives in src/winners/; this file reads
// flags and files, and prints.
import type { Command } from 'commander';
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { basename } from 'node:path';
import { AppError } from '../../src/kernel/errors.ts';
import { writePrivateFileExclusive } from '../../src/tools/private-files.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, type IncomingFile } from '../../src/winners/attachments.ts';
import type { WinnerView } from '../../src/winners/model.ts';
import { readAttachment, recordWinnerStep } from '../../src/winners/record.ts';
import { RECORDABLE_EVENTS, WINNER_STATUSES } from '../../src/winners/status.ts';
import { listWinnerTaxes, taxesByDueDate, type WinnerTax } from '../../src/winners/taxes.ts';
import { getWinner, listWinners } from '../../src/winners/winners.ts';
import { parseModeFilter, parseStatusOption, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { details, runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

/** One winner as a line of the listing. */
function winnerLine(w: WinnerView): Record<string, unknown> {
  return {
    id: w.id,
    mode: w.livemode ? 'live' : 'test',
    won: w.source === 'draw' ? `draw ${w.draw_id!.slice(0, 8)} #${w.position}` : 'instant',
    participant: `${w.participant.name ?? '-'} ${w.participant.document}`,
    prize: w.prize.value === null ? (w.prize.description ?? '-') : `${w.prize.description ?? '-'} R$ ${w.prize.value}`,
    status: w.status,
    notify_by: w.deadlines.notify_by,
    deliver_by: w.deadlines.deliver_by,
    prescribes_at: w.deadlines.prescribes_at,
    overdue: w.overdue.length === 0 ? '-' : w.overdue.join(','),
  };
}

function renderWinner(w: WinnerView): string {
  const steps = w.events.map(
    (e) =>
      `  ${e.at}  ${e.event}  ${e.from_status ?? '-'} -> ${e.to_status}  ${e.actor}${e.note ? `  ${e.note}` : ''}` +
      e.attachments.map((a) => `\n    attachment ${a.id}: ${a.filename} (${a.media_type}, ${a.size} bytes) sha256 ${a.sha256}`).join(''),
  );
  const { events: _events, ...rest } = w;
  return `${details(rest as unknown as Record<string, unknown>)}\nsteps:\n${steps.join('\n')}`;
}

/**
 * The files of --attach, read whole only when they are within the limit: a bigger one is refused
 * from its size, before it is read. The domain checks them again (type by their first bytes).
 */
function readAttachments(paths: readonly string[]): IncomingFile[] {
  if (paths.length > MAX_ATTACHMENTS)
    throw new AppError(422, 'invalid_attachment', `at most ${MAX_ATTACHMENTS} --attach files on one step, got ${paths.length}`);
  return paths.map((path) => {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      throw new AppError(422, 'invalid_attachment', `--attach ${path}: ${(error as NodeJS.ErrnoException).code ?? 'cannot be read'}`);
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new AppError(422, 'invalid_attachment', `--attach ${path} is not a file`);
      if (stat.size > MAX_ATTACHMENT_BYTES)
        throw new AppError(422, 'invalid_attachment', `--attach ${path} has ${stat.size} bytes: at most ${MAX_ATTACHMENT_BYTES} (10 MiB)`);
      const data = Buffer.alloc(stat.size);
      let read = 0;
      while (read < data.length) {
        const n = readSync(fd, data, read, data.length - read, read);
        if (n === 0) break;
        read += n;
      }
      return { filename: basename(path), data: data.subarray(0, read) };
    } finally {
      closeSync(fd);
    }
  });
}

function renderTaxes(taxes: WinnerTax[]): string {
  if (taxes.length === 0) return '(none)';
  const rows = taxes.map((t) => ({
    winner: t.winner_id,
    prize: t.prize.description ?? '-',
    base: t.prize.value ?? '-',
    rate: t.rate,
    tax: t.tax ?? '-',
    fact_date: t.fact_date,
    due_by: t.due_by,
    darf: t.darf_code,
  }));
  const totals = taxesByDueDate(taxes).map((d) => ({ due_by: d.due_by, darf: d.darf_code, winners: d.winners, tax: d.tax }));
  return [
    table(rows, ['winner', 'prize', 'base', 'rate', 'tax', 'fact_date', 'due_by', 'darf']),
    '',
    'one DARF per due date:',
    table(totals, ['due_by', 'darf', 'winners', 'tax']),
    '',
    taxes[0].citation,
  ].join('\n');
}

export function registerWinnersCommands(program: Command): void {
  const winners = program.command('winners').description('prizes won, from the apuração to delivery, prescription and taxes');

  withCommonOptions(winners.command('list').description("the campaign's winners, with their deadlines and steps"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--mode <mode>', 'live | test (default: both)')
    .option('--status <status>', WINNER_STATUSES.join(' | '))
    .action(async (flags: CommonOptions & { campaign: string; mode?: string; status?: string }) => {
      await runCommand(
        flags,
        (ctx) =>
          listWinners(ctx, {
            campaignId: flags.campaign,
            livemode: parseModeFilter(flags.mode),
            status: parseStatusOption(flags.status, WINNER_STATUSES),
          }),
        (list) =>
          table(list.map(winnerLine), [
            'id',
            'mode',
            'won',
            'participant',
            'prize',
            'status',
            'notify_by',
            'deliver_by',
            'prescribes_at',
            'overdue',
          ]),
      );
    });

  withCommonOptions(winners.command('show').description('one winner, with every step').argument('<winner_id>')).action(
    async (winnerId: string, flags: CommonOptions) => {
      await runCommand(flags, (ctx) => getWinner(ctx, parseUuid(winnerId)), renderWinner);
    },
  );

  withCommonOptions(winners.command('record').description("record a step of a winner's prize").argument('<winner_id>'))
    .requiredOption('--event <event>', RECORDABLE_EVENTS.join(' | '))
    .requiredOption('--note <text>', 'what was done: how the winner was reached, what was handed over')
    .option(
      '--attach <file>',
      'a PDF, JPEG or PNG of up to 10 MiB kept with the step (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .action(async (winnerId: string, flags: CommonOptions & { event: string; note: string; attach: string[] }) => {
      const id = parseUuid(winnerId);
      await runCommand(
        flags,
        (ctx) =>
          recordWinnerStep(ctx, id, { event: flags.event, note: flags.note, attachments: readAttachments(flags.attach) }, cliOperator()),
        renderWinner,
      );
    });

  withCommonOptions(winners.command('taxes').description('the income tax on each prize won: rate, due date and DARF code'))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--mode <mode>', 'live | test (default: both)')
    .action(async (flags: CommonOptions & { campaign: string; mode?: string }) => {
      await runCommand(
        flags,
        (ctx) => listWinnerTaxes(ctx, { campaignId: flags.campaign, livemode: parseModeFilter(flags.mode) }),
        renderTaxes,
      );
    });

  withCommonOptions(
    winners.command('attachment').description("write a step's attached file to a new file (audited)").argument('<attachment_id>'),
  )
    .requiredOption('--out <file>', 'the file to write (must not exist; created readable by its owner only)')
    .action(async (attachmentId: string, flags: CommonOptions & { out: string }) => {
      const id = Number(attachmentId);
      await runCommand(
        flags,
        (ctx) => {
          if (!/^[1-9][0-9]{0,15}$/.test(attachmentId))
            throw new AppError(422, 'invalid_option', `ATTACHMENT_ID must be a number, got "${attachmentId}"`);
          const file = readAttachment(ctx, id, cliOperator());
          const bytes = writePrivateFileExclusive(flags.out, [file.data], ctx.random);
          return { attachment_id: id, file: flags.out, filename: file.filename, media_type: file.media_type, bytes, sha256: file.sha256 };
        },
        (r) => details(r),
      );
    });
}
