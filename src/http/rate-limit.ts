// Per-API-key rate limit: a token bucket per key id, refilled at `ratePerSecond` up to `burst`
// tokens, read from ctx.clock (so tests advance a ManualClock instead of sleeping). Applied after
// authentication, so an unauthenticated flood cannot grow the table and one partner's burst never
// slows another's. The state is in memory: a restart refills every bucket, which errs on the side
// of serving. A rate of 0 disables the limit.
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';

export interface RateLimiter {
  /** Takes one token for `keyId`, or throws 429 `rate_limited` with Retry-After in seconds. */
  take(keyId: string): void;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export function createRateLimiter(clock: Clock, ratePerSecond: number, burst: number): RateLimiter {
  if (ratePerSecond <= 0) return { take: () => {} };
  const capacity = Math.max(1, burst);
  const buckets = new Map<string, Bucket>();
  return {
    take(keyId: string): void {
      const now = clock.now();
      let bucket = buckets.get(keyId);
      if (!bucket) {
        bucket = { tokens: capacity, updatedAt: now };
        buckets.set(keyId, bucket);
      }
      // A clock that steps backwards (ManualClock.set, NTP) refills nothing rather than draining.
      const elapsedMs = Math.max(0, now - bucket.updatedAt);
      bucket.tokens = Math.min(capacity, bucket.tokens + (elapsedMs * ratePerSecond) / 1000);
      bucket.updatedAt = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return;
      }
      // Whole seconds (RFC 9110 delay-seconds) until one token is back, never 0.
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond));
      throw new AppError(429, 'rate_limited', `Too many requests for this API key; retry after ${retryAfter} s.`, undefined, { 'retry-after': String(retryAfter) });
    },
  };
}
