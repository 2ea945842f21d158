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
