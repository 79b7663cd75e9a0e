// A value for one of the flow's variables, from whatever source it comes (the visitor, the LLM,
// an action's answer, or a page asking the kiosk's server to run an action): converted to the
// variable's type and held to the rules of its form fields. The session's Turn and the kiosk's
// server both read values through it, so that a value is refused on the same grounds on both sides.

import type { Catalog } from '../language/catalog.ts';
import { fieldProblem, inCase, problemText } from '../language/field-rules.ts';
import type { Flow } from '../language/flow.ts';
import { MAX_TEXT_CHARS } from '../language/limits.ts';
import { convertValue, type Converted } from '../language/values.ts';
import { shownValue } from './shown-values.ts';

/**
 * `raw` converted to the type of the variable `name`, or why it cannot be: a text longer than
 * MAX_TEXT_CHARS (as an utterance or a tool's argument would be, so no guard pattern ever runs on
 * a longer one), a value of another type, or one that breaks a rule of the variable's form fields
 * (`today`, YYYY-MM-DD, is the day a date bound counts from); a text in the case its field asks for.
 */
export function variableValue(flow: Flow, cat: Catalog, name: string, raw: unknown, today: string): Converted {
  if (typeof raw === 'string' && raw.length > MAX_TEXT_CHARS) {
    return { ok: false, problem: `${raw.length} characters, more than the ${MAX_TEXT_CHARS} a text may have` };
  }
  const info = cat.variables.get(name);
  const converted = convertValue(info?.type ?? 'string', raw, info?.enum);
  if (!converted.ok) return converted;
  // In the case its field asks for (`case: upper`), however it came: typed, said or sent.
  const c = { ok: true as const, value: inCase(converted.value, cat.fieldCase.get(name)) };
  // The rules of the variable's form fields hold for a value from any source.
  for (const f of cat.fieldRules.get(name) ?? []) {
    const p = fieldProblem(f, c.value, today);
    if (!p) continue;
    const shown = p.rule === 'min' || p.rule === 'max' ? String(shownValue(flow, cat, name, p.limit)) : undefined;
    const broken = shown !== undefined && shown !== String(p.limit) ? { ...p, shown } : p;
    return { ok: false, problem: `${problemText(p)}${p.message ? ` (the visitor is told: "${p.message}")` : ''}`, fieldProblem: broken };
  }
  return c;
}
