// Value types: converting what the visitor said or typed, and checking what the LLM sent,
// against a variable's or parameter's type. Conversion is lossless or it fails.

import type { FieldProblem, ParamDef, ValueType } from './flow.ts';
import { MAX_DEPTH, MAX_TEXT_CHARS, tooDeep } from './limits.ts';
import { pattern } from './patterns.ts';
import { writeName } from './person-names.ts';

/** A value converted, or why not: the problem in words, and the field rule it broke, if that was it. */
export type Converted = { ok: true; value: unknown } | { ok: false; problem: string; fieldProblem?: FieldProblem };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()./-]{5,}[0-9]$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * True when the number written as `literal` (JSON's syntax) is held exactly as a JavaScript
 * number: a whole number within ±(2^53−1), or one with at most 15 significant digits (what a
 * double always keeps). 400 digits, 2^53+1, 1e400 or 1e-400 are not: they would be rounded.
 */
export function exactNumber(literal: string): boolean {
  const m = /^[-+]?(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(literal);
  if (!m) return false;
  const n = Number(literal);
  if (!Number.isFinite(n)) return false;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  const digits = `${m[1]}${fraction}`.replace(/^0+/, '');
  if (digits === '') return true; // zero
  if (n === 0) return false; // too small: it would become 0
  if (fraction.length - Number(m[3] ?? 0) <= 0) return Number.isSafeInteger(n);
  return digits.replace(/0+$/, '').length <= 15;
}

const INEXACT = `cannot be held exactly (at most 15 significant digits, or a whole number within ±${Number.MAX_SAFE_INTEGER})`;

/** The first number in a JSON text that would be rounded when parsed, if there is one. */
export function inexactNumberIn(json: string): string | undefined {
  // Strings are skipped whole, so only the numbers of the JSON itself are read.
  for (const m of json.matchAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g)) {
    if (m[0].startsWith('"')) continue;
    if (!exactNumber(m[0])) return m[0].length > 40 ? `${m[0].slice(0, 20)}… (${m[0].length} characters)` : m[0];
  }
  return undefined;
}

/** The problem with a JavaScript number as a value, if any: not finite, or a whole number past 2^53. */
function numberProblem(n: number): string | undefined {
  if (!Number.isFinite(n)) return 'not a number that can be stored';
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) return INEXACT;
  return undefined;
}

/** True for YYYY-MM-DD naming a day that exists. */
export function isRealDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** Nothing given: absent, null, or text that is only spaces. */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/** The listed choice `v` stands for: the same value, or the same text in any case. */
function matchChoice(choices: readonly unknown[], v: unknown): unknown {
  return choices.find((c) => c === v || (typeof c === 'string' && typeof v === 'string' && c.toLowerCase() === v.toLowerCase()));
}

function fail(problem: string): Converted {
  return { ok: false, problem };
}

