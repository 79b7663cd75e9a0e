// What the words heard so far say about the end of a turn, in each of the kiosk's five
// languages (turn-words.ts), and the wait they give in a step: whole answers end sooner, words
// that stop mid-thought or on a number wait longer, and without words the step decides as before.

import { describe, expect, it } from 'vitest';
import { readEnding, turnOver, turnWait, type TurnEnding } from '../../src/voice/turn-words.ts';
import { DEFAULT_TURN_TAKING, type Listening } from '../../src/voice/turn-settings.ts';

type Case = [text: string, ending: TurnEnding, choices?: string[]];

const CASES: Record<string, Case[]> = {
  en: [
    ['yes', 'complete'],
    ['Yes, please.', 'complete'],
    ['No thanks', 'complete'],
    ['yes it is', 'complete'],
    ['Thank you.', 'complete'],
    ['Blue', 'complete', ['Red', 'Blue']],
    ['blue, please', 'complete', ['Red', 'Blue']],
    ['the fifth of March 1984', 'complete'],
    ['the fifth of March nineteen eighty four', 'complete'],
    ['the fifth of March nineteen', 'counting'],
    ['05/03/1984', 'complete'],
    ['it is sam.lee@example.com', 'complete'],
    ['My name is', 'unfinished'],
    ['my name is…', 'unfinished'],
    ['It is', 'unfinished'],
    ['I was born on the fifth of', 'unfinished'],
    ['Maria and', 'unfinished'],
    ['I need, um', 'unfinished'],
    ['I need um', 'unfinished'],
    ["it's", 'unfinished'],
    ['Maria,', 'unfinished'],
    ['My phone number is 555', 'counting'],
    ['five five five', 'counting'],
    ['double seven', 'counting'],
    ['My name is Maria Garcia.', 'plain'],
    ['the blue one', 'plain'],
    ['I am here to collect a prescription', 'plain'],
  ],
  de: [
    ['Ja', 'complete'],
    ['Ja, bitte.', 'complete'],
    ['Nein danke', 'complete'],
    ['Genau', 'complete'],
    ['am fünften März 1984', 'complete'],
    ['Anmelden, bitte', 'complete', ['Anmelden', 'Abbrechen']],
    ['Ich heiße', 'unfinished'],
    ['Mein Name ist', 'unfinished'],
    ['Ich brauche äh', 'unfinished'],
    ['Maria und', 'unfinished'],
    ['Ich bin am', 'unfinished'],
    ['Meine Nummer ist null sieben sieben', 'counting'],
    ['neunzehnhundertvierundachtzig', 'counting'],
    ['Ich heiße Maria Huber', 'plain'],
    ['Ich brauche ein Rezept', 'plain'],
  ],
  fr: [
    ['Oui', 'complete'],
    ['Non merci', 'complete'],
    ["Oui, s'il vous plaît", 'complete'],
    ['le cinq mars 1984', 'complete'],
    ["Je m'appelle", 'unfinished'],
    ['Mon numéro est', 'unfinished'],
    ['Marie et', 'unfinished'],
    ['euh', 'unfinished'],
    ['je suis née le', 'unfinished'],
    ['mon numéro est zéro six douze', 'counting'],
    ['soixante-dix', 'counting'],
    ["Je m'appelle Marie Dupont", 'plain'],
  ],
  es: [
    ['Sí', 'complete'],
    ['No, gracias', 'complete'],
    ['Azul, por favor', 'complete', ['Rojo', 'Azul']],
    ['el cinco de marzo de 1984', 'complete'],
    ['Me llamo', 'unfinished'],
    ['Mi nombre es', 'unfinished'],
    ['eh', 'unfinished'],
    ['María y', 'unfinished'],
    ['nací el cinco de', 'unfinished'],
    ['mi número es seis cero cero', 'counting'],
    ['treinta y dos', 'counting'],
    ['el azul, el otro uno', 'plain'],
    ['Me llamo María García', 'plain'],
  ],
  ar: [
    ['نعم', 'complete'],
    ['لا شكرا', 'complete'],
    ['نعم من فضلك', 'complete'],
    ['اسمي', 'unfinished'],
    ['مريم و', 'unfinished'],
    ['امم', 'unfinished'],
    ['رقم هاتفي', 'unfinished'],
    ['رقمي خمسة خمسة', 'counting'],
    ['٠٥٥٥', 'counting'],
    ['خمسة وعشرين', 'counting'],
    ['اسمي مريم', 'plain'],
  ],
};

