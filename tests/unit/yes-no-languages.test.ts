// The engine's reading of yes and no in each language the kiosk speaks (engine/runtime/yes-no.ts,
// the words in answer-words.ts): plain answers, answers with accents left out, a "no" that goes on
// with the right value ("nein, Maria", "non, c'est Marie", "no, es María"), phrases that only look
// like an answer ("kein Problem"), and the refusals that stop the model confirming for the visitor.

import { describe, expect, it } from 'vitest';
import { foldWord, wordsOf } from '../../src/engine/runtime/words.ts';
import { classifyYesNo, isRefusal, readAnswer, type YesNo } from '../../src/engine/runtime/yes-no.ts';

const ANSWERS: readonly [string, string, YesNo | null][] = [
  ['de', 'ja', 'yes'],
  ['de', 'Ja, genau.', 'yes'],
  ['de', 'äh, das stimmt', 'yes'],
  ['de', 'in Ordnung', 'yes'],
  ['de', 'jawohl', 'yes'],
  ['de', 'nein', 'no'],
  ['de', 'Nö', 'no'],
  ['de', 'nee', 'no'],
  ['de', 'das ist falsch', 'no'],
  ['de', 'stimmt nicht', 'no'],
  ['de', 'kein Problem', null],
  ['de', 'Maria', null],
  ['fr', 'oui', 'yes'],
  ['fr', 'Oui, c’est ça', 'yes'],
  ['fr', "d'accord", 'yes'],
  ['fr', 'euh, tout à fait', 'yes'],
  ['fr', 'non', 'no'],
  ['fr', "ce n'est pas ça", 'no'],
  ['fr', 'pas du tout', 'no'],
  ['fr', 'pas de problème', null],
  ['fr', "c'est Marie", null],
  ['es', 'sí', 'yes'],
  ['es', 'si', 'yes'],
  ['es', 'Sí, correcto', 'yes'],
  ['es', 'vale', 'yes'],
  ['es', 'de acuerdo', 'yes'],
  ['es', 'no', 'no'],
  ['es', 'No, no es correcto', 'no'],
  ['es', 'está mal', 'no'],
  ['es', 'no hay problema', null],
  ['es', 'María', null],
  ['ar', 'نعم', 'yes'],
  ['ar', 'نَعَم', 'yes'],
  ['ar', 'أجل', 'yes'],
  ['ar', 'اجل', 'yes'],
  ['ar', 'صحيح', 'yes'],
  ['ar', 'لا', 'no'],
  ['ar', 'كلا', 'no'],
  ['ar', 'غير صحيح', 'no'],
  ['ar', 'لا مشكلة', null],
  ['ar', 'مريم', null],
];

describe('yes and no in each language', () => {
  it.each(ANSWERS)('%s: %j is %s', (language, text, answer) => {
    expect(classifyYesNo(text, language)).toBe(answer);
  });

  it.each<[string, string, string]>([
    ['de', 'nein, Maria', 'Maria'],
    ['de', 'Nein. Ich heiße Maria.', 'Ich heiße Maria.'],
    ['fr', "non, c'est Marie", "c'est Marie"],
    ['fr', 'Non, je m’appelle Marie', 'je m’appelle Marie'],
    ['es', 'no, es María', 'es María'],
    ['es', 'No. Me llamo María', 'Me llamo María'],
    ['ar', 'لا، مريم', 'مريم'],
  ])('%s: %j is a no, and goes on with %j', (language, text, rest) => {
    expect(readAnswer(text, language)).toEqual({ answer: 'no', rest });
  });

  it.each<[string, string, boolean]>([
    ['nein, Maria', 'de-DE', true],
    ['nein, nein, das stimmt', 'de', false],
    ["non, c'est Marie", 'fr-FR', true],
    ['no, es María', 'es-ES', true],
    ['لا', 'ar', true],
    ['لا مشكلة', 'ar', false],
    ['نعم', 'ar-SA', false],
  ])('%j in %s is a refusal: %s', (text, language, refusal) => {
    expect(isRefusal(text, language)).toBe(refusal);
  });

  it('reads English where no language is given, and nothing in a language it has no words for', () => {
    expect(classifyYesNo('yes')).toBe('yes');
    expect(classifyYesNo('sì', 'it')).toBeNull();
    expect(readAnswer('no', 'sv')).toEqual({ answer: null, rest: 'no' });
  });
});

describe('words as they are compared', () => {
  it.each<[string, string]>([
    ['Sí', 'si'],
    ['März', 'marz'],
    ['Straße', 'strasse'],
    ['FRANÇAIS', 'francais'],
    ['It’s', "it's"],
    ['نَعَم', 'نعم'],
    ['أجل', 'اجل'],
    ['العربيّة', 'العربيه'],
  ])('%j is %j', (word, folded) => {
    expect(foldWord(word)).toBe(folded);
  });

  it('keeps where each word stands in the text as written', () => {
    const text = 'Oui, c’est Hélène';
    expect(wordsOf(text).map((w) => [w.text, text.slice(w.start, w.end)])).toEqual([
      ['oui', 'Oui'],
      ["c'est", 'c’est'],
      ['helene', 'Hélène'],
    ]);
  });
});
