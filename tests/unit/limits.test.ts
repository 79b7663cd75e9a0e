// The documented limits (docs/vfdl.md, "Limits"; src/engine/language/limits.ts): nesting deeper than 64
// levels and files over 256 KiB are diagnostics that name the limit, wherever they occur and
// however they are made (YAML aliases included); waits longer than a timer can hold are refused
// in a flow and held to the maximum by the runtime's timers and the kiosk's settings.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { flowJsonSchema } from '../../src/engine/language/json-schema.ts';
import { MAX_DEPTH, MAX_FLOW_CHARS, MAX_SECONDS, MAX_TIMER_MS, tooDeep } from '../../src/engine/language/limits.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { browserTimers, timerDelay } from '../../src/ports/timers.ts';
import { settingsFrom } from '../../src/ui/kiosk-settings.ts';
import { only, startFlow } from '../support/engine-harness.ts';

/** A card whose `params.x` is a list nested `lists` deep (the document itself is level 1, x's list level 6). */
function nestedParams(lists: number): string {
  return `id: deep\nstates:\n  a:\n    ui:\n      artifact_type: card\n      params: { x: ${'['.repeat(lists)}${']'.repeat(lists)} }\n`;
}
const DEPTH_OF_PARAMS_X = 5; // document, states, a, ui, params

function problems(yaml: string): string[] {
  return loadFlow(yaml, 'limits.yaml').diagnostics.map(formatDiagnostic);
}

describe('nesting', () => {
  it(`allows ${MAX_DEPTH} levels and refuses the next, at the node that goes past the limit`, () => {
    expect(problems(nestedParams(MAX_DEPTH - DEPTH_OF_PARAMS_X))).toEqual([]);
    const over = nestedParams(MAX_DEPTH - DEPTH_OF_PARAMS_X + 1);
    const col = over.split('\n')[5]!.lastIndexOf('[') + 1;
    expect(problems(over)).toEqual([
      `limits.yaml:6:${col}: error: this is nested more than 64 levels deep; a flow file may nest mappings and lists 64 levels at most [too-deep]`,
    ]);
  });

  it.each([100, 1_000, 20_000])('%i levels: one too-deep diagnostic, never "Maximum call stack size exceeded"', (n) => {
    const found = loadFlow(nestedParams(n), 'limits.yaml').diagnostics;
    expect(found.map((d) => d.code)).toContain('too-deep');
    expect(found.every((d) => d.code === 'too-deep')).toBe(true);
    expect(JSON.stringify(found)).not.toMatch(/call stack/i);
  });

  it('counts nested guards, a walk that would otherwise recurse', () => {
    const guard = (depth: number): string => (depth === 0 ? '{ variable: x, operator: empty }' : `{ all: [ ${guard(depth - 1)} ] }`);
    const flow = (depth: number) => `id: g\nvariables: { x: {} }\nstates:\n  a:\n    transitions:\n      on_ui_event:\n        go: { target: __end__, guard: ${guard(depth)} }\n`;
    expect(loadFlow(flow(25), 'g.yaml').diagnostics.map((d) => d.code)).not.toContain('too-deep');
    expect(loadFlow(flow(40), 'g.yaml').diagnostics.map((d) => d.code)).toEqual(['too-deep']);
  });

  it('follows YAML aliases: a cycle is too deep, at the alias that makes it', () => {
    const cycle = 'id: c\nvariables: { x: {} }\nstates:\n  a:\n    transitions:\n      on_ui_event:\n        go: { target: __end__, guard: &g { all: [ *g ] } }\n';
    const alias = cycle.split('\n')[6]!.indexOf('*g') + 1;
    expect(problems(cycle)).toEqual([
      `limits.yaml:7:${alias}: error: this is nested more than 64 levels deep; a flow file may nest mappings and lists 64 levels at most [too-deep]`,
    ]);
    const body = 'id: b\ntools:\n  t:\n    description: x\n    http: { url: "https://example.com", body: &b { again: [ *b ] } }\nstates:\n  a:\n    agent: { tools: [t] }\n    transitions: { on_tool_call: { t: __end__ } }\n';
    expect(loadFlow(body, 'b.yaml').diagnostics.map((d) => d.code)).toEqual(['too-deep']);
  });

  it('tooDeep walks without recursion and names the path to the first node too deep', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(tooDeep(deep)).toHaveLength(MAX_DEPTH);
    expect(tooDeep({ a: [{ b: 1 }] }, 3)).toBeUndefined();
    expect(tooDeep({ a: [{ b: {} }] }, 3)).toEqual(['a', 0, 'b']);
  });

  it("refuses a model's object argument nested deeper than the limit, as invalid_arguments", () => {
    const h = startFlow(`
id: obj
tools:
  save:
    description: Save the details.
    parameters: { details: { type: object } }
states:
  a:
    agent: { prompt: Ask., tools: [save] }
    transitions: { on_ui_event: { done: __end__ } }
`);
    let deep: unknown = {};
    for (let i = 0; i < 5_000; i++) deep = { inner: deep };
    const refused = only(h.call('save', { details: deep }), 'tool_rejected');
    expect(refused).toMatchObject({ reason: 'invalid_arguments', field: 'details' });
    expect(refused.detail).toContain(`nested more than ${MAX_DEPTH} levels deep`);
    expect(only(h.call('save', { details: { a: { b: 1 } } }), 'flow_variable').value).toEqual({ a: { b: 1 } });
  });
});

