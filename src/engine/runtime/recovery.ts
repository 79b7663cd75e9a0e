// The way out when a step fails inside the engine (a bug, a port that throws, input no check
// foresaw): the run goes to `settings.on_error` or `__error__` as a `fatal_error` would take it,
// so one exception never leaves the kiosk without an answer. Pure, like the rest of the engine.

import type { Catalog } from '../language/catalog.ts';
import { defaultErrorState } from './error-state.ts';
import { ERROR, type Flow } from '../language/flow.ts';
import { handleFatal } from './inputs.ts';
import { enterState, exitState } from './lifecycle.ts';
import type { EngineMessage } from './messages.ts';
import { copy, dict, own } from '../language/records.ts';
import { newSession, Turn, type Session } from './session.ts';

/** Where the run stands after a failed step, and what the runtime must hear about it. */
export interface Recovered {
  session: Session;
  messages: EngineMessage[];
}

/** What the LLM is told: the error's own text is for the operator (`engine_error`), not the model. */
const NOTE_FOR_LLM = 'the flow engine met an internal error';

/** The error's own text, however odd the thrown value. */
export function errorText(error: unknown): string {
  try {
    const text = error instanceof Error ? error.message : String(error);
    return text || 'an error without a message';
  } catch {
    return 'an error that cannot be described';
  }
}

/**
 * The regular way to the error state: the failed state's exit rules (pending values are cleared, a
 * pending action is cancelled, its on_exit runs), then the error state's entry sequence, exactly
 * as a `fatal_error` does it. `base` is the session from before the failed step, or null when the
 * first state was never entered. A run already in the error state stays there.
 */
export function toErrorState(flow: Flow, cat: Catalog, base: Session | null, now: number): Recovered {
  const t = new Turn(flow, cat, { ...(base ?? newSession(flow, now)), next: null, from: null });
  handleFatal(t, NOTE_FOR_LLM);
  const next = t.s.next;
  if (next === null) return { session: t.s, messages: t.out };
  if (base !== null) exitState(t, base.state);
  enterState(t, next.target);
  // The error state stays where it is: a move its own entry decided (a failed call) is not taken.
  return { session: { ...t.s, next: null }, messages: t.out };
}

/**
 * When even the regular way fails (the failed state's on_exit or the error state's entry throws
 * too): the built-in `__error__` card, made here from plain data with nothing that could throw.
 * Unconfirmed values are dropped and a pending action is cancelled, as on any exit.
 */
export function lastResort(flow: Flow, base: Session | null, now: number): Recovered {
  const from = base ?? newSession(flow, now);
  const messages: EngineMessage[] = [];
  const values = copy(from.values);
  for (const v of Object.keys(from.gate)) {
    if (from.gate[v] !== 'pending') continue;
    delete values[v];
    messages.push({ type: 'flow_variable', name: v, value: null, status: 'cleared', source: 'gate' });
  }
  const action = from.pendingAction;
  if (action) messages.push({ type: 'action_result', action_id: action.id, tool: action.tool, status: 'cancelled', detail: 'the visitor left this step' });
  const session: Session = {
    ...from,
    state: ERROR,
    values,
    gate: dict(),
    capturedAt: dict(),
    heard: dict(),
    epoch: from.epoch + 1,
    deadline: null,
    retries: 0,
    noMatch: 0,
    history: base !== null && base.state !== ERROR ? [...from.history, base.state] : [...from.history],
    pendingAction: null,
    running: from.running.map((r) => ({ ...r, left: true })),
    done: [],
    next: null,
    from: null,
  };
  const error = defaultErrorState(flow.language);
  // A flow's own __error__ with no way out is a final state: the run ends there, as it would have.
  const terminal = own(flow.states, ERROR)?.terminal ?? false;
  session.ended = terminal;
  messages.push(
    { type: 'system_message', text: `[flow engine] unrecoverable error: ${NOTE_FOR_LLM}` },
    {
      type: 'flow_state',
      flow_id: flow.id,
      state: ERROR,
      language: flow.language,
      epoch: session.epoch,
      artifact: error.ui ?? null,
      agent: { system_prompt: error.agent.prompt, tools: [], context: error.agent.context, retry: 0 },
      gate: null,
      values: dict(),
      can_go_back: false,
      terminal,
      turn_taking: {},
    },
    { type: 'llm_turn', epoch: session.epoch, reason: 'state_entered' },
  );
  if (terminal) {
    messages.push({ type: 'flow_end', flow_id: flow.id, last_state: ERROR, mode: flow.mode, variables: copy(values), reason: 'completed' });
  }
  return { session, messages };
}
