// ces webhook show|set|rotate-secret|deliveries|redeliver|test
import { registerWebhookListenCommand } from './webhook-listen.ts';
import type { Command } from 'commander';
import { getCampaign } from '../../src/campaigns/campaigns.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { MAX_GRACE_SECONDS, parseGraceSeconds } from '../../src/input/grace.ts';
import { getWebhookConfig, rotateWebhookSecret, setWebhookConfig, toOperatorView } from '../../src/webhooks/webhook-config.ts';
import { DELIVERY_STATUSES, listDeliveryViews, redeliver, redeliverFailed, type DeliveryView } from '../../src/webhooks/deliveries.ts';
import { sendTestPing, type PingResult } from '../../src/webhooks/ping.ts';
import { parseLimit, parseMode, parseStatusOption, parseUuid } from '../options.ts';
import { cliIo } from '../io.ts';
import { cliOperator } from '../operator.ts';
import { details, escapeControlCharacters, runCommand, table, withCommonOptions, type CommonOptions } from '../output.ts';

const DELIVERY_COLUMNS = [
  'id',
  'event_type',
  'entry_id',
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'created_at',
  'body',
  'response',
];

// Excerpts are shortened further for the table; --json carries them whole (200 / 512 characters).
const clip = (text: string | null, n: number): string | null =>
  text === null ? null : (text.length > n ? `${text.slice(0, n - 1)}…` : text).replace(/\s+/g, ' ');
const renderDeliveries = (list: DeliveryView[]): string =>
  table(
    list.map((d) => ({ ...d, body: clip(d.body_excerpt, 60), response: clip(d.last_response_excerpt, 40) })) as unknown as Array<
      Record<string, unknown>
    >,
    DELIVERY_COLUMNS,
  );

/** What `ces webhook test` prints when the ping was not delivered (skipped or failed). */
interface PingFailure {
  error: { code: string; message: string };
  attempt: PingResult;
}

const renderPing = (r: PingResult): string =>
  `${details({ delivery_id: r.delivery_id, url: r.url, result: r.result, status_code: r.status_code, latency_ms: r.latency_ms, error: r.error, response: clip(r.response_excerpt, 200), attempted_at: r.attempted_at })}`;

