// Token buckets, refilled at `ratePerSecond` up to `burst` tokens, read from ctx.clock (so tests
// advance a ManualClock instead of sleeping). Two uses (src/http/app.ts):
// - per API key, after authentication, so one partner's burst never slows another's;
// - per client address, for failed authentications only (`auth_rate_limited`), so that guessing
//   keys or a partner's misconfigured retry loop gets 429 after a few tries; a valid key is never
//   refused because its neighbours behind the same address (a shop's NAT, a proxy) failed.
// The state is in memory: a restart refills every bucket, which errs on the side of serving. At
// most MAX_BUCKETS buckets are kept, least recently used dropped first, so requests from many
// addresses cannot grow the table. A rate of 0 disables a limiter.
import type { Clock } from '../kernel/clock.ts';
import { AppError } from '../kernel/errors.ts';

interface RateLimiter {
  /** Takes one token for `key`, or throws 429 (`rate_limited`, or the limiter's code) with Retry-After in seconds. */
  take(key: string): void;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const MAX_BUCKETS = 10_000;

/** `what` names the limited thing in the 429's message ("this API key", "this address"); `code` is the 429's problem code. */
export function createRateLimiter(
  clock: Clock,
  ratePerSecond: number,
  burst: number,
  what = 'this API key',
  code = 'rate_limited',
): RateLimiter {
  if (ratePerSecond <= 0) return { take: () => {} };
  const capacity = Math.max(1, burst);
  const buckets = new Map<string, Bucket>();
  const refilled = (key: string): Bucket => {
    const now = clock.now();
    let bucket = buckets.get(key);
    if (bucket)
      buckets.delete(key); // set again below: the map's order is least recently used first
    else bucket = { tokens: capacity, updatedAt: now };
    buckets.set(key, bucket);
    if (buckets.size > MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
    // A clock that steps backwards (ManualClock.set, NTP) refills nothing rather than draining.
    const elapsedMs = Math.max(0, now - bucket.updatedAt);
    bucket.tokens = Math.min(capacity, bucket.tokens + (elapsedMs * ratePerSecond) / 1000);
    bucket.updatedAt = now;
    return bucket;
  };
  const refuse = (bucket: Bucket): never => {
    // Whole seconds (RFC 9110 delay-seconds) until one token is back, never 0.
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond));
    throw new AppError(429, code, `Too many requests for ${what}; retry after ${retryAfter} s.`, undefined, {
      'retry-after': String(retryAfter),
    });
  };
  return {
    take(key) {
      const bucket = refilled(key);
      if (bucket.tokens < 1) refuse(bucket);
      bucket.tokens -= 1;
    },
  };
}
