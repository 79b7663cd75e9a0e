import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    // A guard against a hang, not a measure of speed: under npm test the unit tests share two
    // cores with three browsers, and a test that takes 1 s alone can take 6.
    testTimeout: 60_000,
  },
});
