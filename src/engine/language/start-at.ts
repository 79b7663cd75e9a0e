// A flow whose visits start at a chosen state with chosen values: the flow studio's "start here",
// to try one step without walking the visit up to it. The flow is the same but for where a visit
// starts and what its variables hold at the start; every value is checked against its
// variable's type first, as a tool's argument would be.

import type { Flow } from './flow.ts';
import type { LoadedFlow } from './loaded-flow.ts';
import { dict } from './records.ts';
import { convertValue } from './values.ts';

/** The values as the variables hold them, or the first that does not fit, said for the author. */
function checkedValues(flow: Flow, values: Readonly<Record<string, unknown>>): { values: Record<string, unknown> } | { problem: string } {
  const out: Record<string, unknown> = dict();
  for (const [name, raw] of Object.entries(values)) {
    const decl = Object.hasOwn(flow.variables, name) ? flow.variables[name] : undefined;
    if (!decl) return { problem: `"${name}" is not a variable of this flow` };
    const converted = convertValue(decl.type, raw, decl.enum);
    if (!converted.ok) return { problem: `${name}: ${converted.problem}` };
    out[name] = converted.value;
  }
  return { values: out };
}

/** `flow` starting at `state`, its variables' start values `values` over their defaults. */
function startFlow(flow: Flow, state: string, values: Readonly<Record<string, unknown>>): Flow {
  const variables = dict(Object.entries(flow.variables).map(([name, decl]) => [name, Object.hasOwn(values, name) ? { ...decl, default: values[name] } : decl] as const));
  return { ...flow, initial: state, variables };
}

/**
 * The loaded flow with its visits starting at `state` (one of its states) and `values` set, in
 * every one of its languages; or why not (no such state, a value its variable cannot hold).
 */
export function startingAt(loaded: LoadedFlow, state: string, values: Readonly<Record<string, unknown>>): LoadedFlow | { problem: string } {
  if (!Object.hasOwn(loaded.flow.states, state)) return { problem: `"${state}" is not a state of this flow` };
  const checked = checkedValues(loaded.flow, values);
  if ('problem' in checked) return checked;
  const copies = new Map<LoadedFlow, LoadedFlow>();
  const moved = (original: LoadedFlow): LoadedFlow => {
    let copy = copies.get(original);
    if (!copy) {
      copy = { flow: startFlow(original.flow, state, checked.values), catalog: original.catalog, inLanguage: (language) => moved(original.inLanguage(language)) };
      copies.set(original, copy);
    }
    return copy;
  };
  return moved(loaded);
}
