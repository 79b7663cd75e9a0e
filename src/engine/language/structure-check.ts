// Checks a flow document against the syntax table: kinds of values, unknown and missing keys,
// allowed values, patterns, sizes and the rules between keys. Reports every problem it finds and
// never stops at the first; a known mistake is said once, with its fix.

import { didYouMean } from './diagnostics.ts';
import type { SourcePath } from './flow.ts';
import { own } from './records.ts';
import type { Reporter } from './source.ts';
import type { KeyRule, Prop, Shape } from './syntax.ts';

type Kind = 'text' | 'number' | 'true/false' | 'list' | 'mapping' | 'nothing';
type ObjectShape = Extract<Shape, { kind: 'object' }>;

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'list';
  switch (typeof v) {
    case 'string':
      return 'text';
    case 'number':
      return 'number';
    case 'boolean':
      return 'true/false';
    default:
      return 'mapping';
  }
}

function expected(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'text';
    case 'number':
      return shape.integer ? 'a whole number' : 'a number';
    case 'boolean':
      return 'true or false';
    case 'object':
    case 'map':
      return 'a mapping';
    case 'array':
      return 'a list';
    case 'any':
      return 'a value';
    case 'union':
      return [...new Set(shape.options.map(expected))].join(' or ');
  }
}

function accepts(shape: Shape, v: unknown): boolean {
  const k = kindOf(v);
  switch (shape.kind) {
    case 'string':
      return k === 'text';
    case 'number':
      return k === 'number';
    case 'boolean':
      return k === 'true/false';
    case 'object':
    case 'map':
      return k === 'mapping';
    case 'array':
      return k === 'list';
    case 'any':
      return true;
    case 'union':
      return shape.options.some((o) => accepts(o, v));
  }
}

/** Takes the value's kind and, for a mapping, has every required key of the shape present. */
export function fits(shape: Shape, v: unknown): boolean {
  if (shape.kind === 'union') return shape.options.some((o) => fits(o, v));
  if (!accepts(shape, v)) return false;
  if (shape.kind !== 'object') return true;
  return Object.entries(shape.props).every(([k, p]) => !p.required || own(v as Record<string, unknown>, k) != null);
}

/** Walks `value` against `shape`, reporting what does not fit. */
export function checkStructure(r: Reporter, shape: Shape, value: unknown, path: SourcePath): void {
  switch (shape.kind) {
    case 'any':
      return;
    case 'union': {
      const mistake = shape.mistake?.(value);
      if (mistake !== undefined) return r.error('wrong-type', path, mistake);
      // Of the options that take this kind of value, the first whose required keys are all here
      // (so `{any: [...]}` is read as an any-group, not as a condition missing its keys).
      const fit = shape.options.find((o) => fits(o, value)) ?? shape.options.find((o) => accepts(o, value));
      if (!fit) return wrongKind(r, shape, value, path);
      return checkStructure(r, fit, value, path);
    }
    case 'string':
      return checkText(r, shape, value, path);
    case 'number':
      return checkNumber(r, shape, value, path);
    case 'boolean':
      if (typeof value !== 'boolean') return wrongKind(r, shape, value, path);
      return;
    case 'array':
      if (!Array.isArray(value)) return wrongKind(r, shape, value, path);
      if (shape.min && value.length < shape.min.count) r.error('bad-value', path, shape.min.why);
      value.forEach((item, i) => checkStructure(r, shape.items, item, [...path, i]));
      return;
    case 'map':
      return checkMap(r, shape, value, path);
    case 'object':
      return checkObject(r, shape, value, path);
  }
}

function checkText(r: Reporter, shape: Extract<Shape, { kind: 'string' }>, value: unknown, path: SourcePath): void {
  if (typeof value !== 'string') return wrongKind(r, shape, value, path);
  if (shape.enum && !shape.enum.includes(value)) {
    r.error('bad-value', path, `"${value}" is not one of ${shape.enum.join(', ')}${didYouMean(value, shape.enum)}`);
  }
  if (shape.pattern !== undefined && !new RegExp(shape.pattern, 'u').test(value)) {
    r.error('bad-value', path, shape.patternProblem?.(value) ?? `"${value}" does not have the form ${shape.pattern}`);
  }
}

function checkNumber(r: Reporter, shape: Extract<Shape, { kind: 'number' }>, value: unknown, path: SourcePath): void {
  if (typeof value !== 'number') return wrongKind(r, shape, value, path);
  if (shape.integer && !Number.isInteger(value)) r.error('wrong-type', path, `expected a whole number, found ${value}`);
  if (shape.min !== undefined && value < shape.min) r.error('bad-value', path, `${value} is below the minimum of ${shape.min}`);
  if (shape.max !== undefined && value > shape.max) {
    r.error('bad-value', path, `${value} is above the maximum of ${shape.max}${shape.maxWhy ? ` (${shape.maxWhy})` : ''}`);
  }
}

function checkMap(r: Reporter, shape: Extract<Shape, { kind: 'map' }>, value: unknown, path: SourcePath): void {
  if (kindOf(value) !== 'mapping') return wrongKind(r, shape, value, path);
  const entries = Object.entries(value as Record<string, unknown>);
  if (shape.min && entries.length < shape.min.count) r.error('missing-key', path, shape.min.why);
  for (const [k, v] of entries) {
    if (shape.keys && !new RegExp(shape.keys.pattern, 'u').test(k)) r.error(shape.keys.code, [...path, k], shape.keys.problem(k, v), true);
    checkStructure(r, shape.values, v, [...path, k]);
  }
}

