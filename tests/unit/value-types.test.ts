// Values must match their variable's type: vfdl check compares what the file says (parameters,
// defaults, set values), and at run time every way a value comes in converts it to the
// variable's type or refuses it. A number that cannot be held exactly is refused, never rounded,
// and an impossible date is refused, never passed on to the date formatting that would throw.

import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/engine/language/catalog.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import { normalizeFlow } from '../../src/engine/language/normalize.ts';
import { shownValue } from '../../src/engine/runtime/shown-values.ts';
import { convertValue, exactNumber, inexactNumberIn } from '../../src/engine/language/values.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { parse } from 'yaml';
import { ofType, only, startFlow } from '../support/engine-harness.ts';

const codes = (yaml: string) => loadFlow(yaml, 'f.yaml').diagnostics.filter((d) => d.code === 'type-mismatch').map(formatDiagnostic);

describe('numbers held exactly', () => {
  it.each(['0', '-3.5', '0.1', '12345678901234.5', '9007199254740991', '-9007199254740991', '1e3', '1.5e1', '2.50', '1e-300'])('%s is exact', (n) => {
    expect(exactNumber(n)).toBe(true);
  });

  it.each(['9007199254740993', '9007199254740992', '1'.repeat(400), '1e400', '1e-400', '3.14159265358979323846', '0.10000000000000000001', '9007199254740991.5'])('%s is not', (n) => {
    expect(exactNumber(n)).toBe(false);
  });

  it.each([
    ['integer', '9007199254740993'],
    ['number', '1'.repeat(400)],
    ['number', '3.14159265358979323846'],
    ['integer', 2 ** 53 + 2],
    ['number', Infinity],
    ['number', Number.NaN],
  ] as const)('a %s given as %s is refused, not rounded', (type, raw) => {
    expect(convertValue(type, raw)).toMatchObject({ ok: false });
  });

  it('finds the first inexact number of a JSON text, and none inside its strings', () => {
    expect(inexactNumberIn('{"a": "9007199254740993", "b": 2.5, "c": [1, 9007199254740993]}')).toBe('9007199254740993');
    expect(inexactNumberIn('{"a": 1e400}')).toBe('1e400');
    expect(inexactNumberIn('{"a": "say \\"1e400\\"", "b": -0.5e-3}')).toBeUndefined();
  });
});

