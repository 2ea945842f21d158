// The only source of randomness. Production uses node:crypto; tests may pass a seeded source so
// that lucky-number draws and ids are reproducible.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';

export interface Random {
  uuid(): string;
  bytes(n: number): Buffer;
  /** Uniform integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
}

export const cryptoRandom: Random = {
  uuid: () => randomUUID(),
  bytes: (n) => randomBytes(n),
  // randomInt refuses ranges above 2^48; pair spaces are far below that.
  int: (maxExclusive) => randomInt(maxExclusive),
};

/** Deterministic source (mulberry32) for tests and benchmarks; never for secrets in production. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const bytes = (n: number): Buffer => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
    return out;
  };
  return {
    bytes,
    int: (maxExclusive) => Math.floor(next() * maxExclusive),
    uuid: () => {
      const b = bytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
  };
}

/**
 * A UUIDv7 (RFC 9562): the Unix time in milliseconds in the first 48 bits, then version, variant
 * and 74 random bits from `random`. Rows written one after another get ids that sort together, so
 * their primary-key and foreign-key index entries land on the right edge of the B-tree instead of
 * on a random page of it: with a million entries stored, random v4 ids made every insert read and
 * rewrite a different page of each such index.
 */
export function uuidv7(random: Random, nowMs: number): string {
  // A v4 UUID already has the variant and 122 random bits (and node:crypto hands them out from a
  // cached pool, several times cheaper than randomBytes per id): the time replaces its first 48
  // bits and the version nibble becomes 7, leaving 74 random bits.
  const v4 = random.uuid();
  const time = Math.max(0, Math.floor(nowMs)).toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${v4.slice(15)}`;
}
