// The built-in __error__ state (shown when a flow does not define its own) and the lookup of a
// state by id that knows about it.

import { ERROR, type Flow, type StateDef } from '../language/flow.ts';
import { dict, own } from '../language/records.ts';

/** The state shown when a flow does not define its own __error__. */
export const DEFAULT_ERROR_STATE: StateDef = {
  id: ERROR,
  onEnter: [],
  onExit: [],
  ui: {
    type: 'card',
    declaredType: 'card',
    title: 'Sorry, something went wrong',
    text: 'Nothing you entered has been kept. Please start over, or ask a member of staff for help.',
    fields: [],
    submitLabel: 'Continue',
    options: [],
    actions: [{ event: 'start_over', label: 'Start over' }],
  },
  agent: {
    prompt: 'Something went wrong. Apologise in one short sentence and invite the visitor to start over.',
    tools: [],
    context: 'reset',
  },
  tools: dict(),
  turnTaking: {},
  transitions: { onUiEvent: dict(), onToolCall: dict(), onUtterance: [] },
  terminal: false,
  blockedNotice: { notifyLlm: true, notifyClient: true },
  at: ['states'],
};

export function stateDef(flow: Flow, id: string): StateDef | undefined {
  return own(flow.states, id) ?? (id === ERROR ? DEFAULT_ERROR_STATE : undefined);
}