describe('a tool call', () => {
  const FLOW = `
id: visit
variables:
  visits: { type: integer }
  dob: { type: date }
tools:
  save:
    parameters:
      visits: { type: integer }
      dob: { type: date }
states:
  ask:
    agent: { tools: [save] }
    transitions: { on_tool_call: { save: done } }
  done:
    ui: { artifact_type: card, title: "Born {dob}" }
`;

  it.each([
    ['2^53+1 as JSON text', '{"visits": 9007199254740993}', 'cannot be held exactly'],
    ['1e400 as JSON text', '{"visits": 1e400}', 'cannot be held exactly'],
    ['400 digits as JSON text', `{"visits": ${'9'.repeat(400)}}`, 'cannot be held exactly'],
    ['2^53+2 as a number', { visits: 2 ** 53 + 2 }, 'cannot be held exactly'],
    ['400 digits as text', { visits: '9'.repeat(400) }, 'cannot be held exactly'],
    ['2024-02-32 for a date', { dob: '2024-02-32' }, 'expected a date'],
    ['2023-02-29 for a date', { dob: '2023-02-29' }, 'expected a date'],
  ])('with %s is invalid_arguments and sets nothing', (_, args, problem) => {
    const h = startFlow(FLOW);
    const out = h.call('save', args);
    expect(only(out, 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments' });
    expect(only(out, 'tool_rejected').detail).toContain(problem);
    expect(h.engine.view.values).toEqual({});
    expect(h.engine.view.state).toBe('ask');
  });

  it('with a real date moves on and shows it in words', () => {
    const h = startFlow(FLOW);
    const out = h.call('save', '{"dob": "2024-02-29", "visits": 9007199254740991}');
    expect(h.engine.view.values).toEqual({ dob: '2024-02-29', visits: 9007199254740991 });
    expect(only(out, 'flow_state').artifact?.title).toBe('Born February 29, 2024');
  });

  it("is checked against the variable's type even where the checker was not asked", () => {
    // A flow with a type-mismatch never loads; built here without the checker, the engine itself
    // still refuses a text parameter's impossible date for the date variable it sets.
    const yaml = FLOW.replace('dob: { type: date }\nstates', 'dob: { type: string }\nstates');
    expect(codes(yaml)).toEqual([expect.stringContaining('parameter "dob" of save sets "dob", which it cannot hold: it is a string, but "dob" is a date')]);
    const flow = normalizeFlow(parse(yaml));
    const unchecked: LoadedFlow = { flow, catalog: buildCatalog(flow), inLanguage: () => unchecked };
    const engine = new FlowEngine(unchecked, new VirtualClock());
    engine.start();
    const out = engine.send({ type: 'tool_call', name: 'save', args: { dob: '2024-02-32' }, epoch: engine.view.epoch });
    expect(only(out, 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments', field: 'dob', detail: '"dob": expected a date as YYYY-MM-DD' });
    expect(engine.view.values).toEqual({});
  });
});

describe('other ways in', () => {
  const FLOW = `
id: ways
variables:
  dob: { type: date }
  count: { type: integer, default: "2" }
tools:
  look_up:
    http: { method: GET, url: "https://clinic.example/p", capture: { dob: patient.dob } }
states:
  ask:
    ui: { artifact_type: form, fields: [ { id: dob, type: date, label: Born } ] }
    agent: { tools: [look_up] }
    transitions:
      on_utterance:
        - { pattern: "count (\\\\d+)", capture_to: count }
      on_ui_event: { form_submit: { target: __end__, set: { count: "{count}" } } }
`;

  it('a default is stored as its type holds it', () => {
    expect(startFlow(FLOW).engine.view.values).toEqual({ count: 2 });
  });

  it('a form with an impossible date is blocked as invalid_input, losing nothing', () => {
    const h = startFlow(FLOW);
    expect(only(h.ui('form_submit', { values: { dob: '2024-02-32' } }), 'transition_blocked')).toMatchObject({ reason: 'invalid_input' });
    expect(h.ui('field_change', { variable: 'dob', value: '2024-02-32' }).filter((m) => m.type === 'flow_variable')).toEqual([]);
    expect(h.engine.view.values).toEqual({ count: 2 });
  });

  it('an utterance whose capture cannot be held exactly does not count as a match', () => {
    const h = startFlow(FLOW);
    expect(ofType(h.say(`count ${'9'.repeat(400)}`), 'llm_turn')).toHaveLength(1);
    expect(h.engine.view.values).toEqual({ count: 2 });
  });

  it("an HTTP answer's impossible date is not stored, and the LLM is told", () => {
    const h = startFlow(FLOW);
    const run = only(h.call('look_up', {}), 'action_run');
    const out = h.send({ type: 'action_done', action_id: run.action_id, ok: true, data: { patient: { dob: '2024-02-32' } } });
    expect(ofType(out, 'flow_variable')).toEqual([]);
    expect(ofType(out, 'system_message').map((m) => m.text)).toContain('[flow engine] dob was not set (action): expected a date as YYYY-MM-DD.');
    expect(h.engine.view.values).toEqual({ count: 2 });
  });

  it('a set text is converted at run time to its variable\'s type', () => {
    const h = startFlow(FLOW);
    h.ui('form_submit', { values: { dob: '1990-03-15' } });
    expect(only(h.log, 'flow_end').variables).toEqual({ dob: '1990-03-15', count: 2 });
  });

  it('a date that is not a real day is shown as written, never thrown on', () => {
    const loaded = loadFlow(FLOW).loaded!;
    expect(shownValue(loaded.flow, loaded.catalog, 'dob', '2024-02-32')).toBe('2024-02-32');
    expect(shownValue(loaded.flow, loaded.catalog, 'dob', '1990-03-15')).toBe('March 15, 1990');
  });

  it("a date and a number read in the visit's language; a long number is never grouped like an amount", () => {
    const flow = `
id: weigh_in
language: en-US
languages: [en-US, de-DE]
variables:
  weight: { type: number }
  code: { type: integer }
  dob: { type: date }
states:
  ask:
    ui: { artifact_type: form, fields: [ { id: weight, type: number, label: Weight } ] }
    transitions: { on_ui_event: { form_submit: __end__ } }
`;
    const english = loadFlow(flow).loaded!;
    const german = english.inLanguage('de-DE');
    expect(shownValue(english.flow, english.catalog, 'weight', 72.5)).toBe('72.5');
    expect(shownValue(german.flow, german.catalog, 'weight', 72.5)).toBe('72,5');
    expect(shownValue(german.flow, german.catalog, 'code', 123456)).toBe('123456');
    expect(shownValue(german.flow, german.catalog, 'dob', '1990-03-15')).toBe('15. März 1990');
  });
});

describe('vfdl check', () => {
  const flow = (variables: string, params: string, set = '{}') => `
id: t
variables:
${variables}
tools:
  save:
    parameters:
${params}
states:
  a:
    agent: { prompt: Ask., tools: [save] }
    transitions:
      on_tool_call: { save: { target: __end__, set: ${set} } }
      on_ui_event: { skip: __end__ }
`;

  it.each([
    ['an integer parameter for a number', '  n: { type: number }', '      n: { type: integer }'],
    ['a date, email, phone or choice parameter for text', '  s: { type: string }', '      s: { type: date }'],
    ['a choice among the variable\'s choices', '  c: { enum: [a, b, c] }', '      c: { enum: [A, b] }'],
  ])('accepts %s', (_, variables, params) => {
    expect(codes(flow(variables, params))).toEqual([]);
  });

  it.each([
    ['a text parameter for a date', '  d: { type: date }', '      d: { type: string }', 'it is a string, but "d" is a date'],
    ['a number parameter for an integer', '  n: { type: integer }', '      n: { type: number }', 'it is a number, but "n" is an integer'],
    ['an untyped parameter for a choice', '  c: { enum: [a, b] }', '      c: { required: true }', 'its values are any string, but "c" takes only a, b'],
    ['a captured parameter into a boolean', '  ok: { type: boolean }\n  x: { type: string }', '      x: { type: string }\n    capture: { x: ok }', 'it is a string, but "ok" is a boolean'],
  ])('refuses %s', (_, variables, params, why) => {
    expect(codes(flow(variables, params))).toEqual([expect.stringContaining(why)]);
  });

  it('refuses a set value of the wrong type at its key, and skips one known only at run time', () => {
    const yaml = flow('  n: { type: integer }\n  when: { type: date }', '      n: { type: integer }', '{ n: "ten", when: "{n}" }');
    expect(codes(yaml)).toEqual(['f.yaml:14:58: error: "n" is an integer, so it cannot be set to "ten": expected a whole number [type-mismatch]']);
  });

  it.each([['1e400'], ['9007199254740993'], [`${'1'.repeat(400)}`]])('refuses a default of %s for a number, naming it as written', (n) => {
    const out = codes(flow(`  n: { type: number, default: ${n} }`, '      n: { type: number }'));
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(n.length > 40 ? `${n.slice(0, 20)}… (${n.length} characters)` : n);
  });
});
