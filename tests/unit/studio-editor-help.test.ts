// The studio's editor help (issue 34): where the cursor is in a flow as the schema sees it (the
// path of keys by indentation and braces, a key or a value being written), and what the schema
// (schema/vfdl.schema.json) offers there: the keys a mapping may have, the values a key may take,
// whether a value names a state, and the words of hover help. Also where each state is written,
// for a click on the diagram.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SchemaHelp, type SchemaNode } from '../../src/studio/editor/schema-help.ts';
import { placeAt } from '../../src/studio/editor/yaml-place.ts';
import { checkFlow, stateRanges } from '../../src/studio/flow-checks.ts';

const help = new SchemaHelp(JSON.parse(readFileSync('schema/vfdl.schema.json', 'utf8')) as SchemaNode);
/** The place of the `|` in `text`. */
const at = (text: string) => placeAt(text.replace('|', ''), text.indexOf('|'));

describe('where the cursor is', () => {
  it('reads the path of a key being written from the indentation, list items too', () => {
    expect(at('id: x\nstates:\n  ask:\n    tra|')).toMatchObject({ writing: 'key', path: ['states', 'ask'], word: 'tra' });
    expect(at('states:\n  ask:\n    ui:\n      fields:\n        - id: n\n          ty|')).toMatchObject({ writing: 'key', path: ['states', 'ask', 'ui', 'fields', 0], word: 'ty' });
    expect(at('vfdl: 1\nst|')).toMatchObject({ writing: 'key', path: [], word: 'st' });
  });

  it('knows a value, in a block or inside braces and brackets', () => {
    expect(at('states:\n  ask:\n    transitions:\n      on_ui_event:\n        form_submit: |')).toMatchObject({ writing: 'value', path: ['states', 'ask', 'transitions', 'on_ui_event', 'form_submit'], key: 'form_submit' });
    expect(at('states:\n  ask:\n    ui: { artifact_type: fo|')).toMatchObject({ writing: 'value', path: ['states', 'ask', 'ui', 'artifact_type'], word: 'fo' });
    expect(at('states:\n  ask:\n    ui: { artifact_type: form, fie|')).toMatchObject({ writing: 'key', path: ['states', 'ask', 'ui'], word: 'fie' });
    expect(at('states:\n  ask:\n    agent:\n      tools: [save_x, |')).toMatchObject({ writing: 'value', path: ['states', 'ask', 'agent', 'tools', 0], key: 'tools' });
    expect(at('states:\n  ask:\n    on_enter: [ { call: |')).toMatchObject({ writing: 'value', path: ['states', 'ask', 'on_enter', 0, 'call'], key: 'call' });
  });
});

describe('what the schema offers', () => {
  it('the keys of a state, of its transitions and of a guard condition, with their descriptions', () => {
    expect(help.keys(['states', 'ask']).map((k) => k.label)).toEqual(expect.arrayContaining(['ui', 'agent', 'transitions', 'confirmation_gate', 'on_enter']));
    expect(help.keys(['states', 'ask', 'transitions']).map((k) => k.label)).toEqual(expect.arrayContaining(['on_ui_event', 'on_tool_call', 'on_utterance', 'on_timeout', 'on_no_match']));
    const condition = help.keys(['states', 'ask', 'transitions', 'on_ui_event', 'form_submit', 0, 'guard', 'all', 0]);
    // An item of all: is a condition or a nested group.
    expect(condition.map((k) => k.label)).toEqual(['variable', 'age_of', 'operator', 'value', 'all', 'any']);
    expect(condition.find((k) => k.label === 'age_of')!.description).toContain('age in whole years');
    expect(condition.find((k) => k.label === 'operator')!.required).toBe(true);
  });

  it('the values a key may take, and whether it names a state', () => {
    expect(help.values(['states', 'ask', 'ui', 'artifact_type']).map((v) => v.label)).toEqual(expect.arrayContaining(['form', 'options', 'card']));
    expect(help.values(['states', 'ask', 'transitions', 'on_ui_event', 'form_submit', 0, 'guard', 'all', 0, 'operator']).map((v) => v.label)).toEqual(['eq', 'neq', 'in', 'not_in', 'empty', 'not_empty', 'gt', 'lt', 'gte', 'lte', 'matches']);
    expect(help.values(['variables', 'x', 'required']).map((v) => v.label)).toEqual(['true', 'false']);
    expect(help.namesState(['states', 'ask', 'transitions', 'on_ui_event', 'form_submit'])).toBe(true);
    expect(help.namesState(['states', 'ask', 'transitions', 'on_timeout', 'fallback'])).toBe(true);
    expect(help.namesState(['states', 'ask', 'ui', 'artifact_type'])).toBe(false);
    expect(help.description(['states', 'ask', 'transitions', 'on_ui_event'])).toBe('UI event -> target');
  });
});

describe("the studio's reading of a flow", () => {
  const clinic = readFileSync('flows/clinic-checkin.yaml', 'utf8');

  it('finds where each state is written, from its key to the end of what it holds', () => {
    const ranges = stateRanges(clinic);
    expect(Object.keys(ranges)).toEqual(['identify', 'reason', 'appointment', 'no_appointment', 'appointment_summary', 'summary', 'checked_in', 'front_desk']);
    expect(clinic.slice(ranges['reason']!.key, ranges['reason']!.key + 'reason:'.length)).toBe('reason:');
    expect(clinic.slice(ranges['identify']!.key, ranges['identify']!.end)).toContain('confirmation_gate:');
    expect(clinic.slice(ranges['identify']!.key, ranges['identify']!.end)).not.toContain('  reason:');
  });

  it("says what the checker says, and what the preview needs: languages, states, variables, the actions' tools", () => {
    const checked = checkFlow(clinic, 'clinic-checkin.yaml');
    expect(checked).toMatchObject({ diagnostics: [], runnable: true });
    expect(checked.summary).toMatchObject({ languages: ['en-US', 'de-DE', 'es-US'], initial: 'identify', actionTools: ['check_in', 'find_appointment'] });
    const broken = checkFlow(clinic.replace('on_confirm: reason', 'on_confirm: reasons'), 'clinic-checkin.yaml');
    expect(broken.runnable).toBe(false);
    expect(broken.diagnostics[0]).toMatchObject({ code: 'unknown-target', severity: 'error' });
    expect(broken.summary?.states).toContain('reason');
  });
});
