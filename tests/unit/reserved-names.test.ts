// Names that are members of every JavaScript object (`constructor`, `toString`, `__proto__`, ...)
// are only names to a flow: put in every place a flow names something (a state, variable, tool,
// parameter, field, option, UI event, target, gate, capture, `{name}` in a text, guard), sent back
// as a model's tool arguments and as a form's values, they either just work or, where the
// language reserves them, get a diagnostic; they never crash `vfdl check` or the engine, and a
// value always reads as what was given, never as "function Object() { [native code] }".

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineMessage } from '../../src/engine/runtime/messages.ts';
import { only, ofType, startFlow, type Harness } from '../support/engine-harness.ts';

/** Every property of Object.prototype: what a lookup on a plain object finds when a name is missing. */
const NAMES = Object.getOwnPropertyNames(Object.prototype).sort();
/** State ids starting with "__" are reserved by the language (only __error__ may be defined). */
const reservedState = (name: string) => name.startsWith('__');
/** The id of the flow's second state: the name itself where a state may have it. */
const secondState = (name: string) => (reservedState(name) ? 'chosen' : name);

/** A flow that uses `n` in every place a flow names something, with its second state called `s`. */
function everywhere(n: string, s: string): string {
  return `
id: reserved_names
variables:
  ${n}: { type: string }
tools:
  ${n}:
    description: Capture the value.
    parameters:
      ${n}: { type: string }
    speech_cue: "Got {${n}}."
states:
  ask:
    on_enter:
      - { set: { greeting: "Hello {${n}}" } }
    ui:
      artifact_type: form
      title: "Value {${n}}"
      fields:
        - { id: ${n}, type: text, label: "Your {${n}}" }
      actions: [ { event: ${n}, label: "Skip {${n}}" } ]
    agent:
      prompt: "Ask for {${n}}."
      tools: [${n}]
    confirmation_gate:
      variables: [${n}]
      on_confirm: ${s}
      prompt: "I heard {${n}}. Is that right?"
    transitions:
      on_ui_event:
        ${n}:
          - { target: __end__, guard: { all: [ { variable: ${n}, operator: empty } ] } }
          - ${s}
        form_submit: ${s}
      on_utterance:
        - { pattern: "^it is (\\\\w+)$", capture_to: ${n} }
  ${s}:
    ui:
      artifact_type: options
      title: "Thanks {${n}}"
      variable: pick
      options: [ ${n}, other ]
    agent:
      prompt: "They gave {${n}}."
      tools: [${n}]
    transitions:
      on_ui_event:
        option_select:
          - { target: __end__, guard: { all: [ { variable: ${n}, operator: not_empty }, { variable: pick, operator: eq, value: ${n} } ] } }
          - { target: __end__, set: { ${n}: none } }
      on_tool_call:
        ${n}: __end__
`;
}

/** A small valid flow, with YAML put in at the top, in its state, its agent and its transitions. */
function referring(parts: { top?: string; state?: string; agent?: string; transitions?: string }): string {
  return `
id: refers
variables: { x: {} }
${parts.top ?? ''}
states:
  start:
    ${parts.state ?? ''}
    agent:
      prompt: Hello.
      ${parts.agent ?? ''}
    transitions:
      on_ui_event:
        done: __end__
        ${parts.transitions ?? ''}
`;
}

/** Flows that name `n` where nothing defines it, and the diagnostic each must get. */
function references(n: string): [string, string, string][] {
  const guard = (variable: string, operator: string) => `go: { target: __end__, guard: { all: [ { variable: ${variable}, operator: ${operator} } ] } }`;
  return [
    ['initial', referring({ top: `initial: ${n}` }), 'unknown-target'],
    ['a target', referring({ transitions: `go: ${n}` }), 'unknown-target'],
    ['settings.on_error', referring({ top: `settings: { on_error: ${n} }` }), 'unknown-target'],
    ['a state\'s tools', referring({ agent: `tools: [${n}]` }), 'unknown-tool'],
    ['on_tool_call', referring({ state: `transitions: { on_tool_call: { ${n}: __end__ }, on_ui_event: { done: __end__ } }` }).replace(/\n {4}transitions:\n {6}on_ui_event:\n {8}done: __end__\n {8}\n$/, '\n'), 'unknown-tool'],
    ['{name} in a prompt', referring({ agent: `tools: []` }).replace('prompt: Hello.', `prompt: "Hello {${n}}."`), 'unknown-variable'],
    ['a guard', referring({ transitions: guard(n, 'empty') }), 'unknown-variable'],
    ['a gate', referring({ state: `confirmation_gate: { variables: [${n}], on_confirm: __end__ }` }), 'unknown-variable'],
    ['clear', referring({ state: `on_enter: [ { clear: [${n}] } ]` }), 'unknown-variable'],
    ['a top-level key', referring({ top: `${n}: 1` }), 'unknown-key'],
    ['a state key', referring({ state: `${n}: 1` }), 'unknown-key'],
    ['a field type', referring({ state: `ui: { artifact_type: form, fields: [ { id: x, type: ${n} } ] }` }), 'bad-value'],
    ['an artifact type', referring({ state: `ui: { artifact_type: ${n} }` }), 'bad-value'],
    ['an operator', referring({ transitions: guard('x', n) }), 'bad-value'],
    ['a variable type', referring({ top: `settings: { allow_back: true }` }).replace('variables: { x: {} }', `variables: { x: { type: ${n} } }`), 'bad-value'],
  ];
}