export function registerWebhookCommands(program: Command): void {
  const webhook = program.command('webhook').description('webhook configuration and deliveries');
  registerWebhookListenCommand(webhook);

  withCommonOptions(webhook.command('show').description("the campaign's webhook configuration (never the secret)"))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .action(async (flags: CommonOptions & { campaign: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          getCampaign(ctx, flags.campaign);
          return toOperatorView(getWebhookConfig(ctx, flags.campaign), ctx.clock.now());
        },
        (c) => details(c as unknown as Record<string, unknown>),
      );
    });

  withCommonOptions(
    webhook.command('set').description("create or change the campaign's webhook configuration (the secret is printed only on creation)"),
  )
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--url <url>', 'https:// endpoint that receives the events (required to create)')
    .option('--active', 'deliver events (the default on creation)')
    .option('--inactive', 'pause delivery: events that happen meanwhile are skipped')
    .action(async (flags: CommonOptions & { campaign: string; url?: string; active?: boolean; inactive?: boolean }) => {
      await runCommand(
        flags,
        async (ctx) => {
          if (flags.active && flags.inactive) throw new AppError(422, 'invalid_option', 'give --active or --inactive, not both');
          if (flags.url === undefined && !flags.active && !flags.inactive)
            throw new AppError(422, 'invalid_option', 'give --url, --active or --inactive');
          const isActive = flags.active ? true : flags.inactive ? false : undefined;
          return setWebhookConfig(ctx, flags.campaign, { endpointUrl: flags.url, isActive }, cliOperator());
        },
        (c) =>
          c.hmac_secret === undefined
            ? details(c as unknown as Record<string, unknown>)
            : `${details(c as unknown as Record<string, unknown>)}\n\nGive the secret to the integrator now: it is shown only once.`,
        {},
        { delivers: true },
      );
    });

  withCommonOptions(webhook.command('rotate-secret').description('replace the signing secret (printed only now); later attempts use it'))
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--grace <seconds>', `the old secret signs too, beside the new one, this long (at most ${MAX_GRACE_SECONDS}, 30 days)`, '0')
    .action(async (flags: CommonOptions & { campaign: string; grace: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          getCampaign(ctx, flags.campaign);
          return rotateWebhookSecret(ctx, flags.campaign, parseGraceSeconds(flags.grace), cliOperator());
        },
        (r) =>
          `${details(r)}\n\nGive the new secret to the integrator now: it is shown only once.${
            r.previous_secret_expires_at === null
              ? ''
              : `\nUntil ${r.previous_secret_expires_at} every delivery carries two signatures, the new secret's and the old one's.`
          }`,
      );
    });

  withCommonOptions(
    webhook.command('deliveries').description("the campaign's webhook deliveries, newest first, with attempts and last error"),
  )
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--status <status>', 'pending | delivered | failed | skipped')
    .option('--limit <n>', 'at most this many (1 to 100000)', '100')
    .action(async (flags: CommonOptions & { campaign: string; status?: string; limit: string }) => {
      await runCommand(
        flags,
        (ctx) => {
          getCampaign(ctx, flags.campaign);
          const limit = parseLimit(flags.limit);
          return listDeliveryViews(ctx, flags.campaign, parseStatusOption(flags.status, DELIVERY_STATUSES), limit);
        },
        renderDeliveries,
      );
    });

  withCommonOptions(
    webhook.command('test').description('send a signed ping event to the endpoint now and print the attempt (exit 1 unless 2xx)'),
  )
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--mode <mode>', 'livemode flag of the ping: live | test', 'test')
    .action(async (flags: CommonOptions & { campaign: string; mode: string }) => {
      await runCommand(
        flags,
        async (ctx): Promise<PingResult | PingFailure> => {
          const attempt = await sendTestPing(ctx, flags.campaign, parseMode(flags.mode) === 'live');
          if (attempt.result === 'delivered') return attempt;
          const message = `ping ${attempt.result}: ${attempt.error ?? 'no 2xx answer'}`;
          const io = cliIo();
          io.stderr.write(`ces: ${escapeControlCharacters(message)}\n`);
          io.exitCode = 1;
          // A failure, so with --json the document is the CLI's {"error": {code, message}}; the
          // attempt goes beside it. Without --json the attempt is printed either way.
          return { error: { code: `ping_${attempt.result}`, message }, attempt };
        },
        (out) => renderPing('attempt' in out ? out.attempt : out),
        {},
        { delivers: true },
      );
    });

  withCommonOptions(
    webhook
      .command('redeliver')
      .description('queue a failed (or delivered) delivery again, or with --campaign --failed every failed one')
      .argument('[delivery_id]'),
  )
    .option('--campaign <id>', 'campaign id (with --failed)', parseUuid)
    .option('--failed', 'every failed delivery of the campaign')
    .action(async (deliveryId: string | undefined, flags: CommonOptions & { campaign?: string; failed?: boolean }) => {
      await runCommand(
        flags,
        (ctx) => {
          if (deliveryId !== undefined && (flags.campaign !== undefined || flags.failed))
            throw new AppError(422, 'invalid_option', 'give either DELIVERY_ID or --campaign ID --failed, not both');
          if (deliveryId !== undefined) {
            const { attempt_log: _log, ...view } = redeliver(ctx, deliveryId, cliOperator()) as DeliveryView & { attempt_log: unknown };
            return [view];
          }
          if (flags.campaign === undefined || !flags.failed)
            throw new AppError(422, 'invalid_option', 'give DELIVERY_ID, or --campaign ID --failed');
          getCampaign(ctx, flags.campaign);
          return redeliverFailed(ctx, flags.campaign, cliOperator());
        },
        (list) => `${list.length} deliver${list.length === 1 ? 'y' : 'ies'} queued again\n${renderDeliveries(list)}`,
      );
    });
}
