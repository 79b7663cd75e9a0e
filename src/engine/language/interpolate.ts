// `{name}` templates in prompts, titles, labels and summaries. `{{` and `}}` are literal braces;
// anything in braces that is not a plain name is left as written.

import { own } from './records.ts';

/** Where a template's values come from: a record, or a function that gives one value by name (worked out only when asked). */
export type Values = Readonly<Record<string, unknown>> | ((name: string) => unknown);

/** The value named `name`: a record's own entry (never an inherited member), or the function's answer. */
export function valueOf(values: Values, name: string): unknown {
  return typeof values === 'function' ? values(name) : own(values, name);
}

const TEMPLATE = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variable names a template refers to, in order of appearance. */
export function templateNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(TEMPLATE)) if (m[1] !== undefined) names.push(m[1]);
  return names;
}

/** A value as the visitor or the LLM should read it. Unset values read as the empty string. */
export function displayValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(displayValue).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function interpolate(text: string, values: Values): string {
  if (!text.includes('{') && !text.includes('}')) return text;
  return text.replace(TEMPLATE, (whole, name: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    return displayValue(valueOf(values, name!));
  });
}

/** Interpolates every string inside a JSON-like value (used for HTTP bodies and hook data). */
export function interpolateDeep(value: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    const names = templateNames(value);
    // A string that is exactly one reference keeps the value's own type.
    if (names.length === 1 && value === `{${names[0]}}`) return own(values, names[0]!) ?? null;
    return interpolate(value, values);
  }
  if (Array.isArray(value)) return value.map((v) => interpolateDeep(v, values));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateDeep(v, values)]));
  }
  return value;
}