/** No message reads a missing name as an inherited member of Object. */
function noInheritedMembers(messages: readonly EngineMessage[]): void {
  const text = JSON.stringify(messages);
  expect(text).not.toContain('[native code]');
  expect(text).not.toMatch(/function \w*\(/);
}

function codes(diagnostics: readonly Diagnostic[], severity = 'error'): string[] {
  return diagnostics.filter((d) => d.severity === severity).map((d) => d.code);
}

/** `name: value` as an object with that own key, whatever the name (even `__proto__`). */
const withKey = (name: string, value: unknown, more: [string, unknown][] = []) => Object.fromEntries([[name, value], ...more]);
/** Another name of the list than `n`. */
const other = (n: string) => (n === 'constructor' ? 'toString' : 'constructor');

describe.each(NAMES)('the name %s', (n) => {
  const s = secondState(n);
  const valid = () => {
    const result = loadFlow(everywhere(n, s), 'names.yaml');
    expect(codes(result.diagnostics)).toEqual([]);
    expect(codes(result.diagnostics, 'warning')).toEqual([]);
    return result;
  };

  it('is a valid name in every place a flow names something', () => {
    const { loaded } = valid();
    expect(Object.keys(loaded!.flow.states)).toEqual(['ask', s]);
    expect(loaded!.catalog.offered.get('ask')).toEqual([n, `confirm_${n}`, `reject_${n}`, 'confirm_ask', 'reject_ask']);
    const spec = loaded!.catalog.toolSpecs.get('ask')![0]!.function.parameters;
    expect(Object.keys(spec.properties)).toEqual([n]);
  });

  it(reservedState(n) ? 'is refused as a state id, as every id starting with "__" is' : 'is a valid state id', () => {
    const result = loadFlow(everywhere(n, n), 'names.yaml');
    expect(codes(result.diagnostics)).toEqual(reservedState(n) ? ['reserved-state'] : []);
  });

  it.each(references(n))('named in %s where nothing defines it: a diagnostic, not a crash', (_, yaml, code) => {
    const result = loadFlow(yaml, 'refers.yaml');
    expect(result.loaded).toBeUndefined();
    expect(codes(result.diagnostics)).toEqual([code]);
  });

  /** Runs the flow, checking every step's messages for inherited members. */
  function run(): Harness {
    const h = startFlow(everywhere(n, s));
    const send = h.send;
    h.send = (input) => {
      const out = send(input);
      noInheritedMembers(out);
      return out;
    };
    noInheritedMembers(h.started);
    return h;
  }

  it('runs by voice: the model captures it, the visitor confirms it, the values read as given', () => {
    const h = run();
    const screen = only(h.started, 'flow_state');
    expect(screen.artifact).toMatchObject({ title: 'Value ', fields: [{ id: n, label: 'Your ' }], actions: [{ event: n, label: 'Skip ' }] });
    expect(screen.agent.system_prompt).toContain('Ask for .');

    const captured = h.call(n, withKey(n, 'Ada', [[other(n), 'x']]));
    expect(only(captured, 'flow_variable')).toMatchObject({ name: n, value: 'Ada', status: 'pending' });
    expect(only(captured, 'tool_result').content).toMatchObject({ ignored_arguments: [other(n)] });
    expect(only(captured, 'speech_cue').text).toBe('I heard Ada. Is that right?');
    expect(only(h.call(`confirm_${n}`), 'tool_rejected').reason).toBe('no_user_turn');
    expect(ofType(h.say('yes'), 'llm_turn')).toHaveLength(1);

    const next = only(h.call(`confirm_${n}`), 'flow_state');
    expect(next).toMatchObject({ state: s, artifact: { title: 'Thanks Ada', options: [{ id: n, label: n }, { id: 'other' }] } });
    expect(next.agent.system_prompt).toBe('They gave Ada.');
    const end = only(h.ui('option_select', { value: n }), 'flow_end');
    expect(end.variables).toEqual(withKey(n, 'Ada', [['pick', n], ['greeting', 'Hello ']]));
  });

  it('runs by touch: a form with that key (and other reserved keys) and the model\'s arguments as JSON text', () => {
    const h = run();
    const values = withKey(n, 'Bob', NAMES.filter((x) => x !== n).map((x) => [x, 'ignored']));
    expect(only(h.ui('form_submit', { values }), 'flow_state').state).toBe(s);
    expect(h.engine.view.values[n]).toBe('Bob');
    const hostile = NAMES.filter((x) => x !== n).map((x) => `"${x}": {"polluted": true}`);
    const args = `{"${n}": "Cy", ${hostile.join(', ')}}`;
    const end = only(h.call(n, args), 'flow_end');
    expect(end.variables[n]).toBe('Cy');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('runs by utterance and by a UI event of that name, guarded on it', () => {
    const h = run();
    const heard = h.say('it is Dee');
    expect(only(heard, 'flow_variable')).toMatchObject({ name: n, value: 'Dee', status: 'pending' });
    const moved = h.ui(n);
    expect(only(moved, 'flow_state').state).toBe(s);
    expect(Object.hasOwn(h.engine.view.values, n)).toBe(false); // a pending value does not leave its gated state
    expect(h.ui('confirm_variable', { variable: n })).toEqual([]);
    expect(only(h.ui('option_select', { value: 'other' }), 'flow_end').variables[n]).toBe('none');
  });

  it('ends at once by the UI event of that name while the value is still empty (the guard sees it unset)', () => {
    const h = run();
    expect(ofType(h.ui(n), 'flow_end')).toHaveLength(1);
  });
});

describe('names that are Object members, sent to a flow that does not use them', () => {
  const FLOW = `
id: plain
variables:
  first_name: { type: string }
tools:
  save_name:
    description: Capture the name.
    parameters: { first_name: { type: string } }
  look_up:
    description: Look the visitor up.
    http: { url: "https://example.com/{first_name}", capture: { found: constructor.name } }
states:
  ask:
    ui:
      artifact_type: form
      title: "Hi {first_name}"
      fields: [ { id: first_name, label: Name, required: true } ]
    agent:
      prompt: Ask for the name.
      tools: [save_name, look_up]
    confirmation_gate: { variables: [first_name], on_confirm: __end__ }
    transitions:
      on_ui_event: { done: __end__ }
`;

  it.each(NAMES)('%s: every input is answered as for any unknown name', (n) => {
    const h = startFlow(FLOW);
    expect(h.ui(n)).toEqual([]);
    expect(h.ui('confirm_variable', { variable: n })).toEqual([]);
    expect(h.ui('field_change', { variable: n, value: 'x' })).toEqual([]);
    expect(only(h.call(n), 'tool_rejected').reason).toBe('not_in_state');
    expect(only(h.call(`confirm_${n}`), 'tool_rejected').reason).toBe('not_in_state');
    const saved = h.call('save_name', withKey(n, 'x', [['first_name', 'Ada']]));
    expect(only(saved, 'tool_result').content).toEqual({ captured: { first_name: 'Ada' }, ignored_arguments: [n] });
    expect(h.engine.view.gate).toEqual({ first_name: 'pending' });
    const blocked = h.ui('form_submit', { values: withKey(n, 'x') });
    expect(only(blocked, 'transition_blocked').reason).toBe('not_captured');
    expect(h.engine.view.state).toBe('ask');
  });

  it('reads an HTTP answer by its own keys only', () => {
    const h = startFlow(FLOW);
    const run = only(h.call('look_up'), 'action_run');
    const done = h.send({ type: 'action_done', action_id: run.action_id, ok: true, data: {} });
    expect(ofType(done, 'flow_variable')).toEqual([]);
    const again = only(h.call('look_up'), 'action_run');
    const named = h.send({ type: 'action_done', action_id: again.action_id, ok: true, data: { constructor: { name: 'Ada' } } });
    expect(only(named, 'flow_variable')).toMatchObject({ name: 'found', value: 'Ada' });
  });
});

describe('vfdl check on flows full of such names', () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const dir = mkdtempSync(join(tmpdir(), 'vfdl-names-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every file with diagnostics, never a stack trace; valid names stay valid', () => {
    const expected = new Map<string, string[]>();
    NAMES.forEach((n, i) => {
      const write = (suffix: string, yaml: string, codes: string[]) => {
        const file = join(dir, `${i}-${suffix}.yaml`);
        writeFileSync(file, yaml);
        expected.set(file, codes);
      };
      write('everywhere', everywhere(n, secondState(n)), []);
      write('state', everywhere(n, n), reservedState(n) ? ['reserved-state'] : []);
      references(n).forEach(([, yaml, code], j) => write(`refers-${j}`, yaml, [code]));
    });
    let stdout = '';
    let stderr = '';
    try {
      stdout = execFileSync(process.execPath, [join(ROOT, 'bin/vfdl.js'), 'check', '--json', dir], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      const failed = e as { status: number; stdout: string; stderr: string };
      expect(failed.status).toBe(1);
      stdout = failed.stdout;
      stderr = failed.stderr;
    }
    expect(stderr).toBe('');
    const report = JSON.parse(stdout) as { files: string[]; diagnostics: Diagnostic[] };
    expect(report.files).toHaveLength(expected.size);
    for (const [file, want] of expected) {
      expect([file, codes(report.diagnostics.filter((d) => d.file === file))]).toEqual([file, want]);
    }
  });
});
