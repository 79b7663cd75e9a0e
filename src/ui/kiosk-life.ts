// The kiosk's own life, as a statechart: loading the flow (or finding it broken), the idle screen,
// the operator's panel, a visit and its end screen. Its timers are delayed transitions on the
// clock the actor is given: "Are you still there?" after the visitor goes quiet and the wipe after
// its grace, counted down, the end screen's countdown (both doubled by "More time"), and the
// moment a new screen's buttons wait before they act. The flow engine decides the flow; this machine decides the screen around it. Like the
// engine it only decides: what it does (wiping a visit, holding taps) is named here and performed
// by the kiosk (kiosk.svelte.ts), which provides those actions.

import { and, assign, not, raise, setup, stateIn, type SnapshotFrom } from 'xstate';

/** The kiosk's timing, in milliseconds. */
export interface LifeTiming {
  /** a visitor quiet this long is asked "Are you still there?" */
  idleMs: number;
  /** how long that question waits before the visit is wiped */
  graceMs: number;
  /** how long the end screen stays */
  endMs: number;
  /** how long a new screen's buttons wait before they act (longer than a double tap's gap) */
  settleMs: number;
}

export interface LifeContext {
  timing: LifeTiming;
  /** how long the visitor had been quiet when the presence timer was last armed (a visit taken up after a reload) */
  quietMs: number;
  /** whole seconds before the screen clears itself, while it counts down: the end screen's, or the walk-away question's */
  endsIn: number | null;
  /** ms until the countdown's next step (the first may be a part of a second) */
  tickMs: number;
}

export type LifeEvent =
  /** the flow loaded and checked: the idle screen */
  | { type: 'flow.loaded' }
  /** the flow could not be used: its diagnostics, for staff */
  | { type: 'flow.invalid' }
  /** a visit kept before a reload was taken up; the visitor had been quiet for `quietMs` */
  | { type: 'visit.resumed'; quietMs: number }
  | { type: 'start' }
  /** any sign of the visitor: a tap, typing, speech */
  | { type: 'activity' }
  /** "Start over" (`confirmed`: the visitor already said yes to it); `answers`: something of theirs is on screen */
  | { type: 'start_over'; confirmed: boolean; answers: boolean }
  /** "No, go on" to "Start over?" */
  | { type: 'keep_going' }
  /** "Finish" on the end screen */
  | { type: 'finish' }
  /** "More time": the countdown on screen gets twice what it had left (the walk-away question: the visitor is here) */
  | { type: 'more_time' }
  /** the screen changed under the visitor's finger: its buttons wait a moment */
  | { type: 'screen.changed' }
  /** the flow entered a step; `failed`: its error step, where nothing is left to go on with */
  | { type: 'flow.step'; failed: boolean }
  /**
   * the flow ended; `assistant`: the conversation goes on (an assistant flow), else the end screen
   * counts down; `toRead`: it shows something to read (what to take away, the last step's card),
   * so it stays at least READ_MS
   */
  | { type: 'flow.ended'; assistant: boolean; toRead?: boolean }
  | { type: 'panel.opened' }
  | { type: 'panel.closed' }
  /** raised by the machine itself: the visit was wiped, nothing of it is on screen */
  | { type: 'screen.cleared' };

export interface LifeInput {
  timing: LifeTiming;
}

/** A second of a countdown to the wipe: the next, or the wipe after the last. */
const countdown = {
  after: {
    tick: [
      { guard: 'moreSeconds', target: 'waiting', reenter: true, actions: 'countDown' },
      { target: '#kiosk.life.idle', actions: ['wipe', 'cleared'] },
    ],
  },
} as const;

/**
 * The least time an end screen with something to read stays: a time limit a visitor meets is shown
 * and said at least 20 s before it acts (WCAG 2.2.1). One with nothing to read may clear sooner.
 */
export const READ_MS = 20_000;

/** `ms` as a countdown: whole seconds shown, and the part of a second before the first step. */
function countdownFrom(ms: number): Pick<LifeContext, 'endsIn' | 'tickMs'> {
  if (ms <= 0) return { endsIn: 0, tickMs: 0 };
  const endsIn = Math.ceil(ms / 1000);
  return { endsIn, tickMs: ms - (endsIn - 1) * 1000 };
}

