// The bundled examples in each of their languages (issue 17): every text a visitor reads or hears
// is written in each language the flow offers (a plain string would show the English to all of
// them, and vfdl check cannot tell it from a name), and what the flows understand by voice works in
// each: the gate's own yes, the site rules' agreement and the way out to a person.

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { keyServes } from '../../src/engine/language/localize.ts';
import { fits } from '../../src/engine/language/structure-check.ts';
import { flowShape, type Shape } from '../../src/engine/language/syntax.ts';
import { only, startFlow } from '../support/engine-harness.ts';

const FLOWS = {
  onboarding: ['en-US', 'de-DE', 'fr-FR', 'es-ES'],
  'clinic-checkin': ['en-US', 'de-DE', 'es-US'],
  'visitor-signin': ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'ar'],
} as const;

type Example = keyof typeof FLOWS;

const yamlOf = (name: Example) => readFileSync(new URL(`../../flows/${name}.yaml`, import.meta.url), 'utf8');

/** Texts for the model, not the visitor: they stay in English, and the engine tells the model the visit's language. */
const FOR_THE_MODEL = /^(base_prompt|settings\.base_system_prompt|states\.\w+\.agent\.prompt)$/;

/** Texts that read the same in every language. */
const SAME_IN_EVERY_LANGUAGE: Readonly<Record<string, string>> = {
  'states.details.ui.fields.1.placeholder': 'name@example.com',
};

/** Every place of the document where a text a person reads or hears may stand, with what stands there. */
function textsOf(shape: Shape, value: unknown, path: string[] = [], out: { path: string; value: unknown }[] = []): typeof out {
  const mapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  switch (shape.kind) {
    case 'union':
      if (shape.localized) out.push({ path: path.join('.'), value });
      else {
        const option = shape.options.find((o) => fits(o, value));
        if (option) textsOf(option, value, path, out);
      }
      break;
    case 'array':
      if (Array.isArray(value)) value.forEach((item, i) => textsOf(shape.items, item, [...path, String(i)], out));
      break;
    case 'map':
      if (mapping(value)) for (const [k, v] of Object.entries(value)) textsOf(shape.values, v, [...path, k], out);
      break;
    case 'object':
      if (mapping(value)) {
        for (const [k, v] of Object.entries(value)) {
          const prop = Object.hasOwn(shape.props, k) ? shape.props[k] : undefined;
          if (prop) textsOf(prop.shape, v, [...path, k], out);
        }
      }
      break;
    default:
      break;
  }
  return out;
}

describe.each(Object.keys(FLOWS) as Example[])('flows/%s.yaml', (name) => {
  const doc = parse(yamlOf(name)) as Record<string, unknown>;
  const languages = FLOWS[name];

  it('speaks English by default and at least one other language', () => {
    expect(doc['language']).toBe('en-US');
    expect(doc['languages']).toEqual(languages);
  });

  it('writes every text a visitor reads or hears in each of its languages; the prompts for the model stay in English', () => {
    const texts = textsOf(flowShape, doc).filter((t) => !FOR_THE_MODEL.test(t.path));
    expect(texts.length).toBeGreaterThan(10);
    const untranslated = texts.filter((t) => {
      if (typeof t.value === 'string') return SAME_IN_EVERY_LANGUAGE[t.path] !== t.value;
      const keys = Object.keys(t.value as Record<string, unknown>);
      return !languages.every((tag) => keys.some((key) => keyServes(key, tag)));
    });
    expect(untranslated.map((t) => t.path)).toEqual([]);
    const prompts = textsOf(flowShape, doc).filter((t) => FOR_THE_MODEL.test(t.path));
    expect(prompts.every((t) => typeof t.value === 'string')).toBe(true);
  });
});

describe('the way out to a person, said in each language', () => {
  const SAID: readonly (readonly [Example, string, string, string])[] = [
    ['visitor-signin', 'en-US', 'Can I talk to a real person?', 'reception'],
    ['visitor-signin', 'de-DE', 'Ich möchte bitte mit einem Menschen sprechen.', 'reception'],
    ['visitor-signin', 'fr-FR', "Je voudrais parler à quelqu'un, s'il vous plaît.", 'reception'],
    ['visitor-signin', 'es-ES', 'Quiero hablar con una persona.', 'reception'],
    ['visitor-signin', 'ar', 'أريد التحدث مع موظف من فضلك', 'reception'],
    ['clinic-checkin', 'en-US', 'I need to speak to someone at the front desk', 'front_desk'],
    ['clinic-checkin', 'de-DE', 'Kann ich mit der Anmeldung sprechen?', 'front_desk'],
    ['clinic-checkin', 'es-US', '¿Puedo hablar con alguien, por favor?', 'front_desk'],
  ];

  it.each(SAID)('%s in %s: "%s" leads to %s', (name, language, said, target) => {
    const h = startFlow(yamlOf(name));
    h.engine.setLanguage(language);
    h.say(said);
    expect(h.engine.view.state).toBe(target);
  });
});

describe('visitor sign-in in each of its five languages', () => {
  const VISITS = [
    { language: 'en-US', yes: 'Yes, that’s right.', agree: 'Yes, I agree.', facilities: 'Facilities', badge: 'Facilities has been told you are here.' },
    { language: 'de-DE', yes: 'Ja, das stimmt.', agree: 'Ja, einverstanden.', facilities: 'Haustechnik', badge: 'Haustechnik weiß Bescheid, dass Sie da sind.' },
    { language: 'fr-FR', yes: 'Oui, c’est ça.', agree: "D'accord, j'accepte.", facilities: 'Services généraux', badge: 'Nous avons prévenu Services généraux de votre arrivée.' },
    { language: 'es-ES', yes: 'Sí, es correcto.', agree: 'Sí, acepto.', facilities: 'Mantenimiento', badge: 'Hemos avisado a Mantenimiento de su llegada.' },
    { language: 'ar', yes: 'نعم، صحيح', agree: 'نعم، أوافق', facilities: 'قسم المرافق', badge: 'أبلغنا قسم المرافق بوصولك.' },
  ];

  it.each(VISITS)('$language: the gate opens on its own yes, the rules on its agreement, and every screen is in it', (v) => {
    const h = startFlow(yamlOf('visitor-signin'));
    if (v.language !== 'en-US') expect(only(h.engine.setLanguage(v.language), 'flow_state').language).toBe(v.language);
    h.call('save_name', { full_name: 'Sam Lee' });
    h.say('sam@example.com');
    expect(h.engine.view.pending).toEqual(['full_name', 'email']);
    h.say(v.yes);
    expect(h.engine.view.state).toBe('host');
    const host = only(h.ui('option_select', { value: 'Facilities' }), 'flow_state');
    expect(host.state).toBe('rules');
    const rules = host.artifact;
    expect(rules?.text).toContain(v.facilities);
    const badge = only(h.say(v.agree), 'flow_state');
    expect(badge.state).toBe('badge');
    expect(badge.artifact?.text).toContain(v.badge);
    expect(h.engine.view.values).toMatchObject({ full_name: 'Sam Lee', email: 'sam@example.com', host: 'Facilities', rules_accepted: true });
  });
});
