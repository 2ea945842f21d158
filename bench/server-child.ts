// The ces server as the benchmark runs it: the same composition root as `ces serve` (loadConfig,
// createLogger, startServer) in its own process, plus one switch `ces serve` does not expose:
// BENCH_GROUP_COMMIT=0 selects the one-transaction-per-request committer, for the comparison row.
// Usage: node --import tsx bench/server-child.ts --db PATH [--tick-ms N]
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startServer } from '../src/server.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, 'tick-ms': { type: 'string' } } });
const config = loadConfig({ db: values.db, port: 0, host: '127.0.0.1', tickMs: values['tick-ms'], logFormat: 'json' });
const log = createLogger('json', process.stderr, { batched: true });
const server = await startServer(config, log, { groupCommit: process.env.BENCH_GROUP_COMMIT !== '0' });
process.stdout.write(`listening on ${server.url}\n`);

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench server: close failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
