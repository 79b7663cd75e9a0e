// How many random cases the randomized tests try (the engine's property tests, the schema's
// mutations). `npm test` tries a share of them on every flow, enough to meet each kind of input
// there; DEEP_TESTS=1 tries them all, as CI does after `npm test` (`npm run test:deep`). The
// property tests draw new cases on every run (fast-check prints the seed of a failure, to replay).

/** Whether this run tries every case (DEEP_TESTS=1). */
export const DEEP = process.env['DEEP_TESTS'] === '1';

/** `deep` cases in a deep run, `share` otherwise. */
export function cases(deep: number, share: number): number {
  return DEEP ? deep : share;
}

/**
 * The ceiling of a randomized test that walks a whole flow: a guard against a hang, never a
 * measure of speed. Such a test is CPU work that `npm test` runs at the lowest priority beside the
 * browser tests, and a second test run on the machine can stretch two minutes alone to many; a
 * deep run tries every case.
 */
export const WALK_CEILING_MS = DEEP ? 30 * 60_000 : 10 * 60_000;