function checkObject(r: Reporter, shape: ObjectShape, value: unknown, path: SourcePath): void {
  if (kindOf(value) !== 'mapping') return wrongKind(r, shape, value, path);
  const obj = value as Record<string, unknown>;
  const open = shape.open?.(obj) ?? false;
  for (const [k, v] of Object.entries(obj)) {
    const prop: Prop | undefined = own(shape.props, k);
    if (!prop && shape.extensions && k.startsWith('x-')) continue;
    if (!prop) {
      if (!open) r.error('unknown-key', [...path, k], `unknown key "${k}"${elsewhere(shape, k) ?? didYouMean(k, Object.keys(shape.props))}`, true);
      continue;
    }
    if (prop.notActedOn && !isEmpty(v)) {
      r.warn('not-acted-on', [...path, k], `"${k}" is accepted but not acted on here: ${prop.notActedOn}`, true);
    }
    // An empty YAML value (`key:`) counts as absent for optional keys; a required one is missing.
    if (v === null) {
      if (prop.required) r.error('missing-key', [...path, k], `required key "${k}" has no value`, true);
      continue;
    }
    checkStructure(r, prop.shape, v, [...path, k]);
  }
  for (const [k, prop] of Object.entries(shape.props)) {
    if (prop.required && obj[k] === undefined) {
      r.error('missing-key', path, `missing required key "${k}"`, path.length > 0);
    }
  }
  for (const rule of shape.rules ?? []) checkRule(r, rule, obj, path);
}

/** The mappings a shape's own keys hold, by key (`transitions` of a state), where the shape has any. */
function innerMappings(shape: ObjectShape): [string, ObjectShape][] {
  const out: [string, ObjectShape][] = [];
  const add = (key: string, s: Shape) => {
    if (s.kind === 'object') out.push([key, s]);
    else if (s.kind === 'union' && !s.localized) s.options.forEach((o) => add(key, o));
  };
  for (const [k, p] of Object.entries(shape.props)) if (!p.notActedOn) add(k, p.shape);
  return out;
}

/**
 * Where a key unknown here belongs, when a mapping one level down has it: `on_timeout` written
 * directly under a state belongs under its `transitions:`.
 */
function elsewhere(shape: ObjectShape, key: string): string | undefined {
  const homes = [...new Set(innerMappings(shape).filter(([, s]) => own(s.props, key) !== undefined).map(([k]) => `${k}:`))];
  if (homes.length === 0) return undefined;
  const listed = homes.length > 1 ? `${homes.slice(0, -1).join(', ')} or ${homes[homes.length - 1]}` : homes[0];
  return `: it belongs under ${listed} (${homes[0]} { ${key}: … })`;
}

const given = (obj: Record<string, unknown>, k: string) => own(obj, k) != null;

/** One rule between the keys of a mapping. */
function checkRule(r: Reporter, rule: KeyRule, obj: Record<string, unknown>, path: SourcePath): void {
  if (rule.kind === 'one-of') {
    const present = rule.keys.filter((k) => given(obj, k));
    if (present.length === 0) r.error('missing-key', path, rule.why, path.length > 0);
    if (present.length > 1) r.error('bad-value', path, `${rule.why} (this one has ${present.join(' and ')})`);
    return;
  }
  const trigger = own(obj, rule.key);
  if (trigger == null || (rule.values && !rule.values.includes(trigger as string))) return;
  for (const k of rule.require ?? []) if (!given(obj, k)) r.error('missing-key', [...path, rule.key], rule.why);
  for (const k of rule.forbid ?? []) if (given(obj, k)) r.error('bad-value', [...path, k], rule.why, true);
  for (const [k, shape] of Object.entries(rule.shapes ?? {})) {
    const v = own(obj, k);
    if (v == null) continue;
    // A value of the kind the rule wants is checked as usual; one of another kind, or a choice the
    // rule does not allow here, is told with the rule's own words.
    const allowed = shape.kind !== 'string' || !shape.enum || shape.enum.includes(v as string);
    if (accepts(shape, v) && allowed) checkStructure(r, shape, v, [...path, k]);
    else r.error(allowed ? 'wrong-type' : 'bad-value', [...path, k], rule.why);
  }
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'object' && Object.keys(v as object).length === 0);
}

/** Whether text is one of the kinds the shape takes. */
const takesText = (shape: Shape): boolean => (shape.kind === 'union' ? shape.options.some(takesText) : shape.kind === 'string');
const takesNumber = (shape: Shape): boolean => (shape.kind === 'union' ? shape.options.some(takesNumber) : shape.kind === 'number');

function wrongKind(r: Reporter, shape: Shape, value: unknown, path: SourcePath): void {
  const found = kindOf(value);
  let hint = '';
  // YAML reads 1, 2.5 and true as a number and a true/false; text needs quotes.
  if ((found === 'number' || found === 'true/false') && takesText(shape)) hint = `: put it in quotes ("${String(value)}") to give it as text`;
  if (found === 'text' && takesNumber(shape) && /^\s*-?\d+(\.\d+)?\s*$/.test(value as string)) hint = `: write it without quotes (${(value as string).trim()}) to give it as a number`;
  const what = found === 'number' || found === 'true/false' ? `${found === 'number' ? 'the number ' : ''}${String(value)}` : found === 'text' && hint ? `the text "${value as string}"` : found;
  r.error('wrong-type', path, `expected ${expected(shape)}, found ${what}${hint}`);
}
