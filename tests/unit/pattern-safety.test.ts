// Patterns cannot hang the kiosk: vfdl check refuses the shapes whose matching can take seconds
// (nested or overlapping repetition) wherever a flow gives a pattern, and utterances and text
// arguments have a length cap, so even an accepted pattern only ever sees a short text. The cap
// tests time nothing: they show that text past the cap never reaches a pattern.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConversation } from '../../src/adapters/offline-agent/conversation.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { MAX_TEXT_CHARS } from '../../src/engine/language/limits.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { slowPatternProblem } from '../../src/engine/language/pattern-safety.ts';
import { only, startFlow } from '../support/engine-harness.ts';

describe('slowPatternProblem', () => {
  it.each([
    '^(a+)+$',
    '(a|aa)*',
    '(\\w+\\s?)*',
    '^(\\w+\\s?)*$',
    '(\\d+\\.?)*',
    '([a-z]+ ?)+$',
    '(a*)*',
    '(a+a)+',
    '(a|a?)+',
    '(\\w|\\d)+',
    '((a|aa)b?)*',
    '(?:a+){5}',
    '(.*a){20}',
    '(?<w>\\w+\\s?)+',
    '(?=(a+)+b)',
    '(\\w+\\s?){2}x',
    '.*.*x',
    '\\s*\\s*x',
    '\\w+\\w+x',
    '(\\w+)\\s*(\\w+)x',
    '^\\d*\\d*\\d*x',
    'a.*b.*c',
  ])('refuses %s', (source) => {
    expect(slowPatternProblem(source)).toMatch(/very many ways/);
  });

  it.each([
    '\\b(priya|tom)\\b',
    '(\\+?[0-9][0-9 ]{6,}[0-9])',
    "^(?:i'm|i am) ([a-z]+) ([a-z]+)$",
    '(?<email>[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,})',
    '(\\d+\\.){3}\\d+',
    '(?:\\s*,\\s*\\w+)*',
    '(a+b)*',
    '(?:[a-z]+ )+',
    '(\\d{3})+',
    '(-?\\d)+',
    '(?:yes|no)+',
    '(\\w+\\s){2}',
    '^(\\w+)\\s*(\\w+)$',
    'my name is (\\w+) (\\w+)',
    '(?:call me )?(\\w+)$',
    '(\\d+)\\s*(?:years|yrs)',
    '.*x',
    'a{',
    '[(a+)+]',
    '\\(a+\\)+',
  ])('accepts %s', (source) => {
    expect(slowPatternProblem(source)).toBeUndefined();
  });

  it('answers for any pattern that compiles, never throwing', () => {
    const piece = fc.constantFrom('a', '\\w', '\\d', '.', '[a-z]', '[^]', '(', ')', '(?:', '(?=', '(?<n>', '|', '*', '+', '?', '{2}', '{1,}', '{', '}', '^', '$', '\\b', '\\1', '\\', ' ', ']', '[');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const source = pieces.join('');
        try {
          new RegExp(source, 'i');
        } catch {
          return;
        }
        const answer = slowPatternProblem(source);
        expect(answer === undefined || typeof answer === 'string').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('passes every pattern of the example flows', () => {
    // test:flows checks them all; one file here keeps the reason visible.
    const problems = loadFlow(`
id: ok
states:
  a:
    transitions:
      on_utterance:
        - { pattern: "\\\\bi am (\\\\d+)\\\\b", capture_to: age, target: __end__ }
`).diagnostics;
    expect(problems.map(formatDiagnostic)).toEqual([]);
  });
});

describe('utterance cap', () => {
  const FLOW = `
id: capped
states:
  ask:
    ui: { artifact_type: form, fields: [ { id: code, label: Code } ] }
    transitions:
      on_utterance:
        - { pattern: "(\\\\w+)!$", capture_to: code }
      on_ui_event: { form_submit: __end__ }
`;
  const longest = `${'x'.repeat(MAX_TEXT_CHARS - 1)}!`;

  it(`runs the rules on an utterance of ${MAX_TEXT_CHARS} characters`, () => {
    const h = startFlow(FLOW);
    h.say(longest);
    expect(h.engine.view.values['code']).toBe('x'.repeat(MAX_TEXT_CHARS - 1));
  });

  it('refuses a longer one whole, with a clear cue, and no pattern or model sees it', () => {
    const h = startFlow(FLOW);
    const out = h.say(`y${longest}`);
    expect(h.engine.view.values).toEqual({});
    expect(out.map((m) => m.type)).toEqual(['system_message', 'speech_cue']);
    expect(only(out, 'speech_cue')).toEqual({ type: 'speech_cue', reason: 'too_long', text: 'That was more than I can take in at once. Please say it again in fewer words.' });
    expect(only(out, 'system_message').text).toContain(`more than the ${MAX_TEXT_CHARS} an answer may have`);
  });

  it('leaves nothing of it for auto_extract', () => {
    const h = startFlow(`
id: capped
states:
  ask:
    agent: { tools: [save_code] }
    tools:
      save_code:
        parameters: { code: { type: string, required: true } }
        auto_extract: { code: { patterns: ["(z{3})$"] } }
    transitions: { on_tool_call: { save_code: __end__ } }
`);
    h.say('z'.repeat(MAX_TEXT_CHARS + 1));
    expect(only(h.call('save_code', {}), 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments', field: 'code' });
  });

  it("cuts what the offline assistant reads to the cap, in the latest and the earlier answers", () => {
    const long = 'w'.repeat(MAX_TEXT_CHARS * 3);
    const convo = readConversation([{ role: 'system', content: 'p' }, { role: 'user', content: long }, { role: 'user', content: long }], 'p');
    expect(convo.utterance).toHaveLength(MAX_TEXT_CHARS);
    expect(convo.earlier.map((e) => e.length)).toEqual([MAX_TEXT_CHARS]);
  });
});

describe('form value cap', () => {
  it('blocks a typed value past the cap as invalid_input and keeps nothing of it', () => {
    const h = startFlow(`
id: form
states:
  ask:
    ui: { artifact_type: form, fields: [ { id: note, label: Note } ] }
    transitions:
      on_ui_event:
        form_submit:
          - { target: __end__, guard: { all: [ { variable: note, operator: matches, value: "z$" } ] } }
`);
    expect(only(h.ui('form_submit', { values: { note: `${'n'.repeat(MAX_TEXT_CHARS)}z` } }), 'transition_blocked')).toMatchObject({ reason: 'invalid_input' });
    h.ui('field_change', { variable: 'note', value: `${'n'.repeat(MAX_TEXT_CHARS)}z` });
    expect(h.engine.view.values).toEqual({});
    h.ui('form_submit', { values: { note: `${'n'.repeat(MAX_TEXT_CHARS - 1)}z` } });
    expect(h.engine.view.ended).toBe(true);
  });
});

describe('text argument cap', () => {
  const FLOW = `
id: capped
states:
  ask:
    agent: { tools: [save_note] }
    tools:
      save_note:
        parameters:
          note: { type: string, required: true, pattern: "^[a-z]+$" }
          kind: { enum: [short, long] }
    transitions: { on_tool_call: { save_note: __end__ } }
`;

  it(`takes a text of ${MAX_TEXT_CHARS} characters`, () => {
    const h = startFlow(FLOW);
    h.call('save_note', { note: 'n'.repeat(MAX_TEXT_CHARS) });
    expect(h.engine.view.ended).toBe(true);
  });

  it.each([
    ['note', { note: 'n'.repeat(MAX_TEXT_CHARS + 1) }],
    ['kind', { note: 'n', kind: `${'long '.repeat(MAX_TEXT_CHARS)}` }],
  ])('refuses a longer %s as invalid_arguments, naming the limit, and sets nothing', (field, args) => {
    const h = startFlow(FLOW);
    const rejected = only(h.call('save_note', args), 'tool_rejected');
    expect(rejected).toMatchObject({ reason: 'invalid_arguments', field });
    expect(rejected.detail).toContain(`more than the ${MAX_TEXT_CHARS} a text may have`);
    expect(h.engine.view.values).toEqual({});
  });
});