/** Converts a value (often a string from a transcript or a form) to `type`. */
export function convertValue(type: ValueType, raw: unknown, enumValues?: readonly unknown[]): Converted {
  const text = typeof raw === 'string' ? raw.trim() : raw;
  switch (type) {
    case 'string':
      if (typeof text === 'string') return { ok: true, value: text };
      if (typeof text === 'number' || typeof text === 'boolean') return { ok: true, value: String(text) };
      return fail('expected text');
    case 'number':
    case 'integer': {
      const n = typeof text === 'number' ? text : typeof text === 'string' && /^[-+]?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
      if (Number.isNaN(n)) return fail(`expected a ${type === 'integer' ? 'whole number' : 'number'}`);
      if (typeof text === 'string' && !exactNumber(text)) return fail(INEXACT);
      const problem = numberProblem(n);
      if (problem) return fail(problem);
      if (type === 'integer' && !Number.isInteger(n)) return fail('expected a whole number');
      return { ok: true, value: n };
    }
    case 'boolean':
      if (typeof text === 'boolean') return { ok: true, value: text };
      if (text === 'true' || text === 'yes') return { ok: true, value: true };
      if (text === 'false' || text === 'no') return { ok: true, value: false };
      return fail('expected true or false');
    case 'date':
      if (typeof text === 'string' && isRealDate(text)) return { ok: true, value: text };
      return fail('expected a date as YYYY-MM-DD');
    case 'email':
      if (typeof text === 'string' && EMAIL.test(text)) return { ok: true, value: text.toLowerCase() };
      return fail('expected an email address');
    case 'phone':
      if (typeof text === 'string' && PHONE.test(text)) return { ok: true, value: text };
      return fail('expected a phone number');
    case 'name':
      if (typeof text === 'string' && text !== '') return { ok: true, value: writeName(text) };
      return fail("expected a person's name");
    case 'enum': {
      const allowed = enumValues ?? [];
      const hit = matchChoice(allowed, text);
      if (hit !== undefined) return { ok: true, value: hit };
      return fail(`expected one of ${allowed.map(String).join(', ')}`);
    }
    case 'object':
      if (text === null || typeof text !== 'object') return fail('expected an object');
      if (tooDeep(text)) return fail(`nested more than ${MAX_DEPTH} levels deep, the limit`);
      return { ok: true, value: text };
  }
}

/** Checks one argument against its parameter: type, enum, pattern, min and max. */
export function checkParam(p: ParamDef, raw: unknown): Converted {
  if (typeof raw === 'string' && raw.length > MAX_TEXT_CHARS) {
    return { ok: false, problem: `${raw.length} characters, more than the ${MAX_TEXT_CHARS} a text may have` };
  }
  const c = convertValue(p.type, raw, p.enum);
  if (!c.ok) return c;
  const v = c.value;
  if (p.enum) {
    // One of the listed choices is valid as it stands, spelled as the flow lists it.
    const choice = matchChoice(p.enum, v);
    if (choice === undefined) return { ok: false, problem: `expected one of ${p.enum.map(String).join(', ')}` };
    if (typeof v === 'string') return { ok: true, value: choice };
  }
  if (p.pattern !== undefined && typeof v === 'string') {
    const re = pattern(p.pattern);
    if (re && !re.test(v)) return { ok: false, problem: `does not match ${p.pattern}` };
  }
  const size = typeof v === 'number' ? v : typeof v === 'string' ? v.length : undefined;
  const unit = typeof v === 'number' ? '' : ' characters';
  if (size !== undefined && p.min !== undefined && size < p.min) return { ok: false, problem: `below the minimum of ${p.min}${unit}` };
  if (size !== undefined && p.max !== undefined && size > p.max) return { ok: false, problem: `above the maximum of ${p.max}${unit}` };
  return { ok: true, value: v };
}

/** The JSON Schema of one parameter, for the LLM's tool list. */
export function paramJsonSchema(p: ParamDef): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  switch (p.type) {
    case 'number':
    case 'integer':
    case 'boolean':
    case 'string':
    case 'object':
      s['type'] = p.type;
      break;
    case 'date':
      s['type'] = 'string';
      s['format'] = 'date';
      break;
    case 'email':
      s['type'] = 'string';
      s['format'] = 'email';
      break;
    case 'phone':
      s['type'] = 'string';
      s['description'] = 'a phone number';
      break;
    case 'name':
    case 'enum':
      s['type'] = 'string';
      break;
  }
  if (p.description !== undefined) s['description'] = p.description;
  if (p.type === 'date') s['description'] = `${p.description ? p.description + ' ' : ''}(YYYY-MM-DD)`;
  if (p.enum) s['enum'] = [...p.enum];
  if (p.pattern !== undefined) s['pattern'] = p.pattern;
  const numeric = p.type === 'number' || p.type === 'integer';
  if (p.min !== undefined) s[numeric ? 'minimum' : 'minLength'] = p.min;
  if (p.max !== undefined) s[numeric ? 'maximum' : 'maxLength'] = p.max;
  return s;
}
