// Unit tests for the diagnostics helpers (did-you-mean, the one-line format, ordering) and for
// files that are not flows at all: bad YAML and non-mapping documents give diagnostics, never throw.

import { describe, expect, it } from 'vitest';
import {
  closest,
  didYouMean,
  formatDiagnostic,
  sortDiagnostics,
  type Diagnostic,
} from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';

const STATE_KEYS = ['description', 'on_enter', 'on_exit', 'ui', 'agent', 'tools', 'confirmation_gate', 'transitions'];

describe('closest', () => {
  it('finds the candidate a typo was meant to be', () => {
    expect(closest('transitons', STATE_KEYS)).toBe('transitions');
    expect(closest('on_entre', STATE_KEYS)).toBe('on_enter');
    expect(closest('confirmation_gates', STATE_KEYS)).toBe('confirmation_gate');
  });

  it('ignores case when comparing but returns the candidate as written', () => {
    expect(closest('Ask_Name', ['ask_name', 'thanks'])).toBe('ask_name');
  });

  it('gives nothing when no candidate is close enough', () => {
    expect(closest('colour', STATE_KEYS)).toBeUndefined();
    expect(closest('thanks', ['thank_you'])).toBeUndefined();
  });

  it('gives nothing without candidates', () => {
    expect(closest('anything', [])).toBeUndefined();
  });

  it('prefers the first of equally close candidates', () => {
    expect(closest('cat', ['bat', 'hat'])).toBe('bat');
  });
});

describe('didYouMean', () => {
  it('phrases the suggestion for the end of a message', () => {
    expect(didYouMean('goodby', ['start', 'goodbye'])).toBe(' (did you mean "goodbye"?)');
  });

  it('is empty when there is nothing to suggest', () => {
    expect(didYouMean('colour', STATE_KEYS)).toBe('');
  });
});

const at = (line: number, col: number, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({
  file: 'flows/demo.yaml',
  line,
  col,
  severity,
  code: severity === 'error' ? 'unknown-key' : 'unreachable-state',
  message: `at ${line}:${col}`,
});

describe('formatDiagnostic', () => {
  it('writes FILE:LINE:COL: SEVERITY: MESSAGE [code]', () => {
    const d: Diagnostic = {
      file: 'flows/demo.yaml',
      line: 9,
      col: 5,
      severity: 'error',
      code: 'unknown-key',
      message: 'unknown key "transitons" (did you mean "transitions"?)',
    };
    expect(formatDiagnostic(d)).toBe(
      'flows/demo.yaml:9:5: error: unknown key "transitons" (did you mean "transitions"?) [unknown-key]',
    );
    expect(formatDiagnostic({ ...d, severity: 'warning', code: 'unreachable-state', message: 'm' })).toBe(
      'flows/demo.yaml:9:5: warning: m [unreachable-state]',
    );
  });
});

describe('sortDiagnostics', () => {
  it('orders by line, then column, with errors before warnings at the same place', () => {
    const sorted = sortDiagnostics([at(4, 2), at(2, 9, 'warning'), at(2, 9), at(2, 3)]);
    expect(sorted.map((d) => `${d.line}:${d.col}:${d.severity}`)).toEqual([
      '2:3:error',
      '2:9:error',
      '2:9:warning',
      '4:2:error',
    ]);
  });
});

describe('files that are not flows', () => {
  const load = (text: string) => loadFlow(text, 'bad.yaml');

  it.each([
    ['an unclosed list', 'id: [a, b\n', 2, 1],
    ['an unclosed quote', 'id: "demo\n', 2, 1],
    ['a nested compact mapping', 'id: demo\nstates: a: b\n', 2, 9],
  ])('reports %s as a YAML syntax error', (_, text, line, col) => {
    const result = load(text);
    expect(result.loaded).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ file: 'bad.yaml', line, col, severity: 'error', code: 'yaml-syntax' });
    expect(result.diagnostics[0]!.message).not.toMatch(/\n|at line/);
  });

  it('reports a second YAML document in words a flow author can act on', () => {
    const result = load('id: a\nstates: {}\n---\nid: b\n');
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'bad.yaml:3:1: error: a flow file holds one YAML document: remove this "---" and what follows, or split the file [yaml-syntax]',
    ]);
  });

  it('reports an alias bomb instead of expanding it', () => {
    const ten = (ref: string) => `[${Array(10).fill(ref).join(', ')}]`;
    const text = `a: &a ${ten('x')}\nb: &b ${ten('*a')}\nc: &c ${ten('*b')}\nd: ${ten('*c')}\n`;
    const result = load(text);
    expect(result.loaded).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toEqual(['yaml-syntax']);
  });

  it('reports every YAML syntax error of the file, not only the first', () => {
    const result = load('id: demo\nstates:\n  a: b: c\n  d: e: f\n');
    expect(result.diagnostics.map((d) => [d.line, d.code])).toEqual([
      [3, 'yaml-syntax'],
      [4, 'yaml-syntax'],
    ]);
  });

  it.each([
    ['an empty file', '', 1, 1],
    ['a comment only', '# nothing here\n', 1, 1],
    ['a bare word', 'hello\n', 1, 1],
    ['null', 'null\n', 1, 1],
    ['a list', '# flows\n- id: demo\n', 2, 1],
  ])('reports %s as not a flow', (_, text, line, col) => {
    const result = load(text);
    expect(result.loaded).toBeUndefined();
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `bad.yaml:${line}:${col}: error: a flow file must be a mapping with at least "id" and "states" [not-a-flow]`,
    ]);
  });
});
