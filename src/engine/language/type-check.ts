// Values must fit their variable's type, as far as a flow file shows them: a tool parameter
// must give the type of the variable it sets, and a `default` or a `set` value written in the
// file must convert to its variable's type (a number too long to hold exactly does not). At run
// time every value is converted again on its way in (values.ts, session.ts, tool-call.ts).

import { isScalar } from 'yaml';
import type { Catalog, VariableInfo } from './catalog.ts';
import { stateBranches } from './branches.ts';
import type { Flow, ParamDef, SourcePath, ToolDef } from './flow.ts';
import { isTodayText } from './dates.ts';
import { templateNames } from './interpolate.ts';
import { own } from './records.ts';
import type { Reporter } from './source.ts';
import { convertValue } from './values.ts';

/** Types whose values are stored as text, so a `string` variable holds them as they are. */
const TEXT_TYPES = new Set(['string', 'date', 'email', 'phone', 'enum']);

const sameChoice = (a: unknown, b: unknown) => a === b || (typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase());

/** Why a parameter's values do not fit the variable, or undefined when every one does. */
function paramMismatch(p: ParamDef, v: VariableInfo): string | undefined {
  if (v.type === 'enum') {
    const outside = (p.enum ?? []).filter((x) => !(v.enum ?? []).some((y) => sameChoice(x, y)));
    if (!p.enum) return `its values are any ${p.type}, but "${v.name}" takes only ${(v.enum ?? []).map(String).join(', ')}`;
    if (outside.length) return `${outside.map(String).join(', ')} ${outside.length > 1 ? 'are' : 'is'} not one of the choices of "${v.name}" (${(v.enum ?? []).map(String).join(', ')})`;
    return undefined;
  }
  if (p.type === v.type) return undefined;
  if (v.type === 'string' && TEXT_TYPES.has(p.type)) return undefined;
  if (v.type === 'number' && p.type === 'integer') return undefined;
  return `it is ${article(p.type)} ${p.type}, but "${v.name}" is ${article(v.type)} ${v.type}`;
}

/** "a" or "an" before a type's name: an integer, a date. */
export function article(type: string): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}

/** Type checks over the whole flow. */
export function checkTypes(r: Reporter, flow: Flow, cat: Catalog): void {
  const tools: ToolDef[] = [...Object.values(flow.tools), ...flow.stateOrder.flatMap((id) => Object.values(flow.states[id]!.tools))];
  for (const t of tools) {
    for (const p of t.parameters) {
      const variable = own(t.capture, p.name) ?? p.name;
      const info = cat.variables.get(variable);
      if (!info || info.at === p.at) continue; // the parameter itself gave the variable its type
      const why = paramMismatch(p, info);
      if (why) {
        const at = p.type !== 'enum' || own(rawAt(r, p.at), 'type') !== undefined ? [...p.at, 'type'] : [...p.at, 'enum'];
        r.error('type-mismatch', at, `parameter "${p.name}" of ${t.name} sets "${variable}", which it cannot hold: ${why}`);
      }
    }
  }
  for (const v of Object.values(flow.variables)) {
    if (v.default === undefined || (v.type === 'date' && isTodayText(v.default))) continue;
    const c = convertValue(v.type, v.default, v.enum);
    const at = [...v.at, 'default'];
    if (!c.ok) r.error('type-mismatch', at, `"${v.name}" is ${article(v.type)} ${v.type}, so its default cannot be ${written(r, at, v.default)}: ${c.problem}`);
  }
  const checkSet = (values: Readonly<Record<string, unknown>>, at: SourcePath) => {
    for (const [name, value] of Object.entries(values)) {
      // A text with {name} in it is only known at run time, where it is converted (or refused) then.
      if (value === null || (typeof value === 'string' && templateNames(value).length > 0)) continue;
      const info = cat.variables.get(name);
      if (!info || (info.type === 'date' && isTodayText(value))) continue;
      const c = convertValue(info.type, value, info.enum);
      if (!c.ok) r.error('type-mismatch', [...at, name], `"${name}" is ${article(info.type)} ${info.type}, so it cannot be set to ${written(r, [...at, name], value)}: ${c.problem}`);
    }
  };
  for (const id of flow.stateOrder) {
    const s = flow.states[id]!;
    for (const h of [...s.onEnter, ...s.onExit]) if (h.kind === 'set') checkSet(h.values, h.at);
    for (const b of stateBranches(s)) checkSet(b.set, [...b.at.slice(0, -1), 'set']);
  }
}

/** A value as the file writes it (a long number before YAML rounded it), shortened if long. */
function written(r: Reporter, path: SourcePath, value: unknown): string {
  const node = r.src.doc.getIn(path, true);
  const text = isScalar(node) && typeof node.source === 'string' && typeof value === 'number' ? node.source : JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 20)}… (${text.length} characters)` : text;
}

/** The mapping written at `path` in the file, or an empty one. */
function rawAt(r: Reporter, path: SourcePath): Record<string, unknown> {
  let node: unknown = r.src.data;
  for (const key of path) node = node !== null && typeof node === 'object' ? own(node as Record<string, unknown>, String(key)) : undefined;
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>) : {};
}
