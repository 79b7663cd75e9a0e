// Flow authors, round two (issue 30): what three new flows (a hotel check-in in English and French,
// a pharmacy pick-up, a survey) could not write, or wrote and then met silently at run time. Each
// describe is one point of the issue; the diagnostics of the checker are in the golden fixtures
// (tests/fixtures/diagnostics) and the whole flows in tests/fixtures/authoring with their
// conversation tests.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { only, startFlow } from '../support/engine-harness.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('card labels in several languages (point 4)', () => {
  const card = `
id: hotel
language: en
languages: [en, fr]
variables:
  room_number: { type: string, default: "214" }
states:
  room:
    ui:
      artifact_type: card
      title: { en: Welcome, fr: Bienvenue }
      params:
        - { label: { en: Room, fr: Chambre }, value: "{room_number}" }
        - { label: { en: Breakfast, fr: Petit-déjeuner }, value: "7:00-10:00" }
    transitions: { on_ui_event: { done: __end__ } }
`;

  it('shows each label in the visit language, in the order written', () => {
    const h = startFlow(card);
    expect(only(h.started, 'flow_state').artifact?.params).toEqual({ Room: '214', Breakfast: '7:00-10:00' });
    const shown = only(h.engine.setLanguage('fr-FR'), 'flow_state');
    expect(Object.entries(shown.artifact?.params ?? {})).toEqual([
      ['Chambre', '214'],
      ['Petit-déjeuner', '7:00-10:00'],
    ]);
  });

  it('refuses a text map as a mapping key, saying so as a diagnostic and not on stderr', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const result = loadFlow(card.replace(/params:\n[\s\S]*?(?=    transitions)/, 'params:\n        { en: Room, fr: Chambre }: "{room_number}"\n'), 'hotel.yaml');
    expect(result.loaded).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([['wrong-type', 13]]);
    expect(warn).not.toHaveBeenCalled();
    expect(consoleWarn).not.toHaveBeenCalled();
  });
});
