// `turn_taking` in the flow language: checked by `vfdl check`, carried by flow_state as the flow
// wrote it (the state's keys over the flow's), and described by the JSON Schema.

import { describe, expect, it } from 'vitest';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { flowJsonSchema } from '../../src/engine/language/json-schema.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { FlowStateMessage } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';

function flow(flowLevel: string, stateLevel: string): string {
  return `
id: listening
${flowLevel}
states:
  ask_phone:
${stateLevel}
    ui:
      artifact_type: form
      fields: [ { id: phone, type: tel, label: Phone } ]
    transitions:
      on_ui_event: { form_submit: __end__ }
`;
}

const lines = (src: string) => loadFlow(src, 'f.yaml').diagnostics.map(formatDiagnostic);

describe('turn_taking in flows', () => {
  it('passes the flow keys and the state keys over them to flow_state', () => {
    const loaded = loadFlow(
      flow('turn_taking: { end_silence_ms: 400, barge_in_ms: 300 }', '    turn_taking: { end_silence_ms: 500, expect: dictation, barge_in: false }'),
      'f.yaml',
    ).loaded!;
    const entered = new FlowEngine(loaded, new VirtualClock()).start().find((m): m is FlowStateMessage => m.type === 'flow_state')!;
    expect(entered.turn_taking).toEqual({ end_silence_ms: 500, barge_in_ms: 300, expect: 'dictation', barge_in: false });
  });

  it('carries nothing when the flow says nothing (the kiosk has defaults)', () => {
    const loaded = loadFlow(flow('', ''), 'f.yaml').loaded!;
    const entered = new FlowEngine(loaded, new VirtualClock()).start().find((m): m is FlowStateMessage => m.type === 'flow_state')!;
    expect(entered.turn_taking).toEqual({});
  });

  it('refuses values outside their range, of the wrong kind, or unknown keys, at their line', () => {
    expect(lines(flow('turn_taking:\n  end_silence_ms: 50\n  min_speech_ms: 2500', ''))).toEqual([
      'f.yaml:4:19: error: 50 is below the minimum of 100 [bad-value]',
      'f.yaml:5:18: error: 2500 is above the maximum of 2000 [bad-value]',
    ]);
    expect(lines(flow('', '    turn_taking: { barge_in: sometimes, expect: later, end_silence: 300 }'))).toEqual([
      expect.stringMatching(/^f\.yaml:6:30: error: expected true or false/),
      expect.stringMatching(/^f\.yaml:6:49: error: "later" is not one of auto, free, dictation/),
      expect.stringMatching(/^f\.yaml:6:56: error: .*"end_silence".*did you mean "end_silence_ms"/),
    ]);
    expect(lines(flow('turn_taking: { dictation_silence_ms: 800.5 }', ''))).toEqual([expect.stringMatching(/whole number/)]);
  });

  it('warns when dictated answers would be cut off sooner than free ones', () => {
    expect(lines(flow('turn_taking: { end_silence_ms: 900 }', ''))).toEqual([
      expect.stringMatching(/^f\.yaml:3:32: warning: dictation_silence_ms \(800\) is shorter than end_silence_ms \(900\)/),
    ]);
    expect(lines(flow('', '    turn_taking: { dictation_silence_ms: 200 }'))).toEqual([
      expect.stringMatching(/^f\.yaml:6:42: warning: dictation_silence_ms \(200\) is shorter than end_silence_ms \(350\)/),
    ]);
  });

  it('passes the keys of the words-shaped wait on, and warns when words that stop mid-thought would wait less than a finished answer', () => {
    const loaded = loadFlow(flow('turn_taking: { words: false, unfinished_silence_ms: 1500 }', '    turn_taking: { complete_silence_ms: 250, words: true }'), 'f.yaml').loaded!;
    const entered = new FlowEngine(loaded, new VirtualClock()).start().find((m): m is FlowStateMessage => m.type === 'flow_state')!;
    expect(entered.turn_taking).toEqual({ words: true, unfinished_silence_ms: 1500, complete_silence_ms: 250 });
    expect(lines(flow('turn_taking: { unfinished_silence_ms: 300 }', ''))).toEqual([
      expect.stringMatching(/^f\.yaml:3:39: warning: unfinished_silence_ms \(300\) is shorter than end_silence_ms \(350\)/),
    ]);
    expect(lines(flow('', '    turn_taking: { words: maybe, complete_silence_ms: 50 }'))).toEqual([
      expect.stringMatching(/^f\.yaml:6:27: error: expected true or false/),
      expect.stringMatching(/^f\.yaml:6:55: error: 50 is below the minimum of 100/),
    ]);
  });

  it('is in the JSON Schema for editors, with its limits', () => {
    const schema = flowJsonSchema() as { definitions: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    const tt = schema.definitions['turn_taking']!;
    // An empty value (`end_silence_ms:`) counts as absent, as vfdl check reads it.
    expect(tt.properties['end_silence_ms']).toMatchObject({ type: ['integer', 'null'], minimum: 100, maximum: 5000 });
    expect(tt.properties['expect']).toMatchObject({ enum: ['auto', 'free', 'dictation', null] });
    expect(tt.properties['unfinished_silence_ms']).toMatchObject({ type: ['integer', 'null'], minimum: 100, maximum: 5000 });
    expect(tt.properties['words']).toMatchObject({ type: ['boolean', 'null'] });
  });
});
