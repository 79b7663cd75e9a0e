// Flows in several languages (docs/vfdl.md, "Languages"): texts written as maps, looked up by the
// visit's tag, then its primary subtag, then the flow's language; the checks of the maps; and a
// visit that changes language mid-way, by the runtime or by the model's set_language, keeping
// every value and pending confirmation.

import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { only, ofType, startFlow } from '../support/engine-harness.ts';

const FLOW = `
id: welcome
language: en-US
languages: [en-US, de-DE, es]
title: { en: Welcome, de: Willkommen, es: Bienvenida }
base_prompt: { en: You run a front desk., de: Sie betreuen einen Empfang. }
variables:
  first_name: { type: name }
states:
  ask_name:
    ui:
      artifact_type: form
      title: { en-US: "What's your name?", de: Wie heißen Sie?, es: ¿Cómo se llama? }
      fields:
        - id: first_name
          label: { en: First name, de: Vorname, es: Nombre }
      submit_label: { en: Continue, de: Weiter, es: Continuar }
    agent:
      prompt: Ask for the first name.
      tools: [save_name]
    tools:
      save_name:
        description: Save the name.
        parameters: { first_name: { type: name, required: true } }
    confirmation_gate:
      variables: [first_name]
      on_confirm: done
      prompt: { en: "I heard {first_name}. Is that right?", de: "Ich habe {first_name} verstanden. Stimmt das?", es: "¿Ha dicho {first_name}?" }
      confirm_phrases: { en: [yes, right], de: [ja, stimmt], es: [sí] }
  done:
    ui:
      artifact_type: card
      title: { en: "Thank you, {first_name}", de: "Danke, {first_name}", es: "Gracias, {first_name}" }
`;

/** The one finding of FLOW as written: its base prompt has no Spanish. */
const BASE_PROMPT_IN_SPANISH = 'welcome.yaml:6:14: warning: no text in Spanish (es) here: a visitor in that language sees the en-US text [missing-translation]';

function load(yaml: string) {
  const result = loadFlow(yaml, 'welcome.yaml');
  return { ...result, lines: result.diagnostics.map(formatDiagnostic) };
}

