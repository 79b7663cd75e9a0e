// What the visitor asks of the kiosk itself (src/voice/spoken-commands.ts): "say that again",
// "read it to me", "more time", "louder", "quieter", "stop" and an option's number, said whole in
// the visit's language; everything else, and the same words inside a longer answer, are not.

import { describe, expect, it } from 'vitest';
import { COMMAND_PHRASES } from '../../src/voice/command-phrases.ts';
import { foldPhrase } from '../../src/engine/runtime/words.ts';
import { spokenCommand, spokenNumber } from '../../src/voice/spoken-commands.ts';

describe('spokenCommand', () => {
  it.each([
    ['Repeat.', 'en-US', 'repeat'],
    ['Could you say that again, please?', 'en-GB', 'repeat'],
    ['Read it to me', 'en', 'guidance'],
    ['More time please', 'en', 'more_time'],
    ['Louder!', 'en', 'louder'],
    ['quieter please', 'en', 'quieter'],
    ['Stop talking.', 'en', 'stop'],
    ['Wiederholen Sie das bitte', 'de-DE', 'repeat'],
    ['Lesen Sie es mir vor', 'de', 'guidance'],
    ['Ich brauche mehr Zeit', 'de', 'more_time'],
    ['Répétez, s’il vous plaît', 'fr-FR', 'repeat'],
    ['Lisez-le moi', 'fr', 'guidance'],
    ['plus de temps', 'fr', 'more_time'],
    ['¿Puede repetir, por favor?', 'es-ES', 'repeat'],
    ['Léamelo', 'es', 'guidance'],
    ['Más tiempo', 'es', 'more_time'],
    ['كرّر من فضلك', 'ar', 'repeat'],
    ['اقرأ لي', 'ar', 'guidance'],
    ['مزيد من الوقت', 'ar', 'more_time'],
  ])('"%s" in %s is %s', (text, language, command) => {
    expect(spokenCommand(text, language)).toBe(command);
  });

  it.each([
    ['Can you repeat my email address?', 'en'],
    ['My name is Wait', 'en'],
    ['I need more time to think about the colour blue', 'en'],
    ['repeat', 'de'], // the visit's language only
    ['Maria Garcia', 'en'],
    ['', 'en'],
    ['repeat', 'tlh'], // a language with no phrases
  ])('"%s" in %s is no command', (text, language) => {
    expect(spokenCommand(text, language)).toBeNull();
  });

  it('has every command in every language, no phrase twice, and none that is also a number', () => {
    for (const [language, phrases] of Object.entries(COMMAND_PHRASES)) {
      const all = Object.values(phrases.commands).flat().map(foldPhrase);
      expect(new Set(all).size, language).toBe(all.length);
      for (const said of Object.values(phrases.commands)) expect(said.length, language).toBeGreaterThan(0);
      for (const phrase of all) expect(spokenNumber(phrase, language), `${language}: ${phrase}`).toBeNull();
    }
  });
});

describe('spokenNumber', () => {
  it.each([
    ['two', 'en', 2],
    ['Number 3.', 'en', 3],
    ['The second one, please', 'en', 2],
    ['one', 'en', 1],
    ['number one', 'en', 1],
    ['option four', 'en', 4],
    ['zwei', 'de', 2],
    ['Nummer drei', 'de', 3],
    ['la deuxième', 'fr', 2],
    ['el tercero', 'es', 3],
    ['اثنان', 'ar', 2],
    ['الخيار ثلاثة', 'ar', 3],
    ['7', 'tlh', 7],
  ])('"%s" in %s is %i', (text, language, n) => {
    expect(spokenNumber(text, language)).toBe(n);
  });

  it.each([['two coffees'], ['I want red'], ['0'], ['number'], ['one two'], ['']])('"%s" is no number', (text) => {
    expect(spokenNumber(text, 'en')).toBeNull();
  });
});
