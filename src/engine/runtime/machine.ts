// The flow as an XState statechart: one state node per VFDL state, plus __end__ and __error__.
// A `step` event carries the inputs of one engine step; the `step` action decides (pure handlers
// on a Turn), records the chosen target in context and raises `go.<target>`; the state's
// transition for that event takes it in the same macrostep, so XState runs the exit and entry
// sequences in statechart order. A step that decides nothing raises nothing, and no guard runs.

import { enqueueActions, setup } from 'xstate';
import type { Catalog } from '../language/catalog.ts';
import { END, ERROR, type Flow } from '../language/flow.ts';
import { handleActionDone, handleFatal, handleTick, handleUi, handleUtterance, expire } from './inputs.ts';
import { stateDef } from './error-state.ts';
import { enterState, exitState } from './lifecycle.ts';
import { inputPriority, type EngineInput, type EngineMessage } from './messages.ts';
import { dict } from '../language/records.ts';
import { edgesOf } from '../language/reachability.ts';
import { Turn, type Session } from './session.ts';
import { handleToolCall, reject } from './tool-call.ts';

export interface StepEvent {
  type: 'step';
  now: number;
  inputs: readonly EngineInput[];
}

/** Raised by a step that decided to move: take the edge to the state named after `go.`. */
interface GoEvent {
  type: `go.${string}`;
}

const goEvent = (target: string): GoEvent => ({ type: `go.${target}` });

/**
 * The machine's context: the run's Session under one key. XState copies a context's own keys at
 * every assign (three an engine step that moves: the step, the exit, the entry), and a Session
 * has two dozen; one key keeps that copy to one.
 */
export interface MachineContext {
  session: Session;
}

/** What the machine emits: the messages of one action's Turn, in the order they were made. */
export interface MessageBatch {
  type: 'messages';
  messages: readonly EngineMessage[];
}

/** The inputs highest priority first, those of one priority in the order they came. */
function byPriority(inputs: readonly EngineInput[]): EngineInput[] {
  return inputs
    .map((input, i) => ({ input, i }))
    .sort((a, b) => inputPriority(a.input) - inputPriority(b.input) || a.i - b.i)
    .map((x) => x.input);
}

/** Runs one step's inputs on a Turn, highest priority first; the first transition wins. */
export function decideStep(t: Turn, inputs: readonly EngineInput[]): void {
  expire(t);
  for (const input of inputs.length < 2 ? inputs : byPriority(inputs)) {
    if (t.decided) {
      if (input.type === 'tool_call') {
        reject(t, input.name, input.call_id ?? t.id('call'), 'stale', 'a higher-priority event in the same step already moved the flow');
      }
      continue;
    }
    switch (input.type) {
      case 'ui_event':
        handleUi(t, input);
        break;
      case 'tool_call':
        handleToolCall(t, input);
        break;
      case 'utterance':
        handleUtterance(t, input.text);
        break;
      case 'tick':
        handleTick(t);
        break;
      case 'action_done':
        handleActionDone(t, input);
        break;
      case 'fatal_error':
        handleFatal(t, input.message);
        break;
    }
  }
}

/** Every state a state may move to, so the statechart has an edge for each. */
function targetsOf(flow: Flow, id: string, predecessors: ReadonlyMap<string, Set<string>>): string[] {
  const s = stateDef(flow, id)!;
  const out = new Set<string>([id, END, ERROR, ...edgesOf(flow, s)]);
  if (flow.settings.onError) out.add(flow.settings.onError);
  if (flow.settings.onTimeout) out.add(flow.settings.onTimeout);
  if (flow.settings.allowBack) for (const p of stepsBefore(flow, id, predecessors)) out.add(p);
  return [...out].filter((x) => x === END || stateDef(flow, x) !== undefined);
}

/** The states Back may return to from `id`: those that lead to it, and through a decision step (never shown) those that lead to it. */
function stepsBefore(flow: Flow, id: string, predecessors: ReadonlyMap<string, Set<string>>, seen = new Set<string>()): Set<string> {
  for (const p of predecessors.get(id) ?? []) {
    if (seen.has(p)) continue;
    seen.add(p);
    if (stateDef(flow, p)?.decide) stepsBefore(flow, p, predecessors, seen);
  }
  return seen;
}

/** The statechart of each flow and catalog, made once: a machine holds no run's state, so every visit of a flow shares it. */
const built = new WeakMap<Flow, WeakMap<Catalog, ReturnType<typeof makeMachine>>>();

/** The flow's statechart in the catalog's language (the same object for every run of them). */
export function buildMachine(flow: Flow, cat: Catalog): ReturnType<typeof makeMachine> {
  let byCatalog = built.get(flow);
  if (!byCatalog) built.set(flow, (byCatalog = new WeakMap()));
  let machine = byCatalog.get(cat);
  if (!machine) byCatalog.set(cat, (machine = makeMachine(flow, cat)));
  return machine;
}

function makeMachine(flow: Flow, cat: Catalog) {
  const ids = [...flow.stateOrder];
  if (!Object.hasOwn(flow.states, ERROR)) ids.push(ERROR);
  const predecessors = new Map<string, Set<string>>();
  for (const id of ids) {
    for (const target of edgesOf(flow, stateDef(flow, id)!)) {
      if (!predecessors.has(target)) predecessors.set(target, new Set());
      predecessors.get(target)!.add(id);
    }
  }
  const states = dict<object>();
  for (const id of ids) {
    const s = stateDef(flow, id)!;
    states[id] = s.terminal
      ? { type: 'final', entry: { type: 'enter', params: { id } } }
      : {
          entry: { type: 'enter', params: { id } },
          exit: { type: 'exit', params: { id } },
          on: Object.fromEntries(targetsOf(flow, id, predecessors).map((target) => [goEvent(target).type, { target, reenter: true }])),
        };
  }
  states[END] = { type: 'final', entry: { type: 'enter', params: { id: END } } };

  // A Turn's messages leave as one emitted batch, in order: one emit per action, not per message.
  const commit = (t: Turn, enqueue: { assign: (f: () => MachineContext) => void; emit: (m: MessageBatch) => void }) => {
    enqueue.assign(() => ({ session: t.s }));
    if (t.out.length) enqueue.emit({ type: 'messages', messages: t.out });
  };

  return setup({
    types: {
      context: {} as MachineContext,
      events: {} as StepEvent | GoEvent,
      emitted: {} as MessageBatch,
      input: {} as Session,
    },
    actions: {
      step: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'step') return;
        const t = new Turn(flow, cat, context.session);
        t.s.now = event.now;
        decideStep(t, event.inputs);
        commit(t, enqueue);
        if (t.s.next) enqueue.raise(goEvent(t.s.next.target));
      }),
      enter: enqueueActions(({ context, enqueue }, params: { id: string }) => {
        const t = new Turn(flow, cat, context.session);
        enterState(t, params.id);
        commit(t, enqueue);
        // An action called on entry that could not even be sent takes its failure path at once.
        if (t.s.next) enqueue.raise(goEvent(t.s.next.target));
      }),
      exit: enqueueActions(({ context, enqueue }, params: { id: string }) => {
        const t = new Turn(flow, cat, context.session);
        exitState(t, params.id);
        commit(t, enqueue);
      }),
    },
  }).createMachine({
    id: flow.id,
    context: ({ input }) => ({ session: input }),
    initial: flow.initial,
    on: { step: { actions: 'step' } },
    // The state table is built from the flow at run time; XState checks it when the machine is made.
    states: states as never,
  });
}
