// The JSON Schema of a flow file, derived from the syntax table, so an editor with
// yaml-language-server completes and underlines flows exactly as `vfdl check` reads them.
// Draft-07 with `definitions`: the dialect every version of yaml-language-server reads.

import { flowShape, namedShapes, type Shape } from './syntax.ts';

type Schema = Record<string, unknown>;

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

function inline(shape: Shape, defs?: Map<string, Schema>): Schema {
  const doc = shape.doc ? { description: shape.doc } : {};
  switch (shape.kind) {
    case 'string':
      return { type: 'string', ...(shape.enum ? { enum: [...shape.enum] } : {}), ...doc };
    case 'number':
      return { type: shape.integer ? 'integer' : 'number', ...(shape.min !== undefined ? { minimum: shape.min } : {}), ...(shape.max !== undefined ? { maximum: shape.max } : {}), ...doc };
    case 'boolean':
      return { type: 'boolean', ...doc };
    case 'any':
      return { ...doc };
    case 'array':
      return { type: 'array', items: toSchema(shape.items, defs), ...doc };
    case 'map':
      return {
        type: ['object', 'null'],
        additionalProperties: toSchema(shape.values, defs),
        ...(shape.keyDoc ? { propertyNames: { description: shape.keyDoc } } : {}),
        ...doc,
      };
    case 'union':
      return { anyOf: shape.options.map((o) => toSchema(o, defs)), ...doc };
    case 'object': {
      const properties: Record<string, Schema> = {};
      for (const [k, p] of Object.entries(shape.props)) {
        properties[k] = p.notActedOn ? { ...toSchema(p.shape, defs), description: `Accepted, not acted on: ${p.notActedOn}` } : toSchema(p.shape, defs);
      }
      const required = Object.entries(shape.props).filter(([, p]) => p.required).map(([k]) => k);
      return {
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: shape.open !== undefined,
        ...doc,
      };
    }
  }
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