describe('texts in several languages', () => {
  it('load in the default language, and in each other by tag or primary subtag', () => {
    const { loaded, lines } = load(FLOW);
    expect(lines).toEqual([BASE_PROMPT_IN_SPANISH]);
    const en = loaded!.flow;
    expect(en.language).toBe('en-US');
    expect(en.languages).toEqual(['en-US', 'de-DE', 'es']);
    expect(en.title).toBe('Welcome');
    expect(en.states['ask_name']!.ui!.title).toBe("What's your name?");
    expect(en.states['ask_name']!.gate!.confirmPhrases).toEqual(['yes', 'right']);

    const de = loaded!.inLanguage('de-DE').flow;
    expect(de.language).toBe('de-DE');
    expect(de.title).toBe('Willkommen');
    expect(de.states['ask_name']!.ui!.fields[0]!.label).toBe('Vorname');
    expect(de.states['ask_name']!.ui!.submitLabel).toBe('Weiter');
    expect(de.states['ask_name']!.gate!.confirmPhrases).toEqual(['ja', 'stimmt']);
    // A text with no German falls back to the default's.
    expect(de.states['ask_name']!.agent.prompt).toBe('Ask for the first name.');

    // de-AT is served by de-DE (same primary language); French is not offered: the default.
    expect(loaded!.inLanguage('de-AT')).toBe(loaded!.inLanguage('de-DE'));
    expect(loaded!.inLanguage('es-MX').flow.title).toBe('Bienvenida');
    expect(loaded!.inLanguage('fr-FR')).toBe(loaded);
    expect(loaded!.inLanguage('en-US')).toBe(loaded);
  });

  it('check: a language the flow does not offer is an error at its key; a missing one a warning naming it', () => {
    const { loaded, lines } = load(FLOW.replace('de: Willkommen, es: Bienvenida', 'de: Willkommen, fr: Bienvenue'));
    expect(loaded).toBeUndefined();
    expect(lines).toEqual([
      'welcome.yaml:5:8: warning: no text in Spanish (es) here: a visitor in that language sees the en-US text [missing-translation]',
      `welcome.yaml:5:39: error: "fr" is not one of this flow's languages (en-US, de-DE, es); add it to languages, or correct it (did you mean "es"?) [unknown-language]`,
      BASE_PROMPT_IN_SPANISH,
    ]);
    // One more translation missing is one more warning, at its own text.
    const { lines: warned } = load(FLOW.replace('label: { en: First name, de: Vorname, es: Nombre }', 'label: { en: First name, de: Vorname }'));
    expect(warned).toHaveLength(2);
    expect(warned[1]).toMatch(/^welcome.yaml:\d+:\d+: warning: no text in Spanish \(es\) here/);
  });

  it('check: languages must hold the flow\'s language, and both must be language tags', () => {
    expect(load(FLOW.replace('languages: [en-US, de-DE, es]', 'languages: [de-DE, es]')).lines).toContain(
      "welcome.yaml:4:12: error: languages must include the flow's language, en-US [bad-value]",
    );
    expect(load(FLOW.replace('languages: [en-US, de-DE, es]', 'languages: [en-US, de-DE, es, "not a tag"]')).lines).toContain(
      'welcome.yaml:4:31: error: "not a tag" is not a language tag (BCP 47, such as en-US or de) [bad-value]',
    );
  });

  it('check: every translation names only variables that exist', () => {
    const { lines } = load(FLOW.replace('de: "Danke, {first_name}"', 'de: "Danke, {frist_name}"'));
    expect(lines).toEqual([BASE_PROMPT_IN_SPANISH, 'welcome.yaml:33:51: error: the de text refers to unknown variable "frist_name" (did you mean "first_name"?) [unknown-variable]']);
  });

  it('a flow of one language offers no set_language, and its texts may still be maps', () => {
    const one = `
id: hello
language: de-DE
title: { de: Hallo }
states:
  ask:
    ui: { artifact_type: form, title: Wie heißen Sie?, fields: [{ id: first_name, label: { de: Vorname } }] }
    agent: { prompt: Fragen Sie nach dem Namen. }
    transitions: { on_ui_event: { submit: __end__ } }
`;
    const { loaded, lines } = load(one);
    expect(lines).toEqual([]);
    expect(loaded!.flow.title).toBe('Hallo');
    expect(loaded!.flow.states['ask']!.ui!.fields[0]!.label).toBe('Vorname');
    const h = startFlow(one);
    expect(h.engine.view.tools).not.toContain('set_language');
    expect(only(h.started, 'flow_state').agent.system_prompt).not.toContain('The visitor speaks');
  });
});

