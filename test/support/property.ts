// The seed of a property test (fast-check). The fast tier runs every property on a fixed seed, so
// a run repeats exactly; the slow tier (test/slow/property-random-seeds.test.ts) sets
// CES_PROPERTY_SEED=random and runs the same properties on a fresh seed each time, and
// CES_PROPERTY_SEED=<n> replays seed n (fast-check prints the seed of a failing run).
export function propertySeed(fixed: number): number {
  const wanted = process.env.CES_PROPERTY_SEED;
  if (wanted === undefined || wanted === '') return fixed;
  if (wanted === 'random') return (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0;
  const seed = Number(wanted);
  if (!Number.isInteger(seed)) throw new Error(`CES_PROPERTY_SEED is "random" or an integer, not ${JSON.stringify(wanted)}`);
  return seed;
}
