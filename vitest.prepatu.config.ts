// Vitest for the tests of Prepatu's real flows (tests/prepatu-real), which read a folder outside
// the repository: run only by scripts/check-prepatu.mjs, never by npm test.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/prepatu-real/**/*.test.ts'],
    environment: 'node',
  },
});
