// The only source of randomness. Production uses node:crypto; tests may pass a seeded source so
// that lucky-number draws and ids are reproducible.
import { randomFillSync, randomInt, randomUUID } from 'node:crypto';

export interface Random {
  uuid(): string;
  bytes(n: number): Buffer;
  /** Uniform integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
}

// Small draws come from a pool refilled 4 KiB at a time (as randomUUID does): one getrandom call
// per few hundred draws instead of one per draw, which costs more than the draw on a busy VM.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function pooledBytes(n: number): Buffer {
  if (n > 256) return randomFillSync(Buffer.alloc(n));
  if (poolOffset + n > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  // A copy, and each byte of the pool is handed out once.
  const out = Buffer.from(pool.subarray(poolOffset, poolOffset + n));
  poolOffset += n;
  return out;
}

export const cryptoRandom: Random = {
  uuid: () => randomUUID(),
  bytes: (n) => pooledBytes(n),
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
    uuid: () => formatUuidV4(bytes(16)),
  };
}

/** Sets the version-4 and variant bits of 16 random bytes and formats them as a UUID. */
function formatUuidV4(b: Buffer): string {
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The random values of one unit of work, expanded from a 16-byte seed drawn from the service's
 * Random (xoshiro128**, seeded through splitmix32). The same seed gives the same values, so work
 * that is run again (a group-commit batch rolled back and re-run) draws exactly what it would
 * have drawn, and a seeded test source still decides everything. Every unit of work gets a fresh seed from node:crypto, so values of different
 * units are unrelated; values within one unit are not independent secrets. Use it for ids, never
 * for keys or tokens.
 */
export function streamRandom(seed: Uint8Array): Random {
  if (seed.byteLength !== 16) throw new RangeError('streamRandom needs a 16-byte seed');
  const view = new DataView(seed.buffer, seed.byteOffset, 16);
  // splitmix32 spreads the seed words so that a seed of zeros still gives a live state.
  let mix = 0;
  const splitmix = (word: number): number => {
    mix = (mix + 0x9e3779b9 + word) >>> 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix(view.getUint32(0));
  let b = splitmix(view.getUint32(4));
  let c = splitmix(view.getUint32(8));
  let d = splitmix(view.getUint32(12));
  const next32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
    const t = (b << 9) >>> 0;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d >>> 0, 11);
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    return result;
  };
  const bytes = (n: number): Buffer => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i += 4) {
      const word = next32();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (word >>> (8 * j)) & 0xff;
    }
    return out;
  };
  return {
    bytes,
    uuid: () => formatUuidV4(bytes(16)),
    int: (maxExclusive) => {
      if (!Number.isSafeInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > 2 ** 48)
        throw new RangeError(`int() range must be 1..2^48, got ${maxExclusive}`);
      // Rejection sampling over 48 bits: uniform, no modulo bias.
      const limit = 2 ** 48 - (2 ** 48 % maxExclusive);
      for (;;) {
        const value = (next32() & 0xffff) * 2 ** 32 + next32();
        if (value < limit) return value % maxExclusive;
      }
    },
  };
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

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
