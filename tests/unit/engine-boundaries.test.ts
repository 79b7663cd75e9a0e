// The engine's boundary: it imports only xstate, yaml and the ports' types, and performs nothing
// itself (no timers, no network, no DOM, no reading of the real clock). This test holds the line.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../src/engine/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
const source = (f: string) => readFileSync(new URL(f, dir), 'utf8');

describe('src/engine', () => {
  it.each(files)('%s imports only xstate, yaml, engine modules and port types', (f) => {
    const imports = [...source(f).matchAll(/^import\s+(type\s+)?[^'"]*from\s+'([^']+)'/gm)].map((m) => ({ typeOnly: !!m[1], from: m[2]! }));
    for (const { typeOnly, from } of imports) {
      const allowed = from === 'xstate' || from === 'yaml' || from.startsWith('./') || (typeOnly && from.startsWith('../ports/'));
      expect(allowed, `${f} imports ${typeOnly ? 'type ' : ''}${from}`).toBe(true);
    }
  });

  it.each(files)('%s performs nothing: no timers, network, DOM or real clock', (f) => {
    const code = source(f).replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const forbidden of [/\bsetTimeout\b/, /\bsetInterval\b/, /\bfetch\(/, /\bDate\.now\b/, /\bnew Date\(\)/, /\bdocument\./, /\bwindow\./, /\bprocess\./, /\bperformance\./]) {
      expect(forbidden.test(code), `${f} uses ${forbidden}`).toBe(false);
    }
  });
});
