// The JSON Schema of a flow file, derived from the syntax table, so an editor with
// yaml-language-server completes and underlines flows exactly as `vfdl check` reads them.
// Draft-07 with `definitions`: the dialect every version of yaml-language-server reads.
// tests/unit/schema-parity.test.ts holds the two to the same verdicts on mutated flows.

import { flowShape, namedShapes, type KeyRule, type Shape } from './syntax.ts';

type Schema = Record<string, unknown>;

const NULL: Schema = { type: 'null' };
const NOT_NULL: Schema = { not: NULL };

function toSchema(shape: Shape, defs?: Map<string, Schema>): Schema {
  const name = namedShapes.get(shape);
  if (name !== undefined && defs) {
    if (!defs.has(name)) {
      defs.set(name, {}); // reserve first: shapes may refer to themselves
      defs.set(name, inline(shape, defs));
    }
    return { $ref: `#/definitions/${name}` };
  }
  return inline(shape, defs);
}

/**
 * The schema that also takes an empty value (`key:`), which counts as absent for a key that is
 * not required. The description stays on top, where an editor shows it.
 */
function nullable(s: Schema): Schema {
  if (Object.keys(s).every((k) => k === 'description')) return s;
  // Every keyword but `type` and `enum` applies to its own kind of value only, so null passes them.
  if (typeof s['type'] === 'string') return { ...s, type: [s['type'], 'null'], ...(Array.isArray(s['enum']) ? { enum: [...(s['enum'] as unknown[]), null] } : {}) };
  const { description, ...rest } = s;
  return { anyOf: [rest, NULL], ...(description !== undefined ? { description } : {}) };
}

function inline(shape: Shape, defs?: Map<string, Schema>): Schema {
  const doc = shape.doc ? { description: shape.doc } : {};
  switch (shape.kind) {
    case 'string':
      return {
        type: 'string',
        ...(shape.enum ? { enum: [...shape.enum] } : {}),
        ...(shape.pattern !== undefined ? { pattern: shape.pattern } : {}),
        ...(shape.regex ? { format: 'regex' } : {}),
        ...doc,
      };
    case 'number':
      return { type: shape.integer ? 'integer' : 'number', ...(shape.min !== undefined ? { minimum: shape.min } : {}), ...(shape.max !== undefined ? { maximum: shape.max } : {}), ...doc };
    case 'boolean':
      return { type: 'boolean', ...doc };
    case 'any':
      return { ...doc };
    case 'array':
      return { type: 'array', items: toSchema(shape.items, defs), ...(shape.min ? { minItems: shape.min.count } : {}), ...doc };
    case 'map':
      return {
        type: 'object',
        additionalProperties: toSchema(shape.values, defs),
        ...(shape.keyDoc || shape.keys ? { propertyNames: { ...(shape.keyDoc ? { description: shape.keyDoc } : {}), ...(shape.keys ? { pattern: shape.keys.pattern } : {}) } } : {}),
        ...(shape.min ? { minProperties: shape.min.count } : {}),
        ...doc,
      };
    case 'union':
      return { anyOf: shape.options.map((o) => toSchema(o, defs)), ...doc };
    case 'object':
      return objectSchema(shape, defs, doc);
  }
}

function objectSchema(shape: Extract<Shape, { kind: 'object' }>, defs: Map<string, Schema> | undefined, doc: Schema): Schema {
  const properties: Record<string, Schema> = {};
  for (const [k, p] of Object.entries(shape.props)) {
    const s = p.notActedOn ? { ...toSchema(p.shape, defs), description: `Accepted, not acted on: ${p.notActedOn}` } : toSchema(p.shape, defs);
    properties[k] = p.required ? s : nullable(s);
  }
  const required = Object.entries(shape.props).filter(([, p]) => p.required).map(([k]) => k);
  const oneOf = (shape.rules ?? []).filter((r) => r.kind === 'one-of');
  const when = (shape.rules ?? []).filter((r) => r.kind === 'when');
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(shape.extensions ? { patternProperties: { '^x-': { description: "the author's own: ignored, a place for YAML anchors (&name) to merge from (<<: *name)" } } } : {}),
    additionalProperties: shape.open !== undefined,
    ...(oneOf.length === 1 ? { oneOf: oneOfSchema(oneOf[0]!) } : {}),
    ...(oneOf.length > 1 || when.length ? { allOf: [...(oneOf.length > 1 ? oneOf.map((r) => ({ oneOf: oneOfSchema(r) })) : []), ...when.map((r) => whenSchema(r, defs))] } : {}),
    ...doc,
  };
}

/** Exactly one of the keys is given: the alternatives, each with its key given and not empty. */
function oneOfSchema(rule: Extract<KeyRule, { kind: 'one-of' }>): Schema[] {
  return rule.keys.map((k) => ({ required: [k], properties: { [k]: NOT_NULL } }));
}

/** `if` the key is given (with one of the values) `then` the rule's requirements hold. */
function whenSchema(rule: Extract<KeyRule, { kind: 'when' }>, defs?: Map<string, Schema>): Schema {
  const properties: Record<string, Schema> = {};
  for (const k of rule.require ?? []) properties[k] = NOT_NULL;
  for (const k of rule.forbid ?? []) properties[k] = NULL;
  // A required key must have this shape; another may also be left empty.
  for (const [k, s] of Object.entries(rule.shapes ?? {})) properties[k] = rule.require?.includes(k) ? toSchema(s, defs) : nullable(toSchema(s, defs));
  return {
    if: { required: [rule.key], properties: { [rule.key]: rule.values ? { enum: [...rule.values] } : NOT_NULL } },
    then: { ...(rule.require?.length ? { required: [...rule.require] } : {}), properties },
  };
}

/** The schema document for flow files. */
export function flowJsonSchema(): Schema {
  const defs = new Map<string, Schema>();
  const root = inline(flowShape, defs);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'VFDL flow',
    ...root,
    definitions: Object.fromEntries([...defs.entries()].sort(([a], [b]) => a.localeCompare(b))),
  };
}
