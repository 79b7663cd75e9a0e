// Flow-wide ways out (`global`): "talk to a person", "start over" from any state. Read from the
// document, and worked out for one state: what of it applies there. It applies in every state
// but terminal ones and those in `except`, and a mapping, rule or button whose every branch
// leads to the state itself does not apply in that state (no "talk to a person" at the desk).

import { normalizeActions } from './normalize-screen.ts';
import { noMatchOf, normalizeBranches, normalizeUtteranceRules } from './normalize-transitions.ts';
import type { Branch, Flow, GlobalDef, SourcePath, StateDef } from './flow.ts';
import { asObj, isObj, strList } from './raw-values.ts';
import { dict, own } from './records.ts';

/** The document's `global`, or undefined where it has none. */
export function normalizeGlobal(raw: unknown): GlobalDef | undefined {
  if (!isObj(raw)) return undefined;
  const at: SourcePath = ['global'];
  const branchesBy = (key: string) => dict(Object.entries(asObj(raw[key])).map(([name, t]) => [name, normalizeBranches(t, [...at, key, name])]));
  return {
    onUiEvent: branchesBy('on_ui_event'),
    onToolCall: branchesBy('on_tool_call'),
    onUtterance: normalizeUtteranceRules(raw['on_utterance'], [...at, 'on_utterance']),
    ...noMatchOf(raw['on_no_match'], [...at, 'on_no_match']),
    tools: strList(raw['tools']),
    actions: normalizeActions(raw['actions']),
    except: strList(raw['except']),
    at,
  };
}

/** What of `global` applies in one state (its on_no_match only where the state has none of its own and it leads elsewhere). */
export type GlobalHere = Omit<GlobalDef, 'except' | 'at'>;

const NOTHING: GlobalHere = { onUiEvent: dict(), onToolCall: dict(), onUtterance: [], tools: [], actions: [] };

/** Whether `global` applies in a state at all: not in a terminal one, a decision step, nor one it excepts. */
export function globalApplies(flow: Flow, state: StateDef): boolean {
  return flow.global !== undefined && !state.terminal && !state.decide && Object.hasOwn(flow.states, state.id) && !flow.global.except.includes(state.id);
}

const cache = new WeakMap<StateDef, GlobalHere>();

/** What of the flow's `global` applies in `state` (nothing where it does not apply). */
export function globalIn(flow: Flow, state: StateDef): GlobalHere {
  const g = flow.global;
  if (!g || !globalApplies(flow, state)) return NOTHING;
  let here = cache.get(state);
  if (!here) {
    const elsewhere = (bs: readonly Branch[]) => bs.some((b) => b.target !== state.id);
    const mapped = (m: Readonly<Record<string, readonly Branch[]>>) => dict(Object.entries(m).filter(([, bs]) => elsewhere(bs)));
    const onUiEvent = mapped(g.onUiEvent);
    here = {
      onUiEvent,
      onToolCall: mapped(g.onToolCall),
      onUtterance: g.onUtterance.filter((r) => r.branches.length === 0 || elsewhere(r.branches)),
      ...(g.onNoMatch && !state.transitions.onNoMatch && g.onNoMatch.fallback !== state.id ? { onNoMatch: g.onNoMatch } : {}),
      tools: g.tools,
      // A button whose event leads only here is not shown here; one with a tool always is.
      actions: g.actions.filter((a) => a.tool !== undefined || own(onUiEvent, a.event) !== undefined || own(g.onUiEvent, a.event) === undefined),
    };
    cache.set(state, here);
  }
  return here;
}

/** Every branch of `global`, in the order written. */
export function globalBranches(g: GlobalDef): Branch[] {
  return [...Object.values(g.onUiEvent).flat(), ...Object.values(g.onToolCall).flat(), ...g.onUtterance.flatMap((r) => r.branches)];
}
