// The flow as a drawing (issue 30 point 18, and the studio's diagram): each guard's condition on its
// edge in words, the tools that wait for a yes marked on their state, and one edge where a tap, a
// tool and a spoken rule lead to the same place under the same condition. `vfdl graph` draws from it.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flowDrawing } from '../../src/engine/language/flow-edges.ts';
import { flowToMermaid } from '../../src/engine/language/graph.ts';
import { guardWords } from '../../src/engine/language/guard-words.ts';
import type { Guard } from '../../src/engine/language/flow.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';

const flowOf = (text: string) => {
  const result = loadFlow(text, 'f.yaml');
  if (!result.loaded) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return result.loaded.flow;
};

const libraryCard = flowOf(readFileSync('tests/fixtures/authoring/library-card.yaml', 'utf8'));
const clinic = flowOf(readFileSync('flows/clinic-checkin.yaml', 'utf8'));

/** A survey whose answer is taken by a tap, a tool and a spoken rule, each with the same two branches. */
const survey = `
id: survey
variables:
  score: { type: integer }
  visited: { type: date }
tools:
  save_score:
    description: Save the score.
    parameters: { score: { type: integer, required: true } }
  send:
    description: Send the answers.
    confirm: true
    parameters: {}
    http: { method: POST, url: "https://survey.example/answers", body: { score: "{score}" } }
states:
  ask:
    ui:
      artifact_type: options
      variable: score
      options: [{ id: "1", label: One }, { id: "5", label: Five }]
    agent: { prompt: Ask for a score., tools: [save_score] }
    transitions:
      on_ui_event:
        option_select: [ { target: why, guard: { all: [ { variable: score, operator: lte, value: 2 } ] } }, thanks ]
      on_tool_call:
        save_score: [ { target: why, guard: { all: [ { variable: score, operator: lte, value: 2 } ] } }, thanks ]
      on_utterance:
        - { pattern: "^([1-5])$", capture_to: score, target: [ { target: why, guard: { all: [ { variable: score, operator: lte, value: 2 } ] } }, thanks ] }
  why:
    ui: { artifact_type: card, title: Sorry, actions: [ { event: send, label: Send, tool: send } ] }
    agent: { prompt: Offer to send., tools: [send] }
    transitions: { on_tool_call: { send: thanks } }
  thanks: { ui: { artifact_type: card, title: Thank you } }
`;

