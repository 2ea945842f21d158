// ces participant export|anonymize: LGPD data-subject requests for one participant (a document
// number in one campaign and mode). Both are recorded in audit_log.
import type { Command } from 'commander';
import { anonymizeParticipant, exportParticipant } from '../../src/participants/participants.ts';
import { parseSingleMode, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { details, runCommand, withCommonOptions, type CommonOptions } from '../output.ts';

interface ParticipantFlags extends CommonOptions {
  campaign: string;
  document: string;
  mode?: string;
  reason?: string;
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
  participantCommand(participant, 'export', 'print all data held about a participant as JSON (logged in audit_log)').action(
    async (flags: ParticipantFlags) => {
      await runCommand(
        flags,
        (ctx) =>
          exportParticipant(
            ctx,
            { campaignId: flags.campaign, livemode: parseSingleMode(flags.mode), document: flags.document },
            cliOperator(),
          ),
        (doc) => JSON.stringify(doc, null, 2),
      );
    },
  );

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
