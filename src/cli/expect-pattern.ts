// Patterns in a conversation test's expectations: how a value written in an `expect` is read from
// the script's YAML and matched against what the engine did. A mapping matches an object that has
// at least those fields; a list matches a list of the same length, item by item; text, numbers
// and booleans match when equal (no conversion); null matches an unset or null value. Three
// operators say otherwise: `{$contains: text}`, `{$matches: regex}`, `{$includes: [items]}`.

import { isAlias, isMap, isPair, isScalar, isSeq, type Document } from 'yaml';
import { didYouMean } from '../engine/language/diagnostics.ts';

export type Pattern =
  | { op: 'equal'; value: string | number | boolean }
  | { op: 'unset' }
  | { op: 'contains'; text: string }
  | { op: 'matches'; regex: RegExp }
  | { op: 'includes'; items: Pattern[] }
  | { op: 'fields'; fields: Array<[string, Pattern]> }
  | { op: 'list'; items: Pattern[] };

export const OPERATORS = ['$contains', '$matches', '$includes'] as const;

/** Where reading a pattern reports what is wrong with it (at the node it is about). */
export interface PatternContext {
  doc: Document;
  problem: (node: unknown, message: string) => void;
}

/** Reads the YAML node of an expected value; undefined when it is not a valid pattern. */
export function readPattern(node: unknown, ctx: PatternContext): Pattern | undefined {
  if (isAlias(node)) return readPattern(node.resolve(ctx.doc), ctx);
  if (node === null || node === undefined) return { op: 'unset' };
  if (isScalar(node)) {
    const v = node.value;
    if (v === null || v === undefined) return { op: 'unset' };
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return { op: 'equal', value: v };
    ctx.problem(node, `cannot match a value of this kind (${typeof v})`);
    return undefined;
  }
  if (isSeq(node)) {
    const items = node.items.map((item) => readPattern(item, ctx));
    return items.every((p) => p !== undefined) ? { op: 'list', items: items as Pattern[] } : undefined;
  }
  if (!isMap(node)) {
    ctx.problem(node, 'cannot match a value of this kind');
    return undefined;
  }
  const keys = node.items.map((pair) => (isPair(pair) && isScalar(pair.key) ? String(pair.key.value) : ''));
  if (keys.some((k) => k.startsWith('$'))) return readOperator(node.items, keys, node, ctx);
  const fields: Array<[string, Pattern]> = [];
  let ok = true;
  node.items.forEach((pair, i) => {
    const p = readPattern(pair.value, ctx);
    if (p === undefined) ok = false;
    else fields.push([keys[i]!, p]);
  });
  return ok ? { op: 'fields', fields } : undefined;
}

function readOperator(pairs: readonly { key: unknown; value: unknown }[], keys: readonly string[], node: unknown, ctx: PatternContext): Pattern | undefined {
  if (pairs.length !== 1) {
    ctx.problem(node, `an operator stands alone in its mapping: {${keys.join(', ')}} mixes ${keys.find((k) => k.startsWith('$'))} with other keys`);
    return undefined;
  }
  const op = keys[0]!;
  const arg = pairs[0]!.value;
  const resolved = isAlias(arg) ? arg.resolve(ctx.doc) : arg;
  const text = isScalar(resolved) && typeof resolved.value === 'string' ? resolved.value : undefined;
  switch (op) {
    case '$contains':
      if (text === undefined) break;
      return { op: 'contains', text };
    case '$matches':
      if (text === undefined) break;
      try {
        return { op: 'matches', regex: new RegExp(text) };
      } catch (e) {
        ctx.problem(resolved, `$matches: not a valid regular expression: ${(e as Error).message}`);
        return undefined;
      }
    case '$includes': {
      if (!isSeq(resolved)) {
        ctx.problem(resolved ?? node, '$includes takes a list of the items the value must include');
        return undefined;
      }
      const items = resolved.items.map((item) => readPattern(item, ctx));
      return items.every((p) => p !== undefined) ? { op: 'includes', items: items as Pattern[] } : undefined;
    }
    default:
      ctx.problem(pairs[0]!.key, `unknown operator "${op}"${didYouMean(op, OPERATORS)}; the operators are ${OPERATORS.join(', ')}`);
      return undefined;
  }
  ctx.problem(resolved ?? node, `${op} takes text`);
  return undefined;
}

/** One way a value differs from its pattern: where, and what was expected there. */
export interface Mismatch {
  path: string;
  got: unknown;
  expected: string;
}

/** The mismatches of `actual` against `pattern`; none means it matches. */
export function match(pattern: Pattern, actual: unknown, path = ''): Mismatch[] {
  const miss = (): Mismatch[] => [{ path, got: actual, expected: describe(pattern) }];
  switch (pattern.op) {
    case 'unset':
      return actual === undefined || actual === null ? [] : miss();
    case 'equal':
      return actual === pattern.value ? [] : miss();
    case 'contains':
      return typeof actual === 'string' && actual.includes(pattern.text) ? [] : miss();
    case 'matches':
      return typeof actual === 'string' && pattern.regex.test(actual) ? [] : miss();
    case 'includes':
      return Array.isArray(actual) && pattern.items.every((p) => actual.some((a) => match(p, a).length === 0)) ? [] : miss();
    case 'list':
      if (!Array.isArray(actual) || actual.length !== pattern.items.length) return miss();
      return pattern.items.flatMap((p, i) => match(p, actual[i], `${path}[${i}]`));
    case 'fields':
      if (!isRecord(actual)) return miss();
      return pattern.fields.flatMap(([k, p]) => match(p, field(actual, k), path ? `${path}.${k}` : k));
  }
}

/** An own field of an object (never one inherited from Object.prototype). */
export function field(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How a pattern reads in a failure message. */
export function describe(p: Pattern): string {
  switch (p.op) {
    case 'unset':
      return 'unset';
    case 'equal':
      return JSON.stringify(p.value);
    case 'contains':
      return `text containing ${JSON.stringify(p.text)}`;
    case 'matches':
      return `text matching ${String(p.regex)}`;
    case 'includes':
      return `a list including ${p.items.map(describe).join(' and ')}`;
    case 'list':
      return `[${p.items.map(describe).join(', ')}]`;
    case 'fields':
      return `{${p.fields.map(([k, v]) => `${k}: ${describe(v)}`).join(', ')}}`;
  }
}

/** A value as a failure message shows it: JSON, shortened when long; `unset` for undefined. */
export function show(v: unknown, max = 200): string {
  if (v === undefined) return 'unset';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line per mismatch: `PATH is GOT, expected WANT` (GOT shortened to `max` characters). */
export function explain(mismatches: readonly Mismatch[], prefix = '', max = 200): string[] {
  return mismatches.map((m) => {
    const where = [prefix, m.path].filter(Boolean).join(m.path.startsWith('[') ? '' : '.') || 'the value';
    return `${where} is ${show(m.got, max)}, expected ${m.expected}`;
  });
}
