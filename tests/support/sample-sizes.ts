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
