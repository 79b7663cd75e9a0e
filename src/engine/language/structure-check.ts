// Checks a flow document against the syntax table: kinds of values, unknown and missing keys,
// allowed values. Reports every problem it finds and never stops at the first.

import { didYouMean } from './diagnostics.ts';
import type { SourcePath } from './flow.ts';
import { own } from './records.ts';
import type { Reporter } from './source.ts';
import type { Prop, Shape } from './syntax.ts';

type Kind = 'text' | 'number' | 'true/false' | 'list' | 'mapping' | 'nothing';

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
      // Of the options that take this kind of value, the first whose required keys are all here
      // (so `{any: [...]}` is read as an any-group, not as a condition missing its keys).
      const fit = shape.options.find((o) => fits(o, value)) ?? shape.options.find((o) => accepts(o, value));
      if (!fit) return wrongKind(r, shape, value, path);
      return checkStructure(r, fit, value, path);
    }
    case 'string':
      if (typeof value !== 'string') return wrongKind(r, shape, value, path);
      if (shape.enum && !shape.enum.includes(value)) {
        r.error(
          'bad-value',
          path,
          `"${value}" is not one of ${shape.enum.join(', ')}${didYouMean(value, shape.enum)}`,
        );
      }
      return;
    case 'number':
      if (typeof value !== 'number') return wrongKind(r, shape, value, path);
      if (shape.integer && !Number.isInteger(value)) r.error('wrong-type', path, `expected a whole number, found ${value}`);
      if (shape.min !== undefined && value < shape.min) r.error('bad-value', path, `${value} is below the minimum of ${shape.min}`);
      if (shape.max !== undefined && value > shape.max) {
        r.error('bad-value', path, `${value} is above the maximum of ${shape.max}${shape.maxWhy ? ` (${shape.maxWhy})` : ''}`);
      }
      return;
    case 'boolean':
      if (typeof value !== 'boolean') return wrongKind(r, shape, value, path);
      return;
    case 'array':
      if (!Array.isArray(value)) return wrongKind(r, shape, value, path);
      value.forEach((item, i) => checkStructure(r, shape.items, item, [...path, i]));
      return;
    case 'map':
      if (kindOf(value) !== 'mapping') return wrongKind(r, shape, value, path);
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        checkStructure(r, shape.values, v, [...path, k]);
      }
      return;
    case 'object': {
      if (kindOf(value) !== 'mapping') return wrongKind(r, shape, value, path);
      const obj = value as Record<string, unknown>;
      const open = shape.open?.(obj) ?? false;
      for (const [k, v] of Object.entries(obj)) {
        const prop: Prop | undefined = own(shape.props, k);
        if (!prop) {
          if (!open) {
            r.error('unknown-key', [...path, k], `unknown key "${k}"${didYouMean(k, Object.keys(shape.props))}`, true);
          }
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
      return;
    }
  }
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'object' && Object.keys(v as object).length === 0);
}

function wrongKind(r: Reporter, shape: Shape, value: unknown, path: SourcePath): void {
  r.error('wrong-type', path, `expected ${expected(shape)}, found ${kindOf(value)}`);
}
