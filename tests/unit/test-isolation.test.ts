// Unit and security test files share a module registry per worker (vitest.config.ts), except
// those listed as ISOLATED. A file that mocks a module, stubs a global or fakes timers changes what
// the next file in its worker would see, so it must be on that list: this test finds them.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../vitest.config.ts';

const CHANGES_OTHERS = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|\bglobalThis\.\w+\s*=[^=]/;

describe('unit test isolation', () => {
  it('every test file that mocks modules, stubs globals or fakes timers runs isolated', () => {
    const changing = ['unit', 'security'].flatMap((folder) => {
      const dir = new URL(`../${folder}/`, import.meta.url);
      return readdirSync(dir)
        .filter((f) => f.endsWith('.test.ts') && f !== 'test-isolation.test.ts')
        .filter((f) => CHANGES_OTHERS.test(readFileSync(new URL(f, dir), 'utf8')))
        .map((f) => `tests/${folder}/${f}`);
    });
    expect(changing.length).toBeGreaterThan(0);
    expect(changing.filter((f) => !ISOLATED.includes(f))).toEqual([]);
  });
});