describe('a visit that changes language', () => {
  it('keeps the pending value, shows the same step again in German, and tells the model to answer in German', () => {
    const h = startFlow(FLOW);
    expect(h.engine.view.language).toBe('en-US');
    expect(only(h.started, 'flow_state').artifact!.title).toBe("What's your name?");
    h.say('my name is anna');
    h.call('save_name', { first_name: 'Anna' });
    const epoch = h.engine.view.epoch;

    const out = h.engine.setLanguage('de-DE');
    const shown = only(out, 'flow_state');
    expect(shown).toMatchObject({ state: 'ask_name', epoch, language: 'de-DE', gate: { first_name: 'pending' }, values: { first_name: 'Anna' } });
    expect(shown.artifact!.title).toBe('Wie heißen Sie?');
    expect(shown.gate_prompt).toBe('Ich habe {first_name} verstanden. Stimmt das?');
    expect(shown.agent.system_prompt).toContain('The visitor speaks German (de-DE). Always answer in German, whatever language these instructions are written in.');
    expect(h.engine.view).toMatchObject({ language: 'de-DE', pending: ['first_name'], values: { first_name: 'Anna' } });
    expect(h.engine.setLanguage('de')).toEqual([]);

    // German yes confirms now; the next step is in German too.
    const next = only(h.say('ja'), 'flow_state');
    expect(next).toMatchObject({ state: 'done', language: 'de-DE' });
    expect(next.artifact!.title).toBe('Danke, Anna');
  });

  it('is kept by a snapshot: the visit resumes in the language it had', () => {
    const h = startFlow(FLOW);
    h.engine.setLanguage('es');
    const kept = JSON.parse(JSON.stringify(h.engine.snapshot())) as unknown;
    const restored = FlowEngine.restore(loadFlow(FLOW).loaded!, new VirtualClock(), kept);
    if ('problem' in restored) throw new Error(restored.problem);
    expect(restored.engine.view.language).toBe('es');
    expect(only(restored.messages, 'flow_state').artifact!.title).toBe('¿Cómo se llama?');
  });

  it('by the model: set_language is offered in each step, takes a tag or its language, and refuses one the flow does not speak', () => {
    const h = startFlow(FLOW);
    expect(h.engine.view.tools).toContain('set_language');
    const spec = only(h.started, 'flow_state').agent.tools.find((t) => t.function.name === 'set_language')!;
    expect(spec.function.parameters.properties['language']).toMatchObject({ enum: ['en-US', 'de-DE', 'es'] });

    const refused = h.call('set_language', { language: 'fr' });
    expect(only(refused, 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments', field: 'language' });
    expect(ofType(refused, 'flow_state')).toEqual([]);

    const out = h.call('set_language', { language: 'es-ES' });
    expect(only(out, 'tool_result')).toMatchObject({ ok: true, content: { language: 'es' } });
    expect(only(out, 'flow_state')).toMatchObject({ language: 'es', state: 'ask_name' });
    expect(h.engine.view.language).toBe('es');
  });

  it('by the model: set_language takes its arguments as the model sends them, as JSON text', () => {
    const h = startFlow(FLOW);
    const out = h.call('set_language', '{"language":"de-DE"}');
    expect(only(out, 'tool_result')).toMatchObject({ ok: true, content: { language: 'de-DE' } });
    expect(only(out, 'flow_state')).toMatchObject({ language: 'de-DE' });
    expect(only(h.call('set_language', '{"language":'), 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments' });
  });

  it('each new visit starts in the default language', () => {
    const h = startFlow(FLOW);
    h.engine.setLanguage('de-DE');
    const again = new FlowEngine(h.engine.loaded.inLanguage('en-US'), new VirtualClock());
    expect(only(again.start(), 'flow_state').language).toBe('en-US');
  });
});

/** A German flow whose gate has no question of its own, with a form left to fill. */
const GERMAN_GATE = `
id: cues
language: de-DE
variables:
  first_name: { type: name }
  date_of_birth: { type: date }
states:
  ask:
    ui:
      artifact_type: form
      fields:
        - { id: first_name, type: text, label: Vorname }
        - { id: date_of_birth, type: date, label: Geburtsdatum }
    agent: { prompt: Frage nach dem Namen., tools: [save_name] }
    tools:
      save_name: { parameters: { first_name: { type: name, required: true } } }
    confirmation_gate: { variables: [first_name, date_of_birth], on_confirm: done, confirm_phrases: [ja] }
    transitions: { on_ui_event: { form_submit: done } }
  done: { ui: { artifact_type: card, title: Danke }, transitions: { on_ui_event: { finish: __end__ } } }
`;

/** A Spanish flow with an action behind the visitor's yes. */
const SPANISH_ACTION = `
id: booking
language: es-ES
variables:
  time: { type: string }
states:
  book:
    ui: { artifact_type: card, title: Cita, actions: [ { event: cancel, label: Cancelar } ] }
    agent: { prompt: Reserva., tools: [book_slot] }
    tools:
      book_slot:
        confirm: true
        summary: "Reservar la cita de las {time}"
        parameters: { time: { type: string, required: true } }
    transitions: { on_tool_call: { book_slot: __end__ }, on_ui_event: { cancel: __end__ } }
`;

describe("the engine's own cues in the visit's language", () => {
  it('the gate’s question without the flow’s words, what comes next, and an answer too long', () => {
    const h = startFlow(GERMAN_GATE);
    expect(only(h.call('save_name', { first_name: 'Anna' }), 'speech_cue').text).toBe('Ich habe Anna verstanden. Stimmt das?');
    expect(only(h.say('ja'), 'speech_cue').text).toBe('Vielen Dank. Als Nächstes: Geburtsdatum.');
    expect(only(h.say('x'.repeat(1001)), 'speech_cue').text).toBe('Das war mehr, als ich auf einmal aufnehmen kann. Bitte sagen Sie es noch einmal kürzer.');
  });

  it('a pending action’s question', () => {
    const h = startFlow(SPANISH_ACTION);
    expect(only(h.call('book_slot', { time: '10:30' }), 'speech_cue').text).toBe('Reservar la cita de las 10:30. ¿Quiere que continúe?');
  });
});