describe('the flow drawing', () => {
  it('says the adult guard of an age check in words, and the other branch as otherwise', () => {
    const edges = flowDrawing(libraryCard).edges.filter((e) => e.from === 'about_you');
    expect(edges.map((e) => [e.to, e.label])).toEqual([
      ['card', 'tap form_submit, if age from date_of_birth is 18 or more'],
      ['bring_an_adult', 'tap form_submit, otherwise'],
      ['librarian', 'after 60 s'],
    ]);
    expect(edges[0]!.condition).toBe('age from date_of_birth is 18 or more');
  });

  it('merges a tap, a tool and a spoken rule that lead to the same place under the same condition into one edge', () => {
    const edges = flowDrawing(flowOf(survey)).edges.filter((e) => e.from === 'ask');
    expect(edges).toHaveLength(2);
    expect(edges[0]).toMatchObject({ to: 'why', condition: 'score is 2 or less', label: 'tap option_select or tool save_score or said rule 1, if score is 2 or less' });
    expect(edges[0]!.ways.map((w) => w.kind)).toEqual(['tap', 'tool', 'said']);
    expect(edges[1]).toMatchObject({ to: 'thanks', condition: 'otherwise' });
  });

  it('marks the tools that wait for the visitor\'s yes on their state, and on the edges they take', () => {
    const drawing = flowDrawing(flowOf(survey));
    expect(drawing.nodes.find((n) => n.id === 'why')!.waitsForYes).toEqual(['send']);
    expect(drawing.nodes.find((n) => n.id === 'ask')!.waitsForYes).toEqual([]);
    expect(drawing.edges.find((e) => e.from === 'why')!.label).toBe('tap send (after a yes) or tool send (after a yes)');
    const summary = flowDrawing(clinic).nodes.find((n) => n.id === 'summary')!;
    expect(summary.waitsForYes).toEqual(['check_in']);
  });

  it('keeps the gate, the calls on entering and the end', () => {
    const drawing = flowDrawing(libraryCard);
    expect(drawing.nodes.find((n) => n.id === 'card')!.callsOnEntering).toEqual(['find_card']);
    expect(drawing.nodes.find((n) => n.id === '__end__')).toMatchObject({ kind: 'end' });
    const identify = flowDrawing(clinic).edges.filter((e) => e.from === 'identify');
    expect(identify.find((e) => e.to === 'reason')!.label).toBe('tap form_submit or yes to full_name and date_of_birth');
    expect(identify.find((e) => e.to === 'identify')!.label).toBe('after 90 s (up to 2 times) or no (cleared)');
  });

  it("draws a decision step's branches, each with its guard in words, taken on entering", () => {
    const authored = flowOf(readFileSync('tests/fixtures/authoring/survey.yaml', 'utf8'));
    const decided = flowDrawing(authored).edges.filter((e) => e.from === 'after_q3').map((e) => [e.to, e.label]);
    expect(decided).toEqual([
      ['q5', 'decided on entering, if q3 is no, sets q4 = skipped'],
      ['q4', 'decided on entering, otherwise'],
    ]);
  });

  it('draws a flow with errors, naming a state it lacks', () => {
    const result = loadFlow(survey.replace('thanks ]\n      on_tool_call', 'thank ]\n      on_tool_call'), 'f.yaml');
    expect(result.loaded).toBeUndefined();
    expect(result.draft).toBeDefined();
    const drawing = flowDrawing(result.draft!);
    expect(drawing.nodes.find((n) => n.id === 'thank')).toMatchObject({ kind: 'missing' });
  });
});

describe('a guard in words', () => {
  const c = (variable: string, operator: string, value?: unknown, age = false) => ({ variable, operator, value, age, at: [] }) as never;

  it('says each operator as a person would', () => {
    expect(guardWords(c('visit_reason', 'in', ['appointment', 'walk_in']))).toBe('visit_reason is one of appointment, walk_in');
    expect(guardWords(c('visit_reason', 'not_in', ['walk_in']))).toBe('visit_reason is not walk_in');
    expect(guardWords(c('email', 'not_empty'))).toBe('email is given');
    expect(guardWords(c('email', 'empty'))).toBe('email is not given');
    expect(guardWords(c('doctor', 'eq', 'Dr. Okafor'))).toBe('doctor is “Dr. Okafor”');
    expect(guardWords(c('date_of_birth', 'lt', 18, true))).toBe('age from date_of_birth is less than 18');
  });

  it('says dates in time words and groups nested conditions', () => {
    const flow = { variables: { visited: { type: 'date' } } } as never;
    const guard: Guard = { any: [c('visited', 'gt', 'today - 7 days'), { all: [c('score', 'gte', 4), c('score', 'neq', 5)] }] };
    expect(guardWords(guard, flow)).toBe('visited is after today - 7 days or (score is 4 or more and score is not 5)');
  });
});

describe('vfdl graph', () => {
  it('writes guards in words, never "[guarded]", and one line per edge', () => {
    const text = flowToMermaid(clinic);
    expect(text).not.toContain('[guarded]');
    expect(text).toContain('reason --> appointment: tap option_select or tool save_reason, if visit_reason is appointment');
    expect(text).toContain('reason --> summary: tap option_select or tool save_reason, otherwise');
    expect(text.match(/^ {2}reason --> /gm)).toHaveLength(3);
    expect(text).toContain("    check_in waits for the visitor's yes");
  });

  it('writes the age check of the library card in words', () => {
    expect(flowToMermaid(libraryCard)).toContain('about_you --> card: tap form_submit, if age from date_of_birth is 18 or more');
  });
});
