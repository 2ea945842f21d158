// The ces server as the benchmark runs it: the same composition root as `ces serve` (loadConfig,
// createLogger, limitHeapGrowth, startServer) in its own process, plus one switch `ces serve` does not expose:
// BENCH_GROUP_COMMIT=0 selects the one-transaction-per-request committer, for the comparison row.
// BENCH_WRITE=none is an experiment, never a mode of ces: POST /v1/entries does everything but its
// write (no transaction, no row) and answers in the next event-loop turn, as a group commit would. It
// measures what intake costs without storage, so that the storage's share is a figure of the run.
// With an IPC channel (the draws phase), a message {type: 'freeze-draw', drawId} runs freezeDraw in
// this process's event loop, as the dashboard's freeze action does, and is answered
// {type: 'draw-frozen', seconds, draw} or {type: 'draw-frozen', error}.
// Usage: node --import tsx bench/server-child.ts --db PATH [--tick-ms N]
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/kernel/config.ts';
import { freezeDraw } from '../src/draws/lifecycle.ts';
import type { EntryWriter } from '../src/intake/entry-writer.ts';
import { limitHeapGrowth } from '../src/tools/heap-growth.ts';
import { createLogger } from '../src/kernel/log.ts';
import { startServer } from '../src/http/server.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, 'tick-ms': { type: 'string' } } });
const config = loadConfig({ db: values.db, port: 0, host: '127.0.0.1', tickMs: values['tick-ms'], logFormat: 'json' });
const log = createLogger('json', process.stderr, { batched: true });
limitHeapGrowth(config.heapGrowingPercent, process.execArgv);
const server = await startServer(config, log, { groupCommit: process.env.BENCH_GROUP_COMMIT !== '0' });
if (process.env.BENCH_WRITE === 'none') server.service.writer = storageFreeWriter(server.service.writer);
process.stdout.write(`listening on ${server.url}\n`);

process.on('message', (message: { type?: string; drawId?: string }) => {
  if (message.type !== 'freeze-draw' || !message.drawId) return;
  const started = performance.now();
  freezeDraw(server.service.ctx, message.drawId, { kind: 'dashboard', name: 'bench' }).then(
    (draw) => process.send!({ type: 'draw-frozen', seconds: (performance.now() - started) / 1000, draw }),
    (error: unknown) => process.send!({ type: 'draw-frozen', error: String(error) }),
  );
});

// BENCH_LOOP_DELAY=FILE: the event loop's delay percentiles, appended to FILE when the server stops.
const loopDelay = process.env.BENCH_LOOP_DELAY ? monitorEventLoopDelay({ resolution: 5 }) : null;
loopDelay?.enable();

// BENCH_MEMORY=FILE: where the resident set goes, sampled every 100 ms; the sample with the largest
// RSS (V8's heap by space, external memory, the rest native) is appended to FILE when the server stops.
let memoryPeak: Record<string, number> | null = null;
const memorySampler = process.env.BENCH_MEMORY
  ? setInterval(() => {
      const m = process.memoryUsage();
      if (memoryPeak && m.rss <= memoryPeak.rss * 1024 * 1024) return;
      const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;
      const sample: Record<string, number> = {
        rss: mb(m.rss),
        heapTotal: mb(m.heapTotal),
        heapUsed: mb(m.heapUsed),
        external: mb(m.external),
      };
      for (const space of getHeapSpaceStatistics()) sample[space.space_name] = mb(space.physical_space_size);
      sample.outsideHeap = Math.round((sample.rss - sample.heapTotal) * 10) / 10;
      memoryPeak = sample;
    }, 100).unref()
  : null;

/** Answers every write in the next turn with an id that is never stored; closes the real writer. */
function storageFreeWriter(real: EntryWriter): EntryWriter {
  let n = 0;
  return {
    write: (request) =>
      new Promise((resolve) => {
        setImmediate(() => resolve({ entry_id: `not-stored-${request.seed}-${n++}`, status: 'PENDING', replay: false }));
      }),
    drain: () => Promise.resolve(),
    close: () => real.close(),
  };
}

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  if (memorySampler) {
    clearInterval(memorySampler);
    // Under --expose-gc, also what stays live: the heap after a full collection.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const live = gc ? { liveHeapAfterGc: Math.round(process.memoryUsage().heapUsed / 104_857.6) / 10 } : {};
    appendFileSync(process.env.BENCH_MEMORY!, `${JSON.stringify({ pid: process.pid, ...memoryPeak, ...live })}\n`);
  }
  if (loopDelay) {
    loopDelay.disable();
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    appendFileSync(
      process.env.BENCH_LOOP_DELAY!,
      `${JSON.stringify({ pid: process.pid, p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max), mean: ms(loopDelay.mean) })}\n`,
    );
  }
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench server: close failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
