// How far V8 lets the server's heap grow before it collects. After each full collection V8 sets the
// next one at what is live times a factor that it raises to 4 when collections are cheap next to
// the program's work, as they are for ces: some 13 MB is live under a saturating intake, so the
// old generation filled with 40-50 MB of garbage before each collection, the largest share of the
// server's peak resident memory (docs/architecture.md#memory). `ces serve` sets the factor to 1.5:
// under that load a full collection then comes about once a second instead of every 3 s, pausing
// the event loop some 5 ms (the marking runs mostly on V8's helper threads).
//
// The flag is set after V8 has started (node:v8 setFlagsFromString), which Node documents as
// possibly doing nothing: V8 reads this one each time it sets the next limit, and the test
// test/heap-growth.test.ts fails if a Node upgrade stops honouring it. An operator who starts
// node with the flag themselves (`node --heap-growing-percent=… dist/ces.mjs serve`; Node refuses
// it in NODE_OPTIONS) keeps theirs.
import { setFlagsFromString } from 'node:v8';

/** The old generation may grow to 1.5 times what the last full collection found live. */
export const HEAP_GROWING_PERCENT = 50;

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/** Whether node was started with its own --heap-growing-percent (`process.execArgv`). */
export function operatorSetHeapGrowth(execArgv: readonly string[]): boolean {
  return execArgv.some((flag) => FLAG.test(flag));
}

/** Sets HEAP_GROWING_PERCENT unless the operator set their own; returns the percent set, or null. */
export function limitHeapGrowth(execArgv: readonly string[]): number | null {
  if (operatorSetHeapGrowth(execArgv)) return null;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return HEAP_GROWING_PERCENT;
}
