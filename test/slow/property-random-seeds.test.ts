// The fast tier's property tests again, each on a fresh random seed instead of its fixed one
// (test/support/property.ts): over many CI runs they explore cases the fixed seeds never reach.
// fast-check prints the seed of a failing run; CES_PROPERTY_SEED=<that seed> replays it in the
// file that failed. The example tests of these files run again too; they are in-process and quick.
process.env.CES_PROPERTY_SEED ??= 'random';

await import('../awards-property.test.ts');
await import('../draws-property.test.ts');
await import('../intake-validation.test.ts');
await import('../unit/documents.test.ts');
await import('../unit/fiscal-key.test.ts');
await import('../unit/signing.test.ts');
await import('../unit/submission.test.ts');
await import('../unit/timestamps.test.ts');
await import('../../clients/typescript/test/test-data.test.ts');
