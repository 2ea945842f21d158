// How far V8 lets the server's heap grow before it collects. After each full collection V8 sets the
// next one at what is live times a factor (with a minimum step) that it raises up to 4 when
// collections are cheap next to the program's work, as they are for ces: little of the heap is
// live under intake, so the old generation filled mostly with garbage, the largest share of the
// server's peak resident memory (docs/architecture.md#memory). `ces serve` replaces that factor
// with 1 + CES_HEAP_GROWING_PERCENT / 100 (default 100, so 2); 0 leaves V8's own. The setting trades
// peak memory against how often full collections run, and so against intake's p99 while a backlog
// drains: see BENCHMARKS.md, section The configuration that produced them, its
// CES_HEAP_GROWING_PERCENT row. The flag replaces V8's factor in every mode, including the one of
// its memory reducer when the process is idle: an idle ces may hold a little more than otherwise.
//
// The flag is set after V8 has started (node:v8 setFlagsFromString), which Node documents as
// possibly doing nothing: V8 reads this one each time it sets the next limit, and
// test/slow/heap-growth.test.ts fails if a Node upgrade stops honouring it. Node refuses the flag in
// NODE_OPTIONS; an operator who starts node with it (`node --heap-growing-percent=… dist/ces.mjs
// serve`) keeps theirs, whatever CES_HEAP_GROWING_PERCENT says.
import { setFlagsFromString } from 'node:v8';

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/** Whether node was started with its own --heap-growing-percent (`process.execArgv`). */
export function hasOwnHeapGrowthFlag(execArgv: readonly string[]): boolean {
  return execArgv.some((flag) => FLAG.test(flag));
}

/**
 * Sets V8's heap growing percent to `percent` unless it is 0 or node was started with its own;
 * returns the percent set, or null when V8's factor or node's flag stays in charge.
 */
export function limitHeapGrowth(percent: number, execArgv: readonly string[]): number | null {
  if (percent === 0 || hasOwnHeapGrowthFlag(execArgv)) return null;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