describe('file size', () => {
  it(`reads a file of ${MAX_FLOW_CHARS} characters and refuses a larger one without parsing it`, () => {
    const flow = 'id: big\nstates:\n  a: {}\n';
    const padded = (size: number) => flow + '#'.repeat(size - flow.length - 1) + '\n';
    expect(problems(padded(MAX_FLOW_CHARS))).toEqual([]);
    expect(problems(padded(MAX_FLOW_CHARS + 1))).toEqual([
      `limits.yaml:1:1: error: the file has ${MAX_FLOW_CHARS + 1} characters; a flow file may have at most ${MAX_FLOW_CHARS} (256 KiB) [too-large]`,
    ]);
  });

  it('answers a 5 MB mapping at once', () => {
    const lines = ['id: big', 'states:', '  a: {}', 'variables:'];
    for (let i = 0; lines.length < 220_000; i++) lines.push(`  v${i}: { type: string }`);
    const text = lines.join('\n');
    expect(text.length).toBeGreaterThan(5_000_000);
    // Refused by its length before it is parsed (parsing it takes seconds).
    const started = Date.now();
    expect(loadFlow(text, 'big.yaml').diagnostics.map((d) => d.code)).toEqual(['too-large']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('waits', () => {
  const TOO_LONG = MAX_SECONDS + 1;
  const flow = (seconds: number) => `
id: waits
settings: { max_duration_secs: ${seconds} }
tools:
  book:
    description: Book it.
    confirm: true
    expires_after: ${seconds}
states:
  a:
    ui: { artifact_type: form, fields: [ { id: name } ] }
    agent: { prompt: Ask., tools: [book] }
    confirmation_gate: { variables: [name], on_confirm: __end__, expires_after: ${seconds} }
    transitions:
      on_timeout: { seconds: ${seconds}, target: __end__ }
`;

  it(`allows ${MAX_SECONDS} seconds (about 24.8 days) wherever a flow gives a wait`, () => {
    expect(problems(flow(MAX_SECONDS))).toEqual([]);
  });

  it('refuses a longer one in each place, at the number, saying why', () => {
    const text = flow(TOO_LONG);
    const at = text.split('\n').flatMap((line, i) => (line.includes(String(TOO_LONG)) ? [`${i + 1}:${line.indexOf(String(TOO_LONG)) + 1}`] : []));
    expect(at).toHaveLength(4);
    const why = `${TOO_LONG} is above the maximum of ${MAX_SECONDS} (about 24.8 days, the longest a timer can wait) [bad-value]`;
    expect(problems(text)).toEqual(at.map((pos) => `limits.yaml:${pos}: error: ${why}`));
  });

  it('gives the maximum to an editor through the JSON Schema', () => {
    const defs = (flowJsonSchema() as { definitions: Record<string, { properties: Record<string, { maximum?: number }> }> }).definitions;
    expect(defs['tool']!.properties['expires_after']!.maximum).toBe(MAX_SECONDS);
    expect(MAX_SECONDS * 1000).toBeLessThanOrEqual(MAX_TIMER_MS);
  });

  describe('timers', () => {
    afterEach(() => vi.useRealTimers());

    it('hold a delay to what setTimeout can wait, never firing at once for a long one', () => {
      expect(timerDelay(1e12)).toBe(MAX_TIMER_MS);
      expect(timerDelay(Infinity)).toBe(MAX_TIMER_MS);
      expect(timerDelay(-5)).toBe(0);
      expect(timerDelay(Number.NaN)).toBe(0);
      expect(timerDelay(1500)).toBe(1500);
      vi.useFakeTimers();
      const fired = vi.fn();
      browserTimers.schedule(30 * 86_400_000, fired);
      vi.advanceTimersByTime(1000);
      expect(fired).not.toHaveBeenCalled();
      vi.advanceTimersByTime(MAX_TIMER_MS);
      expect(fired).toHaveBeenCalledOnce();
    });
  });

  it("the kiosk's idle and end settings from the address are held to the maximum", () => {
    expect(settingsFrom('?idle_seconds=1e12&end_seconds=9999999999&idle_grace_seconds=30')).toEqual({
      idleSeconds: MAX_SECONDS,
      endSeconds: MAX_SECONDS,
      idleGraceSeconds: 30,
    });
    expect(settingsFrom('?idle_seconds=-1&end_seconds=abc')).toEqual({ idleSeconds: 120, endSeconds: 20, idleGraceSeconds: 20 });
  });
});
