// What the flow schema (schema/vfdl.schema.json, made from the language's own syntax table) says
// at a place in a flow: the keys a mapping there may have, the values a key may take, and the
// description of each, for the editor's completion and hover help. `$ref`, `anyOf` and the
// mappings keyed by name (states, tools, variables) are followed; a path may lead nowhere.

import type { YamlPath } from './yaml-place.ts';

/** A JSON Schema node, as far as these helps read it. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  propertyNames?: SchemaNode;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  enum?: unknown[];
  required?: string[];
  definitions?: Record<string, SchemaNode>;
}

/** A key a mapping may have, or a value a key may take, with what it is for. */
export interface Suggestion {
  label: string;
  description?: string;
  required?: boolean;
}

export class SchemaHelp {
  constructor(private readonly root: SchemaNode) {}

  /** The node `$ref` points at, or the node itself. */
  private resolve(node: SchemaNode, depth = 0): SchemaNode {
    if (!node.$ref || depth > 16) return node;
    const name = node.$ref.replace(/^#\/definitions\//, '');
    const target = this.root.definitions?.[name];
    return target ? this.resolve(target, depth + 1) : node;
  }

  /** Every alternative a node allows (its anyOf and oneOf, flattened), resolved. */
  private alternatives(node: SchemaNode, depth = 0): SchemaNode[] {
    const n = this.resolve(node);
    const options = [...(n.anyOf ?? []), ...(n.oneOf ?? [])];
    if (options.length === 0 || depth > 8) return [n];
    // A node with keys or a type of its own keeps them (its oneOf then only narrows it down);
    // its description stays with its alternatives, which often have none.
    const own = n.properties || n.type || n.enum ? [n] : [];
    const more = options.flatMap((o) => this.alternatives(o, depth + 1)).map((o) => (o.description || !n.description ? o : { ...o, description: n.description }));
    return [...own, ...more];
  }

  /** What one step of a path leads to from one node: a property, a keyed entry, a list item. */
  private child(node: SchemaNode, step: string | number): SchemaNode[] {
    if (typeof step === 'number') return node.items ? [node.items] : [];
    const own = node.properties?.[step];
    if (own) return [own];
    for (const [pattern, value] of Object.entries(node.patternProperties ?? {})) if (new RegExp(pattern).test(step)) return [value];
    return typeof node.additionalProperties === 'object' ? [node.additionalProperties] : [];
  }

  /** The schema nodes (alternatives) that hold at `path`. */
  at(path: YamlPath): SchemaNode[] {
    let nodes = this.alternatives(this.root);
    for (const step of path) nodes = nodes.flatMap((n) => this.child(n, step)).flatMap((n) => this.alternatives(n));
    return nodes;
  }

  /** The keys a mapping at `path` may have, each once, with their descriptions. */
  keys(path: YamlPath): Suggestion[] {
    const out = new Map<string, Suggestion>();
    for (const node of this.at(path)) {
      for (const [name, value] of Object.entries(node.properties ?? {})) {
        if (out.has(name)) continue;
        const description = this.describe(value);
        out.set(name, { label: name, ...(description ? { description } : {}), ...(node.required?.includes(name) ? { required: true } : {}) });
      }
    }
    return [...out.values()];
  }

  /** Whether a mapping may stand at `path` (so a bare word there is a key). */
  takesKeys(path: YamlPath): boolean {
    return this.at(path).some((n) => n.properties !== undefined || n.additionalProperties !== undefined);
  }

  /** The fixed values (an enum's, true and false) a value at `path` may take. */
  values(path: YamlPath): Suggestion[] {
    const out = new Map<string, Suggestion>();
    for (const node of this.at(path)) {
      for (const v of node.enum ?? []) if (v !== null && !out.has(String(v))) out.set(String(v), { label: String(v) });
      const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
      if (types.includes('boolean')) for (const v of ['true', 'false']) out.set(v, { label: v });
    }
    return [...out.values()];
  }

  /** What the value at `path` is for, in the schema's words (the first description found). */
  description(path: YamlPath): string | undefined {
    for (const node of this.at(path)) if (node.description) return node.description;
    return undefined;
  }

  /** Whether the value at `path` names a state (a target, a fallback), from the schema's own words. */
  namesState(path: YamlPath): boolean {
    return this.at(path).some((n) => /\bstate id\b|\bstate to\b|names? a state/i.test(n.description ?? ''));
  }

  private describe(node: SchemaNode): string | undefined {
    return this.alternatives(node).find((n) => n.description)?.description;
  }
}
