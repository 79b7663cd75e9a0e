// Language fixes found by running the origin's own cases: where a visit may start, guard groups
// nested in guard groups, and a tool one state defines and another lists (Prepatu's flows do it).

import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { flowJsonSchema } from '../../src/engine/language/json-schema.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { only, startFlow } from '../support/engine-harness.ts';

const lines = (yaml: string) => loadFlow(yaml, 'f.yaml').diagnostics.map(formatDiagnostic);

describe('where a visit starts', () => {
  const flow = (initial: string) => `
id: start
${initial}
states:
  a:
    transitions: { on_ui_event: { go: b } }
  b:
    transitions: { on_ui_event: { go: __end__ } }
`;

  it.each(['initial: __end__', 'initial_state: __end__', 'initial_state: __error__'])('refuses %s at its line', (key) => {
    const out = lines(flow(key));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^f\\.yaml:3:\\d+: error: a visit cannot start in "__(end|error)__": name a state of this flow \\[bad-value\\]$`));
  });

  it('runs the reachability check from the state initial_state names', () => {
    expect(lines(flow('initial_state: b'))).toEqual(['f.yaml:5:3: warning: state "a" cannot be reached from "b" [unreachable-state]']);
    expect(lines(flow('initial: a'))).toEqual([]);
  });

  it('starts the visit there', () => {
    expect(startFlow(flow('initial_state: b')).engine.view.state).toBe('b');
  });
});

describe('guard groups inside guard groups', () => {
  const FLOW = `
id: nested
variables:
  age: { type: integer }
  member: { type: boolean }
states:
  ask:
    ui:
      artifact_type: form
      fields: [ { id: age, type: number }, { id: member, type: checkbox } ]
    transitions:
      on_ui_event:
        form_submit:
          - target: discount
            guard:
              all:
                - { variable: member, operator: eq, value: true }
                - any: [ { variable: age, operator: lt, value: 18 }, { all: [ { variable: age, operator: gte, value: 65 } ] } ]
          - target: full_price
  discount: { ui: { artifact_type: card, title: Discount } }
  full_price: { ui: { artifact_type: card, title: Full price } }
`;

  it('are valid, at any depth, and a bare any: group is one too', () => {
    expect(lines(FLOW)).toEqual([]);
    expect(lines(FLOW.replace('all:\n                - { variable: member', 'any:\n                - { variable: member'))).toEqual([]);
  });

  it('are checked inside: a condition missing its operator and an unknown variable are found', () => {
    const broken = FLOW.replace('{ variable: age, operator: gte, value: 65 }', '{ variable: agee, value: 65 }');
    expect(lines(broken)).toEqual([
      expect.stringMatching(/^f\.yaml:18:\d+: error: missing required key "operator" \[missing-key\]$/),
      expect.stringMatching(/^f\.yaml:18:\d+: error: a guard refers to unknown variable "agee" \(did you mean "age"\?\) \[unknown-variable\]$/),
    ]);
  });

  it.each([
    [{ age: '70', member: true }, 'discount'],
    [{ age: '12', member: true }, 'discount'],
    [{ age: '40', member: true }, 'full_price'],
    [{ age: '70', member: false }, 'full_price'],
  ])('are evaluated at run time: %o goes to %s', (values, state) => {
    const h = startFlow(FLOW);
    h.ui('form_submit', { values });
    expect(h.engine.view.state).toBe(state);
  });

  it('are in the JSON Schema: a group item is a condition or a group', () => {
    const defs = (flowJsonSchema() as { definitions: Record<string, { anyOf: { properties: Record<string, { items: unknown }> }[] }> }).definitions;
    const item = defs['guard']!.anyOf[0]!.properties['all']!.items;
    expect(item).toMatchObject({ anyOf: [{ $ref: '#/definitions/condition' }, { $ref: '#/definitions/guard' }] });
  });
});

describe('a tool defined in one state and listed by another', () => {
  const FLOW = `
id: borrow
states:
  play:
    agent: { prompt: Play., tools: [finish] }
    tools:
      finish: { description: The game is over., parameters: { score: { type: integer, required: true } } }
    transitions: { on_tool_call: { finish: again } }
  again:
    agent: { prompt: Again?, tools: [finish] }
    transitions: { on_tool_call: { finish: __end__ } }
`;

  it('loads, with a warning that points at the listing and suggests the flow-level tools', () => {
    expect(lines(FLOW).filter((l) => !l.endsWith('[llm-only-exit]'))).toEqual([
      'f.yaml:10:38: warning: tool "finish" is defined in the tools of state "play", not in this state\'s or the flow\'s; it is used from there, but move it to the flow\'s tools (top-level "tools:") so every state shares one definition [tool-from-other-state]',
    ]);
  });

  it('is offered and checked with that definition', () => {
    const h = startFlow(FLOW);
    h.call('finish', { score: 3 });
    expect(h.engine.view.state).toBe('again');
    expect(h.engine.view.tools).toEqual(['finish']);
    expect(only(h.call('finish', { score: 'many' }), 'tool_rejected').reason).toBe('invalid_arguments');
    h.call('finish', { score: 4 });
    expect(h.engine.view.ended).toBe(true);
    expect(h.engine.view.values).toEqual({ score: 4 });
  });
});

describe('a way out by touch that the kiosk makes from a tool', () => {
  const flow = (params: string) => `
id: review
states:
  check:
    ui: { artifact_type: card, title: Is this right? }
    agent:
      prompt: Ask whether the booking is right.
      tools: [book]
    tools:
      book:
        description: Book it.
        parameters: ${params}
    transitions: { on_tool_call: { book: __end__ } }
`;

  it('is not "depends on the LLM" when the advancing tool takes nothing (it becomes a button)', () => {
    expect(lines(flow('{}'))).toEqual([]);
  });

  it('is when the tool needs values that no form on the step gives', () => {
    expect(lines(flow('{ note: { type: string } }'))).toEqual([
      'f.yaml:4:3: warning: every way out of "check" depends on the LLM: add an on_ui_event, on_utterance or on_timeout [llm-only-exit]',
    ]);
  });
});
