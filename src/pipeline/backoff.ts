// Capped exponential backoff with jitter for jobs that could not finish (verifier unreachable,
// evaluation error). Attempt n waits between half and all of min(cap, base * 2^(n-1)), so many
// jobs that failed together do not all come back in the same tick.
import type { Random } from '../kernel/random.ts';

const JOB_RETRY_BASE_MS = 5_000;
export const JOB_RETRY_CAP_MS = 3_600_000;

export function jobRetryDelayMs(attempts: number, random: Random, baseMs = JOB_RETRY_BASE_MS, capMs = JOB_RETRY_CAP_MS): number {
  const exponent = Math.min(Math.max(attempts, 1) - 1, 30);
  const ceiling = Math.min(capMs, baseMs * 2 ** exponent);
  const half = Math.floor(ceiling / 2);
  return half + random.int(ceiling - half + 1);
}
