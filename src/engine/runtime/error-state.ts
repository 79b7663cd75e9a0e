// The built-in __error__ state (shown when a flow does not define its own) and the lookup of a
// state by id that knows about it.

import { ERROR, type Flow, type StateDef } from '../language/flow.ts';
import { dict, own } from '../language/records.ts';
import { kioskSentence } from './kiosk-sentences.ts';

/** The built-in __error__ state in each language asked for so far. */
const errorStates = new Map<string, StateDef>();

/**
 * The state shown when a flow does not define its own __error__: a card in `language` (the
 * kiosk's own words, English for a language it has none for) that apologises and offers to start
 * over. Its prompt is for the LLM, which is told the visit's language with every prompt.
 */
export function defaultErrorState(language = 'en'): StateDef {
  let state = errorStates.get(language);
  if (state) return state;
  state = {
    id: ERROR,
    onEnter: [],
    onExit: [],
    ui: {
      type: 'card',
      declaredType: 'card',
      title: kioskSentence('error_title', language),
      text: kioskSentence('error_text', language),
      fields: [],
      options: [],
      actions: [{ event: 'start_over', label: kioskSentence('start_over', language) }],
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
  errorStates.set(language, state);
  return state;
}

export function stateDef(flow: Flow, id: string): StateDef | undefined {
  return own(flow.states, id) ?? (id === ERROR ? defaultErrorState(flow.language) : undefined);
}
