// Waiting on a condition a test cannot be told about (a child process's output, a file's size):
// polled, with a deadline that fails the test with what was seen.

/**
 * Polls `probe` every `everyMs` until it gives something other than undefined or false (a value
 * found, or a condition that holds), and resolves with it; rejects after `ms` with what `context`
 * says.
 */
export async function waitFor<T>(probe: () => T | undefined | false, ms: number, context: () => string, everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${ms} ms:\n${context()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
