// The offline agent's reading of yes and no answers.

import { describe, expect, it } from 'vitest';
import { classifyYesNo } from '../../src/adapters/offline-agent/yes-no.ts';

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
