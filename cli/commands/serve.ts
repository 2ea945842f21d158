// ces serve: run the HTTP server and the background tick until SIGINT/SIGTERM.
import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../../src/kernel/config.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { createLogger, guardLogStream } from '../../src/kernel/log.ts';
import { limitHeapGrowth } from '../../src/tools/heap-growth.ts';
import { startServer } from '../../src/http/server.ts';
import { cliMessage } from '../fields.ts';
import { fail } from '../output.ts';

interface ServeFlags {
  db?: string;
  host?: string;
  port?: string;
  tickMs?: string;
  logFormat?: string;
  json?: boolean;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the API server and the background pipeline')
    .option('--db <path>', 'database file (env CES_DB, default ./data/ces.db)')
    .option('--host <host>', 'listen address (env CES_HOST, default 127.0.0.1)')
    .option('--port <n>', 'listen port, 0 for any free one (env CES_PORT / PORT, default 3000)')
    .option('--tick-ms <n>', 'background tick interval (env CES_TICK_MS, default 200)')
    .option('--log-format <format>', 'pretty | json (env CES_LOG_FORMAT)')
    .option('--json', 'same as --log-format json')
    .action(async (flags: ServeFlags) => {
      let config;
      try {
        config = loadConfig({
          db: flags.db,
          host: flags.host,
          port: flags.port,
          tickMs: flags.tickMs,
          logFormat: flags.logFormat ?? (flags.json ? 'json' : undefined),
        });
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        fail({ json: flags.json }, error);
        return;
      }
      // The log's reader may leave while the server runs: serving goes on without a log (src/kernel/log.ts).
      // stderr may be gone too (`2>&1`); the /metrics counter is then what tells (cli/output.ts).
      const output = guardLogStream(process.stdout, (error) => {
        process.stderr.write(
          `ces: log output lost (${error.message}): still serving; log lines are dropped from now on, counted in ces_log_lines_dropped_total\n`,
        );
      });
      const log = createLogger(config.logFormat, output, { batched: true });
      // A long-running process: collect garbage before the heap grows to four times what is live.
      const heapGrowingPercent = limitHeapGrowth(config.heapGrowingPercent, process.execArgv);
      let server;
      try {
        server = await startServer(config, log);
      } catch (error) {
        const reason = error instanceof AppError ? cliMessage(error) : (error as Error).message;
        fail({ json: flags.json }, new AppError(500, 'cannot_start', `cannot start: ${reason}`));
        return;
      }
      log.info({
        message: `ces listening on ${server.url}`,
        url: server.url,
        db: config.dbPath,
        // Absent when V8's own factor or node's own flag is in charge.
        ...(heapGrowingPercent === null ? {} : { heap_growing_percent: heapGrowingPercent }),
      });
      let stopping = false;
      const stop = (signal: string): void => {
        if (stopping) return;
        stopping = true;
        log.info({ message: `${signal} received: finishing in-flight work`, signal });
        server.close().then(
          () => {
            log.info({ message: 'stopped' });
            process.exit(0);
          },
          (error: unknown) => {
            log.error(error);
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
    });
}
