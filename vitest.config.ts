import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { checkedFlows } from './scripts/checked-flows.ts';

/**
 * Test files that change what other files would see (module mocks, stubbed globals, fake timers):
 * each runs in a module registry of its own. The rest share one per worker thread, which halves
 * the unit tests' time on two cores (about 55 s instead of 105 s): most of it was importing the
 * same modules again for every file.
 */
export const ISOLATED = [
  'tests/unit/browser-speech-recognition.test.ts',
  'tests/unit/browser-speech-synthesis.test.ts',
  'tests/unit/clip-end-watch.test.ts',
  'tests/unit/engine-faults.property.test.ts',
  'tests/unit/limits.test.ts',
  'tests/unit/visit-store.test.ts',
];

export default defineConfig({
  // The bundled flows come to src/adapters/flow-files.ts read and checked, as in the build.
  plugins: [checkedFlows()],
  test: {
    environment: 'node',
    // A guard against a hang, never a measure of speed: under npm test the unit tests run at the
    // lowest priority beside the voice tests and at a low one beside three browsers, and a
    // property test that takes 3 s alone has taken 54. No test sets a shorter one.
    testTimeout: 180_000,
    // The first test file of a machine to need the kiosk's memory makes PGlite's empty database
    // (tests/support/test-memory.ts), which a busy machine can stretch past a minute.
    hookTimeout: 180_000,
    pool: 'threads',
    // One test file per core. Vitest's own default leaves a core free (one thread on a two-core
    // machine), which left half of it idle: the unit tests take about 2 minutes alone instead of 3.
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: 'shared', include: ['tests/unit/**/*.test.ts', 'tests/security/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
      // The kiosk's memory in a real database: PGlite in a fresh folder per file, or the PostgreSQL
      // server at TEST_DATABASE_URL (`npm run test:postgres` starts one). They mock nothing.
      { extends: true, test: { name: 'storage', include: ['tests/storage/**/*.test.ts'], isolate: false } },
    ],
  },
});
