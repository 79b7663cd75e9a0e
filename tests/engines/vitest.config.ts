import { defineConfig } from 'vitest/config';

/**
 * The engine lanes (`npm run test:webkit`, `npm run test:firefox`): the kiosk in Safari's engine
 * and in Firefox, one browser per lane and its tests one after another (tests/engines/lane.ts).
 * A test's ceiling is a guard against a hang: each waits on what the kiosk signals.
 */
export default defineConfig({
  test: {
    include: ['tests/engines/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