// A transition that starts a timer again re-enters the state that holds the timer, never a
// region of a parallel state: re-entering a region would re-enter its parallel siblings too.
const presence = {
  initial: 'here',
  states: {
    here: {
      always: { guard: 'quietTooLong', target: 'stillThere' },
      after: { untilAsked: 'stillThere' },
      on: { activity: { target: 'here', reenter: true, actions: 'heard' } },
    },
    /** "Are you still there?", counting down to the wipe */
    stillThere: {
      entry: ['startGrace', 'announceLimit'],
      exit: 'stopCountdown',
      initial: 'waiting',
      states: { waiting: countdown },
      on: {
        activity: { target: 'here', actions: 'heard' },
        more_time: { target: 'here', actions: 'heard' },
      },
    },
  },
} as const;

/** The kiosk's life. Provide `wipe`, `holdTaps` and `announceLimit` (see kiosk.svelte.ts). */
export const kioskLife = setup({
  types: {
    context: {} as LifeContext,
    events: {} as LifeEvent,
    input: {} as LifeInput,
  },
  actions: {
    /** drops every trace of the visitor: performed by the kiosk */
    wipe: () => {},
    /** taps made from now until the screen settles are dropped: performed by the kiosk */
    holdTaps: () => {},
    /** a time limit is on screen (the walk-away question, the end screen's countdown): the kiosk says it */
    announceLimit: () => {},
    /** the screen is empty of the visit: no tap waits for it to settle */
    cleared: raise({ type: 'screen.cleared' }),
    /** a sign of the visitor, to the presence timer */
    stirred: raise({ type: 'activity' }),
    heard: assign({ quietMs: 0 }),
    resumedQuiet: assign({ quietMs: ({ event }) => (event.type === 'visit.resumed' ? Math.max(0, event.quietMs) : 0) }),
    startCountdown: assign(({ context, event }) => countdownFrom(event.type === 'flow.ended' && event.toRead ? Math.max(context.timing.endMs, READ_MS) : context.timing.endMs)),
    /** the walk-away question's grace, less what a visit taken up after a reload had already waited */
    startGrace: assign(({ context }) => countdownFrom(context.timing.graceMs - Math.max(0, context.quietMs - context.timing.idleMs))),
    countDown: assign(({ context }) => ({ endsIn: (context.endsIn ?? 1) - 1, tickMs: 1000 })),
    /** twice the whole seconds left, counted from a fresh second */
    doubleCountdown: assign(({ context }) => ({ endsIn: (context.endsIn ?? 1) * 2, tickMs: 1000 })),
    stopCountdown: assign({ endsIn: null }),
  },
  guards: {
    quietTooLong: ({ context }) => context.quietMs >= context.timing.idleMs,
    mustAsk: ({ event }) => event.type === 'start_over' && !event.confirmed && event.answers,
    failed: ({ event }) => event.type === 'flow.step' && event.failed,
    assistant: ({ event }) => event.type === 'flow.ended' && event.assistant,
    moreSeconds: ({ context }) => (context.endsIn ?? 0) > 1,
  },
  delays: {
    untilAsked: ({ context }) => Math.max(0, context.timing.idleMs - context.quietMs),
    settle: ({ context }) => context.timing.settleMs,
    tick: ({ context }) => context.tickMs,
  },
}).createMachine({
  id: 'kiosk',
  type: 'parallel',
  context: ({ input }) => ({ timing: input.timing, quietMs: 0, endsIn: null, tickMs: 1000 }),
  states: {
    life: {
      initial: 'loading',
      states: {
        loading: {
          on: {
            'flow.loaded': 'idle',
            'flow.invalid': 'invalid',
            'visit.resumed': { target: 'visit', actions: 'resumedQuiet' },
          },
        },
        invalid: {
          on: { 'panel.opened': 'operator.overInvalid' },
        },
        idle: {
          entry: 'heard',
          on: {
            start: { target: 'visit', actions: ['wipe', 'cleared'] },
            'panel.opened': 'operator.overIdle',
          },
        },
        /** the operator's panel is up (from the idle screen, or over a broken flow) */
        operator: {
          initial: 'overIdle',
          states: {
            overIdle: { on: { 'panel.closed': '#kiosk.life.idle' } },
            overInvalid: { on: { 'panel.closed': '#kiosk.life.invalid' } },
          },
        },
        visit: {
          type: 'parallel',
          states: {
            presence,
            startOver: {
              initial: 'closed',
              states: {
                closed: {},
                asking: { on: { keep_going: { target: 'closed', actions: 'stirred' } } },
              },
            },
            step: {
              initial: 'going',
              states: { going: {}, failed: {} },
              on: {
                'flow.step': [
                  { guard: 'failed', target: '.failed' },
                  { target: '.going' },
                ],
              },
            },
          },
          on: {
            start_over: [
              // On the error step nothing is left to go on with: no question.
              { guard: and(['mustAsk', not(stateIn({ life: { visit: { step: 'failed' } } }))]), target: '.startOver.asking', actions: 'stirred' },
              { target: 'idle', actions: ['wipe', 'cleared'] },
            ],
            'flow.ended': [
              { guard: 'assistant', target: 'ended.talking' },
              { target: 'ended.counting' },
            ],
          },
        },
        ended: {
          initial: 'counting',
          states: {
            /** the end screen counts down, then wipes itself */
            counting: {
              entry: ['startCountdown', 'announceLimit'],
              exit: 'stopCountdown',
              initial: 'waiting',
              states: {
                waiting: { ...countdown, on: { more_time: { target: 'waiting', reenter: true, actions: 'doubleCountdown' } } },
              },
            },
            /** an assistant flow has ended its task and goes on talking, until the visitor goes */
            talking: {
              entry: 'heard',
              type: 'parallel',
              states: { presence },
            },
          },
          on: {
            finish: { target: 'idle', actions: ['wipe', 'cleared'] },
            start_over: { target: 'idle', actions: ['wipe', 'cleared'] },
          },
        },
      },
    },
    /** a screen just changed: its buttons wait a moment, so a double tap cannot act on the next one */
    taps: {
      initial: 'settled',
      states: {
        settled: {
          on: { 'screen.changed': 'settling' },
        },
        settling: {
          entry: 'holdTaps',
          after: { settle: 'settled' },
          on: {
            'screen.changed': { target: 'settling', reenter: true },
            'screen.cleared': 'settled',
          },
        },
      },
    },
  },
});

