// ces participant export|anonymize: LGPD data-subject requests for one participant (a document
// number in one campaign and mode). Both are recorded in audit_log. `export --out FILE` writes the
// document into a new 0600 file (refused if the file exists), as `ces draw numbers --out` does.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { AppError } from '../../src/kernel/errors.ts';
import { anonymizeParticipant, exportParticipant } from '../../src/participants/participants.ts';
import { writePrivateFileExclusive } from '../../src/tools/private-files.ts';
import { parseSingleMode, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { details, runCommand, withCommonOptions, type CommonOptions } from '../output.ts';

interface ParticipantFlags extends CommonOptions {
  campaign: string;
  document: string;
  mode?: string;
  reason?: string;
  out?: string;
}

/** What `ces participant export --out` prints: where the document went, not the document. */
interface ExportFile {
  enrollment_id: string;
  file: string;
  bytes: number;
}

function participantCommand(parent: Command, name: string, description: string): Command {
  return withCommonOptions(parent.command(name).description(description))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .requiredOption('--document <number>', "the participant's CPF or CNPJ (punctuation allowed)")
    .option('--mode <mode>', 'live | test', 'live');
}

export function registerParticipantCommands(program: Command): void {
  const participant = program.command('participant').description('LGPD data-subject requests: export and anonymize');

  // The export is JSON whatever the flags: it is the document handed to the data subject.
  participantCommand(participant, 'export', 'print all data held about a participant as JSON (logged in audit_log)')
    .option('--out <file>', 'write it to this new file (0600; refused if the file exists) instead of stdout')
    .action(async (flags: ParticipantFlags) => {
      const request = (): { campaignId: string; livemode: number; document: string } => ({
        campaignId: flags.campaign,
        livemode: parseSingleMode(flags.mode),
        document: flags.document,
      });
      const out = flags.out;
      if (out === undefined) {
        await runCommand(
          flags,
          (ctx) => exportParticipant(ctx, request(), cliOperator()),
          (doc) => JSON.stringify(doc, null, 2),
        );
        return;
      }
      await runCommand(
        flags,
        (ctx): ExportFile => {
          // Refused before the export is recorded: a file already there is the usual mistake. The
          // exclusive link below still guards against one created meanwhile.
          if (existsSync(out)) throw new AppError(422, 'cannot_write_file', `cannot create ${out}: a file is already there`);
          const doc = exportParticipant(ctx, request(), cliOperator());
          const bytes = writePrivateFileExclusive(out, [Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)], ctx.random);
          return { enrollment_id: (doc.enrollment as { id: string }).id, file: out, bytes };
        },
        (r) => details(r as unknown as Record<string, unknown>),
      );
    });

  participantCommand(
    participant,
    'anonymize',
    "replace a participant's personal data, keeping entries, awards, lucky numbers and consent records (logged)",
  )
    .option('--reason <text>', 'why (e.g. the ticket of the request); stored in audit_log')
    .action(async (flags: ParticipantFlags) => {
      await runCommand(
        flags,
        (ctx) =>
          anonymizeParticipant(
            ctx,
            { campaignId: flags.campaign, livemode: parseSingleMode(flags.mode), document: flags.document, reason: flags.reason ?? null },
            cliOperator(),
          ),
        (r) => details(r as unknown as Record<string, unknown>),
      );
    });
}
