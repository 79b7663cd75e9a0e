// A tool call's arguments checked against the tool's parameters (and, when asked, each value
// against the variable it sets), with the flow's auto_extract patterns as a fallback for a value
// the LLM left out or got wrong. Used for the LLM's calls, taps, a form's Continue and calls on entry.

import type { ToolDef } from '../language/flow.ts';
import { pattern } from '../language/patterns.ts';
import { dict, own } from '../language/records.ts';
import { checkParam, inexactNumberIn, isBlank, type Converted } from '../language/values.ts';

/** The arguments as stored, or the parameter that failed and why. */
export type Args = { ok: true; values: Record<string, unknown>; ignored: string[] } | { ok: false; field?: string; detail: string };

/**
 * Checks the LLM's arguments against the tool's parameters and, with `toVariable`, each value
 * against the variable it sets (converted to that variable's type).
 */
export function checkArguments(
  tool: ToolDef,
  raw: unknown,
  lastUtterance: string,
  toVariable?: (param: string, value: unknown) => Converted,
  /** each value as its variable is written before it is checked (a field's `case: upper`) */
  written: (param: string, value: unknown) => unknown = (_, value) => value,
): Args {
  let args = raw;
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args);
    } catch {
      return { ok: false, detail: 'the arguments are not valid JSON' };
    }
    const inexact = inexactNumberIn(raw as string);
    if (inexact !== undefined) return { ok: false, detail: `the number ${inexact} cannot be held exactly; send it as text, or a shorter number` };
  }
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) return { ok: false, detail: 'the arguments must be a JSON object' };
  const given = args as Record<string, unknown>;
  const values = dict<unknown>();
  for (const p of tool.parameters) {
    const arg = own(given, p.name);
    let result = isBlank(arg) ? undefined : checkParam(p, written(p.name, arg));
    if (!result?.ok) {
      const extracted = extract(own(tool.autoExtract, p.name) ?? [], lastUtterance);
      const fromUtterance = extracted === undefined ? undefined : checkParam(p, written(p.name, extracted));
      if (fromUtterance?.ok) result = fromUtterance;
    }
    if (result === undefined) {
      if (p.required) return { ok: false, field: p.name, detail: `"${p.name}" is required` };
      continue;
    }
    if (!result.ok) return { ok: false, field: p.name, detail: `"${p.name}": ${result.problem}` };
    const stored = toVariable ? toVariable(p.name, result.value) : result;
    if (!stored.ok) return { ok: false, field: p.name, detail: `"${p.name}": ${stored.problem}` };
    values[p.name] = stored.value;
  }
  const known = new Set(tool.parameters.map((p) => p.name));
  return { ok: true, values, ignored: Object.keys(given).filter((k) => !known.has(k)) };
}

/** The arguments a tool gets from the visit's values: each parameter from the variable it sets (unset ones left out). */
export function argumentsFromValues(tool: ToolDef, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const given = dict<unknown>();
  for (const p of tool.parameters) {
    const value = own(values, own(tool.capture, p.name) ?? p.name);
    if (value !== undefined) given[p.name] = value;
  }
  return given;
}

function extract(patterns: readonly string[], utterance: string): string | undefined {
  if (!utterance) return undefined;
  for (const p of patterns) {
    const m = pattern(p, 'i')?.exec(utterance);
    if (m) return (m[1] ?? m[0]).trim();
  }
  return undefined;
}

