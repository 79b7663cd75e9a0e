// Ids the screen draws lists by must differ within their list (duplicate-id); state ids are
// mapping keys, which YAML itself refuses to repeat (duplicate-key). The golden fixture
// duplicate-id.yml shows every kind of list; these cases show where the rule stops.

import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';

const check = (yaml: string) => {
  const r = loadFlow(yaml, 'f.yaml');
  return { loads: r.loaded !== undefined, lines: r.diagnostics.map(formatDiagnostic) };
};

describe('duplicate ids', () => {
  it('refuses two options that are written differently (a plain value and a mapping with that id)', () => {
    const { loads, lines } = check(`
id: d
states:
  pick:
    ui: { artifact_type: options, variable: n, options: ["1", { id: "1", label: One }] }
    transitions: { on_ui_event: { option_select: __end__ } }
`);
    expect(loads).toBe(false);
    expect(lines).toEqual(['f.yaml:5:69: error: option "1" is given twice in this list (entry 1 and entry 2); each must be different [duplicate-id]']);
  });

  it('allows the same id in different lists and in different states', () => {
    const { loads, lines } = check(`
id: d
states:
  one:
    ui:
      artifact_type: form
      fields: [ { id: size, type: select, options: [small, large] }, { id: colour, type: radio, options: [small, large] } ]
      actions: [ { event: size, label: Size } ]
    transitions: { on_ui_event: { form_submit: two, size: two } }
  two:
    ui: { artifact_type: options, variable: size, options: [small, large], actions: [ { event: size, label: Size } ] }
    transitions: { on_ui_event: { option_select: __end__, size: __end__ } }
`);
    expect({ loads, lines }).toEqual({ loads: true, lines: [] });
  });

  it('leaves a repeated state id to YAML: duplicate-key at the second one', () => {
    const { loads, lines } = check(`
id: d
states:
  a:
    transitions: { on_ui_event: { go: __end__ } }
  a:
    transitions: { on_ui_event: { go: __end__ } }
`);
    expect(loads).toBe(false);
    expect(lines).toEqual(['f.yaml:6:3: error: key "a" is given twice in this mapping [duplicate-key]']);
  });
});