describe('how the words heard so far end, by language', () => {
  for (const [language, cases] of Object.entries(CASES)) {
    it(`reads ${language}: whole, mid-thought, on a number, or neither`, () => {
      for (const [text, ending, choices] of cases) expect(readEnding(text, language, choices), `"${text}"`).toBe(ending);
    });
  }

  it('reads a tag by its language ("de-DE"), and a language without lists by English words', () => {
    expect(readEnding('Mein Name ist', 'de-DE')).toBe('unfinished');
    expect(readEnding('my name is', 'it-IT')).toBe('unfinished');
    expect(readEnding('', 'en')).toBe('plain');
  });
});

const free: Listening = { settings: DEFAULT_TURN_TAKING, expectation: 'free', language: 'en-US', choices: ['Red', 'Blue'] };
const dictation: Listening = { ...free, expectation: 'dictation' };

describe('the wait the words give in a step', () => {
  it('without words, the step decides as it always has: 350 ms for a free answer, 800 for a dictated one', () => {
    expect(turnWait(null, free)).toEqual({ waitMs: 350, ending: null });
    expect(turnWait('', dictation)).toEqual({ waitMs: 800, ending: null });
  });

  it('waits longer for words that stop mid-thought, and the dictation wait after a number, at any step', () => {
    expect(turnWait('my name is', free)).toEqual({ waitMs: 1200, ending: 'unfinished' });
    expect(turnWait('my phone number is five five five', free)).toEqual({ waitMs: 800, ending: 'counting' });
    expect(turnWait('zero seven seven', dictation).waitMs).toBe(800);
    expect(turnWait('my number is', dictation).waitMs).toBe(1200);
  });

  it('ends a whole answer sooner, even where a number is asked for', () => {
    expect(turnWait('yes', free)).toEqual({ waitMs: 200, ending: 'complete' });
    expect(turnWait('blue', free).waitMs).toBe(200);
    expect(turnWait('no thanks', dictation).waitMs).toBe(200);
  });

  it('keeps the step\'s wait for words that say nothing either way', () => {
    expect(turnWait('My name is Maria Garcia', free)).toEqual({ waitMs: 350, ending: 'plain' });
    expect(turnWait('I do not have one with me', dictation).waitMs).toBe(800);
  });

  it("follows the flow's settings, and with words: false reads none", () => {
    const tuned: Listening = { ...free, settings: { ...DEFAULT_TURN_TAKING, unfinishedSilenceMs: 2000, completeSilenceMs: 300, endSilenceMs: 500 } };
    expect(turnWait('my name is', tuned).waitMs).toBe(2000);
    expect(turnWait('yes', tuned).waitMs).toBe(300);
    expect(turnWait('Maria', tuned).waitMs).toBe(500);
    const off: Listening = { ...free, settings: { ...DEFAULT_TURN_TAKING, words: false } };
    expect(turnWait('my name is', off)).toEqual({ waitMs: 350, ending: null });
  });

  it('says whether the silence so far ends the turn', () => {
    expect(turnOver('my name is', free, 400)).toBe(false);
    expect(turnOver('my name is', free, 1200)).toBe(true);
    expect(turnOver('yes', free, 224)).toBe(true);
    expect(turnOver(null, free, 320)).toBe(false);
    expect(turnOver(null, free, 352)).toBe(true);
  });
});