export type LifeSnapshot = SnapshotFrom<typeof kioskLife>;

/** The phase of the kiosk the page shows (`data-phase`): the operator's panel sits over the idle or the broken-flow screen. */
export type Phase = 'loading' | 'invalid' | 'idle' | 'running' | 'ended';

/** What the screens read of the kiosk's life. */
export interface LifeView {
  phase: Phase;
  operator: boolean;
  settling: boolean;
  stillThere: boolean;
  askingStartOver: boolean;
  failed: boolean;
  endsIn: number | null;
}

export function lifeView(s: LifeSnapshot): LifeView {
  const phase: Phase = s.matches({ life: 'loading' })
    ? 'loading'
    : s.matches({ life: 'invalid' }) || s.matches({ life: { operator: 'overInvalid' } })
      ? 'invalid'
      : s.matches({ life: 'idle' }) || s.matches({ life: 'operator' })
        ? 'idle'
        : s.matches({ life: 'visit' })
          ? 'running'
          : 'ended';
  return {
    phase,
    operator: s.matches({ life: 'operator' }),
    settling: s.matches({ taps: 'settling' }),
    stillThere: s.matches({ life: { visit: { presence: 'stillThere' } } }) || s.matches({ life: { ended: { talking: { presence: 'stillThere' } } } }),
    askingStartOver: s.matches({ life: { visit: { startOver: 'asking' } } }),
    failed: s.matches({ life: { visit: { step: 'failed' } } }),
    endsIn: s.context.endsIn,
  };
}

/** Two views alike: the screens need not hear of it. */
export function sameView(a: LifeView, b: LifeView): boolean {
  return (Object.keys(a) as (keyof LifeView)[]).every((k) => a[k] === b[k]);
}
