// The values a page gives the kiosk's server for a tool's HTTP effect, checked there again with
// the engine's own rules before anything is sent. The page's engine checked them on the way in (a
// tool's arguments by checkArguments, a variable's value by variableValue); the server trusts
// nothing a request says, so it holds each value to the same definitions: a parameter's type,
// choices, pattern and lengths, and the type and field rules of the variable it fills.

import type { Catalog } from '../language/catalog.ts';
import type { Flow, ToolDef } from '../language/flow.ts';
import { own } from '../language/records.ts';
import { checkParam, isBlank } from '../language/values.ts';
import { effectNames } from './http-call.ts';
import { variableValue } from './variable-values.ts';

/** Every value holds, or the first that does not: its name and what is wrong with it. */
export type EffectValuesCheck = { ok: true } | { ok: false; name: string; problem: string };

/**
 * Checks `values` (by name, as the page's `action_run` carries them) for the HTTP effect of
 * `tool`: only names the effect fills in, each a parameter's valid argument (and a valid value of
 * the variable it sets) or a valid value of the flow's variable of that name, and no required
 * parameter the effect uses left out. `today` (YYYY-MM-DD) is the day a date rule counts from.
 */
export function checkEffectValues(flow: Flow, cat: Catalog, tool: ToolDef, values: Readonly<Record<string, unknown>>, today: string): EffectValuesCheck {
  const used = tool.http ? effectNames(tool.http) : new Set<string>();
  const refuse = (name: string, problem: string): EffectValuesCheck => ({ ok: false, name, problem });
  for (const [name, value] of Object.entries(values)) {
    if (!used.has(name)) return refuse(name, `is not filled in by the request of ${tool.name}`);
    const param = tool.parameters.find((p) => p.name === name);
    if (isBlank(value)) {
      if (param?.required) return refuse(name, 'is required');
      continue;
    }
    if (!param && !cat.variables.has(name)) return refuse(name, "is not one of the flow's variables");
    const argument = param ? checkParam(param, value) : { ok: true as const, value };
    if (!argument.ok) return refuse(name, argument.problem);
    const stored = variableValue(flow, cat, param ? (own(tool.capture, name) ?? name) : name, argument.value, today);
    if (!stored.ok) return refuse(name, stored.problem);
  }
  const missing = tool.parameters.find((p) => p.required && used.has(p.name) && isBlank(own(values, p.name)));
  return missing ? refuse(missing.name, 'is required') : { ok: true };
}
