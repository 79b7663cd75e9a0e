// Golden tests for flow-file diagnostics: every bad flow in tests/fixtures/diagnostics/ is loaded
// (they end in .yml so that `vfdl test tests/**/*.yaml` never takes them for conversation tests)
// and its formatted diagnostics are compared, line for line, with the .expected file beside it.
//
// To (re)write the .expected files instead of comparing, run
//   UPDATE_GOLDEN=1 npx vitest run tests/unit/diagnostics.golden.test.ts
// then read every changed file: check that each line and column points at the offending value,
// list item or key, and that the message is right, before the file is committed.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, formatDiagnostic, type DiagnosticCode } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';

const DIR = 'tests/fixtures/diagnostics';
const dir = new URL('../fixtures/diagnostics/', import.meta.url);
const update = process.env['UPDATE_GOLDEN'] === '1';
const codes = Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[];

const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.yml'))
  .map((f) => f.slice(0, -'.yml'.length))
  .sort();

/** The code a fixture is about: the longest code its name starts with (none for mixed cases). */
function codeOf(name: string): DiagnosticCode | undefined {
  return codes
    .filter((c) => name === c || name.startsWith(`${c}-`))
    .sort((a, b) => b.length - a.length)[0];
}

function diagnose(name: string) {
  const text = readFileSync(new URL(`${name}.yml`, dir), 'utf8');
  return loadFlow(text, `${DIR}/${name}.yml`);
}

describe('diagnostics golden files', () => {
  it('has a fixture named after every diagnostic code', () => {
    const missing = codes.filter((c) => !fixtures.includes(c));
    expect(missing).toEqual([]);
  });

  it.each(fixtures)('%s', (name) => {
    const result = diagnose(name);
    const lines = result.diagnostics.map(formatDiagnostic);
    const expectedFile = new URL(`${name}.expected`, dir);
    if (update) writeFileSync(expectedFile, lines.map((l) => `${l}\n`).join(''));
    const expected = readFileSync(expectedFile, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines).toEqual(expected);

    expect(lines.length).toBeGreaterThan(0);
    const code = codeOf(name);
    if (code) expect(result.diagnostics.map((d) => d.code)).toContain(code);
    const hasError = result.diagnostics.some((d) => d.severity === 'error');
    expect(result.loaded === undefined).toBe(hasError);
  });
});
