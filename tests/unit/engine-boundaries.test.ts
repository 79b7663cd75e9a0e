// The engine's boundary: it performs nothing itself (no timers, no network, no DOM, no reading of
// the real clock). What it may import (only itself, xstate, yaml and the ports' types) is held by
// the rules engine-is-pure and engine-takes-port-types-only of .dependency-cruiser.cjs
// (`npm run check:imports`). This test holds the rest of the line.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../src/engine/', import.meta.url);
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const source = (f: string) => readFileSync(new URL(f, dir), 'utf8');

describe('src/engine', () => {
  it('is read whole: the language and the runtime', () => {
    expect(files.filter((f) => f.startsWith('language/')).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith('runtime/')).length).toBeGreaterThan(0);
  });

  it.each(files)('%s performs nothing: no timers, network, DOM or real clock', (f) => {
    const code = source(f).replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const forbidden of [/\bsetTimeout\b/, /\bsetInterval\b/, /\bfetch\(/, /\bDate\.now\b/, /\bnew Date\(\)/, /\bdocument\./, /\bwindow\./, /\bprocess\./, /\bperformance\./]) {
      expect(forbidden.test(code), `${f} uses ${forbidden}`).toBe(false);
    }
  });
});
