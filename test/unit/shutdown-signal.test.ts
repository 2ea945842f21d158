// Issue 31: `ces serve` printed MaxListenersExceededWarning when an endpoint answered slowly, since
// every delivery in flight listens for shutdown on one signal. The pools' controller allows it.
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { test } from 'node:test';
import { createShutdownController } from '../../src/tools/shutdown-signal.ts';

test('hundreds of calls in flight may listen on the shutdown signal without a warning; aborting reaches each', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.name);
  process.on('warning', onWarning);
  try {
    const controller = createShutdownController();
    let aborted = 0;
    for (let i = 0; i < 300; i++) controller.signal.addEventListener('abort', () => aborted++, { once: true });
    for (let i = 0; i < 50; i++) AbortSignal.any([controller.signal, AbortSignal.timeout(60_000)]);
    // A plain controller limited to 10 listeners does warn past them: the check below can see a
    // warning. The limit is set here because Node 24 sets none on an AbortSignal by default (Node 20
    // set 10), so a plain signal no longer warns there and waiting for its warning never ended.
    const plain = new AbortController();
    setMaxListeners(10, plain.signal);
    for (let i = 0; i < 11; i++) plain.signal.addEventListener('abort', () => {});
    // Node emits a warning on the next tick: by the loop's next turn every one is out.
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    assert.equal(aborted, 300);
    assert.deepEqual(warnings, ['MaxListenersExceededWarning'], 'only the plain controller warned');
  } finally {
    process.off('warning', onWarning);
  }
});
