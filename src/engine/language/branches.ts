// Walking a state's ways out: every branch of its transitions and gate, and every condition of a
// guard, for the checks and the catalog that read them all.

import type { Branch, Condition, Guard, StateDef } from './flow.ts';

/** Every branch of a state's own transitions, of its gate's on_confirm and of its decision, in the order written. */
export function stateBranches(s: StateDef): Branch[] {
  const t = s.transitions;
  return [
    ...(s.decide ?? []),
    ...Object.values(t.onUiEvent).flat(),
    ...Object.values(t.onToolCall).flat(),
    ...Object.values(t.onAction ?? {}).flatMap((o) => [...(o.done ?? []), ...(o.failed ?? [])]),
    ...t.onUtterance.flatMap((r) => r.branches),
    ...(s.gate?.onConfirm ?? []),
  ];
}

/** Each condition of a guard, at any depth. */
export function conditionsOf(g: Guard | Condition): Condition[] {
  if ('all' in g) return g.all.flatMap(conditionsOf);
  if ('any' in g) return g.any.flatMap(conditionsOf);
  return [g];
}
