// ces campaign create|update|list|show|close|report
import type { Command } from 'commander';
import {
  createCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
  type Campaign,
  type CampaignOptions,
} from '../../src/campaigns/campaigns.ts';
import { closeCampaign } from '../../src/closing/close.ts';
import type { ErasureReport } from '../../src/participants/erasure.ts';
import { renderAccounts } from '../../src/closing/report.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { parseModeFilter, parseUuid } from '../options.ts';
import { cliOperator } from '../operator.ts';
import { details, runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

interface CampaignFlags extends CommonOptions {
  name?: string;
  startsAt?: string;
  endsAt?: string;
  purchaseFrom?: string;
  purchaseTo?: string;
  require?: string;
  allowCompanies?: boolean;
  apiEnabled?: boolean;
  instantPrize?: string;
  luckyNumbers?: string;
  luckyQuantity?: string;
  seriesCount?: string;
  maxEntriesPerParticipant?: string;
  maxEntriesPerDay?: string;
  fiscalVerifierUrl?: string;
  webhookApi?: string;
  authorization?: string;
  promoter?: string;
  promoterDocument?: string;
  promoterAddress?: string;
  notifyWithin?: string;
  notifyDays?: string;
  deliverWithin?: string;
}

function addCampaignOptions(cmd: Command): Command {
  return cmd
    .option('--starts-at <iso>', 'registration opens (ISO 8601 with its zone, e.g. 2026-12-01T00:00:00-03:00); empty string clears')
    .option('--ends-at <iso>', 'registration closes (ISO 8601 with its zone); empty string clears')
    .option('--purchase-from <iso>', 'purchase period start for access keys (ISO 8601 with its zone; default: --starts-at)')
    .option('--purchase-to <iso>', 'purchase period end for access keys (ISO 8601 with its zone; default: --ends-at)')
    .option('--require <list>', 'comma list of full_name,email,phone,birthdate,city,state ("" for none)')
    .option('--allow-companies', 'accept CNPJ participants')
    .option('--no-allow-companies', 'refuse CNPJ participants')
    .option('--api-enabled', 'enable the API channel')
    .option('--no-api-enabled', 'disable the API channel (POST /v1/entries gives 403)')
    .option('--instant-prize <mode>', 'none | INTEGRATOR_DECLARED | WINDOW')
    .option('--lucky-numbers <mode>', 'none | auto | manual')
    .option('--lucky-quantity <n>', 'lucky numbers per approved entry')
    .option('--series-count <n>', 'number of series (pairs are series x 00000..99999)')
    .option('--max-entries-per-participant <n>', 'entries per document number in the campaign ("" for no limit)')
    .option('--max-entries-per-day <n>', 'entries per document number per day, America/Sao_Paulo ("" for no limit)')
    .option('--fiscal-verifier-url <url>', 'https:// URL of an external fiscal verifier ("" for none)')
    .option(
      '--webhook-api <who>',
      'API keys that may change the webhook configuration (PATCH /v1/webhook): any | live | none (default any)',
    )
    .option('--authorization <s>', 'the Certificado de Autorização number, as SPA issued it ("" clears)')
    .option('--promoter <s>', 'the promoter\'s razão social ("" clears)')
    .option('--promoter-document <cnpj>', 'the promoter\'s CNPJ ("" clears)')
    .option('--promoter-address <s>', 'the promoter\'s address ("" clears)')
    .option('--notify-within <days>', "the plan's deadline to notify a winner, in days from the apuração (default 10)")
    .option('--notify-days <kind>', 'how --notify-within counts: calendar | business (default calendar)')
    .option('--deliver-within <days>', 'the deadline to deliver a prize, in days from the apuração: 1 to 30 (default 30)');
}

function toOptions(f: CampaignFlags): CampaignOptions {
  const clearable = (v: string | undefined): string | null | undefined => (v === undefined ? undefined : v === '' ? null : v);
  return {
    name: f.name,
    startsAt: clearable(f.startsAt),
    endsAt: clearable(f.endsAt),
    purchaseFrom: clearable(f.purchaseFrom),
    purchaseTo: clearable(f.purchaseTo),
    require: f.require,
    allowCompanies: f.allowCompanies,
    apiEnabled: f.apiEnabled,
    instantPrize: f.instantPrize,
    luckyNumbers: f.luckyNumbers,
    luckyQuantity: f.luckyQuantity,
    seriesCount: f.seriesCount,
    maxEntriesPerParticipant: clearable(f.maxEntriesPerParticipant),
    maxEntriesPerDay: clearable(f.maxEntriesPerDay),
    fiscalVerifierUrl: clearable(f.fiscalVerifierUrl),
    webhookApi: f.webhookApi,
    authorization: clearable(f.authorization),
    promoter: clearable(f.promoter),
    promoterDocument: clearable(f.promoterDocument),
    promoterAddress: clearable(f.promoterAddress),
    notifyWithin: f.notifyWithin,
    notifyDays: f.notifyDays,
    deliverWithin: f.deliverWithin,
  };
}

const LIST_COLUMNS = ['id', 'name', 'starts_at', 'ends_at', 'api_enabled', 'instant_prize', 'lucky_numbers', 'webhook_api'];

export function registerCampaignCommands(program: Command): void {
  const campaign = program.command('campaign').description('create and inspect campaigns');

  // commander's --no-x flags default x to true; unset them unless typed so that update changes
  // only what the operator asked for.
  const explicitOnly = (cmd: Command, flags: CampaignFlags): CampaignFlags => {
    const out = { ...flags };
    for (const key of ['allowCompanies', 'apiEnabled'] as const) {
      if (cmd.getOptionValueSource(key) !== 'cli') delete out[key];
    }
    return out;
  };

  addCampaignOptions(
    withCommonOptions(campaign.command('create').description('create a campaign').requiredOption('--name <name>', 'campaign name')),
  ).action(async function (this: Command, flags: CampaignFlags) {
    await runCommand(
      flags,
      (ctx) => createCampaign(ctx, toOptions(explicitOnly(this, flags)), cliOperator()),
      (c) => details(c as unknown as Record<string, unknown>),
    );
  });

  addCampaignOptions(
    withCommonOptions(
      campaign
        .command('update')
        .description('change a campaign')
        .argument('<id>', 'campaign id', parseUuid)
        .option('--name <name>', 'campaign name'),
    ),
  ).action(async function (this: Command, id: string, flags: CampaignFlags) {
    await runCommand(
      flags,
      (ctx) => updateCampaign(ctx, id, toOptions(explicitOnly(this, flags)), cliOperator()),
      (c) => details(c as unknown as Record<string, unknown>),
    );
  });

  withCommonOptions(campaign.command('list').description('list campaigns')).action(async (flags: CommonOptions) => {
    await runCommand(
      flags,
      (ctx) => listCampaigns(ctx),
      (list: Campaign[]) => table(list as unknown as Array<Record<string, unknown>>, LIST_COLUMNS),
    );
  });

  withCommonOptions(campaign.command('show').description('show one campaign').argument('<id>', 'campaign id', parseUuid)).action(
    async (id: string, flags: CommonOptions) => {
      await runCommand(
        flags,
        (ctx) => getCampaign(ctx, id),
        (c) => details(c as unknown as Record<string, unknown>),
      );
    },
  );

  withCommonOptions(
    campaign
      .command('close')
      .description('close the campaign: its prestação de contas stored, the anonymisations held for it carried out')
      .argument('<id>', 'campaign id', parseUuid),
  )
    .option('--force', 'close before every prize has prescribed, or with a draw still open')
    .option('--reason <text>', 'why a forced closing comes early (required with --force)')
    .action(async (id: string, flags: CommonOptions & { force?: boolean; reason?: string }) => {
      await runCommand(
        flags,
        (ctx) => closeCampaign(ctx, id, { force: flags.force === true, reason: flags.reason ?? null }, cliOperator()),
        (closed) =>
          [
            `campaign ${closed.campaign.id} closed at ${closed.campaign.closed_at}`,
            `prestação de contas stored: live sha256 ${closed.reports.live.sha256}, test sha256 ${closed.reports.test.sha256}`,
            `held anonymisations carried out: ${closed.anonymizations_carried_out}`,
            ...(closed.erasure === null ? [] : [`erasure from the file: ${erasureLine(closed.erasure)}`]),
          ].join('\n'),
      );
    });

  withCommonOptions(
    campaign
      .command('report')
      .description('the prestação de contas, in Portuguese: Markdown, or HTML to print (a draft until the campaign is closed)')
      .argument('<id>', 'campaign id', parseUuid),
  )
    .option('--format <format>', 'md | html', 'md')
    .option('--mode <mode>', 'live | test', 'live')
    .action(async (id: string, flags: CommonOptions & { format: string; mode: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          const format = flags.format.toLowerCase();
          if (format !== 'md' && format !== 'html')
            throw new AppError(422, 'invalid_option', `--format must be md or html, got "${flags.format}"`);
          const livemode = parseModeFilter(flags.mode)!;
          return { campaign_id: id, mode: flags.mode.toLowerCase(), format, text: renderAccounts(ctx, id, livemode, format) };
        },
        (doc) => doc.text.replace(/\n$/, ''),
      );
    });
}

/** "done", or who the erasure of the anonymisations carried out waits for (src/participants/erasure.ts). */
function erasureLine(erasure: ErasureReport): string {
  if (erasure.erasure === 'waiting_for_readers')
    return `waiting for readers (${erasure.erasure_waiting_for.join(', ')}); the server's tick completes it once they end`;
  if (erasure.erasure === 'left_to_litestream') return 'left to Litestream (CES_CHECKPOINTS=external)';
  return 'done';
}
