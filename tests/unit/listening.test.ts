// What the kiosk listens for in a step: the flow's turn_taking over the defaults, and a dictated
// or a free answer from the field being asked.

import { describe, expect, it } from 'vitest';
import { TURN_TAKING_DEFAULTS } from '../../src/engine/language/flow.ts';
import { expectedAnswer, turnTakingFor } from '../../src/voice/listening.ts';

const fields = [
  { id: 'full_name', type: 'text' as const },
  { id: 'date_of_birth', type: 'date' as const },
  { id: 'phone', type: 'tel' as const },
];

describe('listening settings', () => {
  it('fills what the flow leaves out with the defaults', () => {
    expect(turnTakingFor({})).toEqual(TURN_TAKING_DEFAULTS);
    expect(turnTakingFor({ end_silence_ms: 500, barge_in: false })).toEqual({ ...TURN_TAKING_DEFAULTS, endSilenceMs: 500, bargeIn: false });
  });

  it('expects a dictated answer when the first empty field is a date, phone, number or email', () => {
    const empty = new Set(['full_name', 'date_of_birth', 'phone']);
    const context = { fields, isEmpty: (v: string) => empty.has(v), actionPending: false };
    expect(expectedAnswer(context)).toBe('free');
    empty.delete('full_name');
    expect(expectedAnswer(context)).toBe('dictation');
    empty.delete('date_of_birth');
    expect(expectedAnswer(context)).toBe('dictation');
    empty.delete('phone');
    expect(expectedAnswer(context)).toBe('free');
    for (const type of ['number', 'email'] as const) {
      expect(expectedAnswer({ fields: [{ id: 'x', type }], isEmpty: () => true, actionPending: false })).toBe('dictation');
    }
  });

  it('expects a yes or no while an action waits for confirmation', () => {
    expect(expectedAnswer({ fields, isEmpty: (v) => v === 'phone', actionPending: true })).toBe('free');
  });

  it('still expects the next empty field while an earlier value waits for confirmation', () => {
    // the name heard (pending), the date of birth not yet: the date is dictated next
    expect(expectedAnswer({ fields, isEmpty: (v) => v !== 'full_name', actionPending: false })).toBe('dictation');
  });

  it('lets the flow say what to expect', () => {
    expect(expectedAnswer({ expect: 'dictation', fields: [], isEmpty: () => true, actionPending: true })).toBe('dictation');
    expect(expectedAnswer({ expect: 'free', fields, isEmpty: (v) => v !== 'full_name', actionPending: false })).toBe('free');
    expect(expectedAnswer({ expect: 'auto', fields, isEmpty: (v) => v !== 'full_name', actionPending: false })).toBe('dictation');
  });
});
