// The yardstick: the benchmark's chain of steps as a programmer would write it directly in
// XState v5, without VFDL. Same states, same transitions, same events; none of the engine's
// checks, messages or rendering.

import { assign, setup } from 'xstate';
import type { Clock } from '../src/ports/clock.ts';
import { TIMEOUT_RETRIES, TIMEOUT_SECONDS, type AnswerKind, type Step } from './generate-flow.ts';

export interface BaselineContext {
  values: Record<string, string | number>;
  /** the gated value held was confirmed by the visitor */
  confirmed: boolean;
  /** the gated value was captured and the visitor has not spoken since */
  awaitingVisitor: boolean;
  deadline: number;
  retries: number;
}

export type BaselineEvent =
  | { type: 'utterance'; text: string }
  | { type: 'save'; value: string | number }
  | { type: 'advance' }
  | { type: 'confirm' }
  | { type: 'reject' }
  | { type: 'submit'; value: string | number }
  | { type: 'tick' };

interface Rule {
  variable: string;
  pattern: RegExp;
  kind: AnswerKind;
  gated: boolean;
}

/** The hand-written machine for `steps`; `clock` drives the timeouts, as in the engine. */
export function buildBaselineMachine(steps: readonly Step[], clock: Clock) {
  const timeoutMs = TIMEOUT_SECONDS * 1000;
  const machine = setup({
    types: { context: {} as BaselineContext, events: {} as BaselineEvent },
    guards: {
      ruleMatches: ({ event }, rule: Rule) => event.type === 'utterance' && rule.pattern.test(event.text),
      confirmed: ({ context }, p: { variable: string }) => context.values[p.variable] !== undefined && context.confirmed,
      confirmable: ({ context }, p: { variable: string }) => context.values[p.variable] !== undefined && !context.awaitingVisitor,
      mayRetry: ({ context }) => clock.now() >= context.deadline && context.retries < TIMEOUT_RETRIES,
      timedOut: ({ context }) => clock.now() >= context.deadline,
    },
    actions: {
      arm: assign({ deadline: () => clock.now() + timeoutMs }),
      heard: assign({ awaitingVisitor: false, deadline: () => clock.now() + timeoutMs }),
      captureUtterance: assign({
        values: ({ context, event }, rule: Rule) => {
          const m = event.type === 'utterance' ? rule.pattern.exec(event.text) : null;
          if (!m?.[1]) return context.values;
          return { ...context.values, [rule.variable]: rule.kind === 'number' ? Number(m[1]) : m[1] };
        },
        confirmed: false,
        awaitingVisitor: (_, rule: Rule) => rule.gated,
        deadline: () => clock.now() + timeoutMs,
      }),
      save: assign({
        values: ({ context, event }, p: { variable: string; gated: boolean }) =>
          event.type === 'save' ? { ...context.values, [p.variable]: event.value } : context.values,
        confirmed: false,
        awaitingVisitor: (_, p: { variable: string; gated: boolean }) => p.gated,
      }),
      submit: assign({
        values: ({ context, event }, p: { variable: string }) =>
          event.type === 'submit' ? { ...context.values, [p.variable]: event.value } : context.values,
      }),
      clear: assign({
        values: ({ context }, p: { variable: string }) => {
          const { [p.variable]: _cleared, ...rest } = context.values;
          return rest;
        },
      }),
      confirm: assign({ confirmed: true }),
      moveOn: assign({ retries: 0, awaitingVisitor: false }),
      countRetry: assign({ retries: ({ context }) => context.retries + 1 }),
    },
  });

  const states: Record<string, object> = {};
  for (const s of steps) {
    const rule: Rule = { variable: s.variable, pattern: new RegExp(s.pattern, 'i'), kind: s.kind, gated: s.gated };
    const variable = { variable: s.variable };
    states[s.state] = {
      entry: 'arm',
      on: {
        utterance: [{ guard: { type: 'ruleMatches', params: rule }, actions: { type: 'captureUtterance', params: rule } }, { actions: 'heard' }],
        save: { actions: { type: 'save', params: { variable: s.variable, gated: s.gated } } },
        advance: { target: s.next, actions: 'moveOn' },
        ...(s.form ? { submit: { target: s.next, actions: [{ type: 'submit', params: variable }, 'moveOn'] } } : {}),
        ...(s.gated
          ? {
              advance: { guard: { type: 'confirmed', params: variable }, target: s.next, actions: 'moveOn' },
              confirm: { guard: { type: 'confirmable', params: variable }, target: s.next, actions: ['confirm', 'moveOn'] },
              reject: { target: s.state, reenter: true, actions: { type: 'clear', params: variable } },
            }
          : {}),
        tick: [{ guard: 'mayRetry', target: s.state, reenter: true, actions: 'countRetry' }, { guard: 'timedOut', target: '__end__' }],
      },
    };
  }
  states['__end__'] = { type: 'final' };

  return machine.createMachine({
    id: 'bench_chain_baseline',
    context: { values: {}, confirmed: false, awaitingVisitor: false, deadline: 0, retries: 0 },
    initial: steps[0]!.state,
    // Generated from the step list, like any 200-state chart; XState checks it when the machine is made.
    states: states as never,
  });
}
