// The offline agent's reading of yes and no answers.

import { describe, expect, it } from 'vitest';
import { classifyYesNo, readAnswer, wantsChange } from '../../src/adapters/offline-agent/yes-no.ts';

describe('classifyYesNo', () => {
  it.each([
    'yes', 'Yes.', 'yeah', 'yep', 'sure', 'ok', 'Okay!', "that's right", 'That’s right', 'correct',
    'yes please', 'um, yes', 'oh yeah that is correct', 'absolutely', 'go ahead', 'it is', 'right',
  ])('%j is a yes', (text) => {
    expect(classifyYesNo(text)).toBe('yes');
  });

  it.each([
    'no', 'No!', 'nope', "that's wrong", 'not quite', 'No, it is Alice', "no it's alice", 'well, no',
    "that's not right", 'it is not', "it's not", 'incorrect', 'cancel',
  ])('%j is a no', (text) => {
    expect(classifyYesNo(text)).toBe('no');
  });

  it.each(['Alex', 'blue', 'my name is Alex', 'maybe', 'not sure', '', 'I know', 'yesterday', 'nobody'])('%j is neither', (text) => {
    expect(classifyYesNo(text)).toBeNull();
  });
});

describe('readAnswer', () => {
  it.each<[string, 'yes' | 'no' | null, string]>([
    ["No, it's Marta", 'no', "it's Marta"],
    ['um, no. My date of birth is wrong', 'no', 'My date of birth is wrong'],
    ["yes that's right", 'yes', "that's right"],
    ['Yes.', 'yes', ''],
    ['that’s not right, it’s Sam', 'no', 'it’s Sam'],
    ['Marta', null, 'Marta'],
  ])('%j → %s and %j', (text, answer, rest) => {
    expect(readAnswer(text)).toEqual({ answer, rest });
  });
});

describe('wantsChange', () => {
  it.each(['change my details', 'I need to edit that', 'my date of birth is wrong', 'can I go back', "that's a mistake"])('%j asks to change', (text) => {
    expect(wantsChange(text)).toBe(true);
  });

  it.each(['yes', 'check me in', 'Maria Garcia', 'walk in'])('%j does not', (text) => {
    expect(wantsChange(text)).toBe(false);
  });
});
