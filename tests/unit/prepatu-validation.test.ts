// Checking Prepatu-style flows (SPEC 9): keys this kiosk accepts but does not act on are warnings,
// never errors; the draft's rules (LLM-only exits, no end, required variables never set) are
// warnings; whole flows in Prepatu's spelling load without an error.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, type Diagnostic, type DiagnosticCode } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';

/** Loads an inline flow that must have no error; returns its warnings. */
function warnings(yaml: string): Diagnostic[] {
  const { loaded, diagnostics } = loadFlow(yaml, 'inline.yaml');
  expect(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  expect(loaded).toBeDefined();
  return diagnostics;
}

const withCode = (ds: readonly Diagnostic[], code: DiagnosticCode) => ds.filter((d) => d.code === code).map((d) => d.message);

describe('keys accepted but not acted on', () => {
  it.each(['orb_layout', 'navigate', 'feedback', 'dismiss', 'custom'])('artifact_type %s is a warning', (type) => {
    const ds = warnings(`
      id: other_artifact
      states:
        show:
          ui: { artifact_type: ${type}, position: center_bottom, screen: Home }
          transitions:
            on_ui_event: { done: __end__ }
    `);
    expect(ds.map((d) => d.severity)).toEqual(['warning']);
    expect(withCode(ds, 'not-acted-on')).toEqual([expect.stringContaining(`"${type}"`)]);
  });

  it('accepts transitions: {} and on_action: {} without a diagnostic', () => {
    const ds = warnings(`
      id: empty_maps
      states:
        ask:
          transitions:
            on_ui_event: { next: done }
            on_action: {}
        done:
          transitions: {}
    `);
    expect(ds.map(formatDiagnostic)).toEqual([]);
  });

  it('warns about a non-empty on_action', () => {
    const ds = warnings(`
      id: actions
      states:
        ask:
          transitions:
            on_ui_event: { done: __end__ }
            on_action: { field_update: ask }
    `);
    expect(withCode(ds, 'not-acted-on')).toEqual([expect.stringContaining('"on_action"')]);
  });

  it('warns about a tool\'s sets_variable and advances', () => {
    const ds = warnings(`
      id: tool_docs
      states:
        ask:
          agent: { tools: [save_name] }
          tools:
            save_name:
              sets_variable: first_name
              advances: false
              parameters: { first_name: { type: string, required: true } }
          transitions:
            on_ui_event: { done: __end__ }
    `);
    const notes = withCode(ds, 'not-acted-on');
    expect(notes).toHaveLength(2);
    expect(notes).toEqual(expect.arrayContaining([expect.stringContaining('"sets_variable"'), expect.stringContaining('"advances"')]));
  });

  it('warns about a variable\'s persist', () => {
    const ds = warnings(`
      id: remembered
      variables:
        first_name: { type: string, persist: true }
      states:
        ask:
          ui:
            artifact_type: form
            fields: [ { id: first_name, label: First name } ]
          transitions:
            on_ui_event: { form_submit: __end__ }
    `);
    expect(withCode(ds, 'not-acted-on')).toEqual([expect.stringContaining('"persist"')]);
  });

  it('accepts every declared variable type with required, default and enum', () => {
    const ds = warnings(`
      id: typed
      variables:
        guest: { type: string, required: true, default: Sam }
        party: { type: number, default: 2 }
        vip: { type: boolean, default: false }
        seating: { type: enum, enum: [indoor, outdoor], default: outdoor }
        prefs: { type: object, default: { quiet: true } }
      states:
        ask:
          transitions:
            on_ui_event: { done: __end__ }
    `);
    expect(ds.map(formatDiagnostic)).toEqual([]);
  });
});

describe('the draft\'s validation rules', () => {
  it('warns about a required variable that no path sets', () => {
    const ds = warnings(`
      id: required
      variables:
        full_name: { type: string, required: true }
        email: { type: string, required: true }
      states:
        ask:
          ui:
            artifact_type: form
            fields: [ { id: full_name, label: Full name } ]
          transitions:
            on_ui_event: { form_submit: __end__ }
    `);
    expect(withCode(ds, 'required-never-set')).toEqual([expect.stringContaining('"email"')]);
  });

  it('does not warn about a required variable a tool sets', () => {
    const ds = warnings(`
      id: required
      variables:
        email: { type: string, required: true }
      states:
        ask:
          agent: { tools: [save_email] }
          tools:
            save_email:
              parameters: { email: { type: string, required: true } }
          transitions:
            on_ui_event: { done: __end__ }
    `);
    expect(withCode(ds, 'required-never-set')).toEqual([]);
  });

  it('warns about a state whose only ways out depend on the LLM', () => {
    const ds = warnings(`
      id: llm_only
      states:
        ask:
          agent: { tools: [go_on] }
          tools:
            go_on: { description: Continue }
          transitions:
            on_tool_call: { go_on: done }
        done:
          transitions: {}
    `);
    expect(withCode(ds, 'llm-only-exit')).toEqual([expect.stringContaining('"ask"')]);
  });

  it.each([
    ['a UI event', 'on_ui_event: { skip: done }'],
    ['an utterance', 'on_utterance: [ { pattern: "skip", target: done } ]'],
    ['a timeout', 'on_timeout: { seconds: 30, target: done }'],
  ])('does not warn when %s also leads out', (_what, exit) => {
    const ds = warnings(`
      id: mixed_exits
      states:
        ask:
          agent: { tools: [go_on] }
          tools:
            go_on: { description: Continue }
          transitions:
            on_tool_call: { go_on: done }
            ${exit}
        done:
          transitions: {}
    `);
    expect(withCode(ds, 'llm-only-exit')).toEqual([]);
  });

  it('warns about a flow with neither __end__ nor a terminal state', () => {
    const ds = warnings(`
      id: endless
      states:
        ping:
          transitions: { on_ui_event: { next: pong } }
        pong:
          transitions: { on_ui_event: { next: ping } }
    `);
    expect(withCode(ds, 'no-end')).toEqual([expect.stringContaining('neither __end__ nor a terminal state')]);
  });

  it('counts a terminal state as an end', () => {
    const ds = warnings(`
      id: ends
      states:
        ping:
          transitions: { on_ui_event: { next: farewell } }
        farewell:
          transitions: { on_ui_event: {} }
    `);
    expect(withCode(ds, 'no-end')).toEqual([]);
  });
});

describe('whole flows in Prepatu\'s spelling', () => {
  // Written for this project in Prepatu's dialect (tests/fixtures/prepatu-dialect/README.md);
  // Prepatu's real flows are checked by scripts/check-prepatu.mjs where they are at hand.
  const dir = new URL('../fixtures/prepatu-dialect/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
  const diagnosticsOf = (file: string) => loadFlow(readFileSync(new URL(file, dir), 'utf8'), file).diagnostics;

  it('are the four flows kept as test data', () => {
    expect(files).toEqual(['bike_dropoff.yaml', 'library_signup.yaml', 'lobby_greeter.yaml', 'riddle_corner.yaml']);
  });

  it.each(files)('%s loads with no error', (file) => {
    const { loaded, diagnostics } = loadFlow(readFileSync(new URL(file, dir), 'utf8'), file);
    expect(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
    expect(loaded).toBeDefined();
    expect(loaded!.flow.states[loaded!.flow.initial]).toBeDefined();
    expect(loaded!.flow.basePrompt).not.toBe('');
  });

  it('warn as Prepatu\'s own flows do: hyphenated ids, artifacts not rendered, LLM-only exits', () => {
    expect(withCode(diagnosticsOf('bike_dropoff.yaml'), 'bad-value')).toEqual([expect.stringContaining('"bike-dropoff" should use underscores')]);
    expect(withCode(diagnosticsOf('riddle_corner.yaml'), 'bad-value')).toEqual([expect.stringContaining('"riddle-corner" should use underscores')]);
    expect(withCode(diagnosticsOf('library_signup.yaml'), 'not-acted-on')).toEqual([
      expect.stringContaining('"orb_layout"'),
      expect.stringContaining('"navigate"'),
    ]);
    expect(withCode(diagnosticsOf('lobby_greeter.yaml'), 'llm-only-exit')).toEqual([expect.stringContaining('"welcome"')]);
    const codes = new Set(files.flatMap((f) => diagnosticsOf(f).map((d) => d.code)));
    expect([...codes].sort()).toEqual(['bad-value', 'llm-only-exit', 'not-acted-on']);
  });
});
