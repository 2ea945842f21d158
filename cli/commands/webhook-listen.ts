// ces webhook listen --campaign ID [--mode test|live] --forward-to URL: the campaign's new events,
// signed with its secret, forwarded to a receiver on this machine (plain http on loopback allowed)
// until SIGINT or SIGTERM; one line per forward. With --json each forward is one JSON object on its
// own line (a stream, like `ces serve`'s log, not one document).
import type { Command } from 'commander';
import { forwardEvents, parseForwardUrl, type Forwarded } from '../../src/webhooks/listen.ts';
import { cliIo, processIo } from '../io.ts';
import { parseMode, parseUuid } from '../options.ts';
import { escapeControlCharacters, fail, openCommandContext, withCommonOptions, type CommonOptions } from '../output.ts';

export function registerWebhookListenCommand(webhook: Command): void {
  withCommonOptions(
    webhook
      .command('listen')
      .description(
        "forward the campaign's new events, signed, to a local receiver until stopped (Ctrl-C); the configured endpoint is unaffected",
      ),
  )
    .requiredOption('--campaign <id>', 'campaign id', parseUuid)
    .option('--mode <mode>', 'events of this mode: test | live', 'test')
    .requiredOption('--forward-to <url>', 'receiver URL: https://…, or http:// on localhost / 127.0.0.1 / [::1]')
    .action(async (flags: CommonOptions & { campaign: string; mode: string; forwardTo: string }) => {
      const io = cliIo();
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      if (io === processIo) {
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
      }
      io.stop?.addEventListener('abort', onSignal, { once: true });
      let ctx;
      try {
        const forwardTo = parseForwardUrl(flags.forwardTo);
        const livemode = parseMode(flags.mode) === 'live';
        ctx = openCommandContext(flags, {}, { delivers: true });
        await forwardEvents(ctx, {
          campaignId: flags.campaign,
          livemode,
          forwardTo,
          signal: stop.signal,
          timeoutMs: ctx.config.webhookTimeoutMs,
          // Said once the starting point is taken: what is recorded after this line is forwarded.
          onReady: () =>
            io.stderr.write(
              `ces: forwarding new ${livemode ? 'live' : 'test'} events of campaign ${flags.campaign} to ${forwardTo.href}; Ctrl-C stops\n`,
            ),
          onForward: (f) => io.stdout.write(flags.json ? `${JSON.stringify(f)}\n` : `${escapeControlCharacters(renderForward(f))}\n`),
        });
      } catch (error) {
        fail(flags, error);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        ctx?.db.close();
      }
    });
}

/** `2026-11-28T11:05:13.324Z  entry.received  ENTRY_ID  200  12 ms` */
function renderForward(f: Forwarded): string {
  const outcome = f.status !== null ? String(f.status) : `failed (${f.error})`;
  return [f.at, f.event_type.padEnd(15), f.entry_id ?? '-', outcome, `${f.duration_ms} ms`].join('  ');
}
