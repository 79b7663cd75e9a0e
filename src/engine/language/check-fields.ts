// Meaning checks on form fields' rules: patterns compile and are not slow, bounds are in order, a
// message has a rule to go with, and a field lets through nothing that a tool taking its value
// later refuses (else a visitor confirms a value that is then refused, and is stuck).

import type { Field, Flow, ParamDef, ToolDef } from './flow.ts';
import { hasRules } from './field-rules.ts';
import type { SemanticContext } from './semantic-context.ts';
import { paramVariable } from './touch.ts';

/** Every field of every state. */
export function checkFields(c: SemanticContext): void {
  const tools = allTools(c.flow);
  for (const id of c.flow.stateOrder) {
    for (const f of c.flow.states[id]!.ui?.fields ?? []) {
      checkRules(c, f);
      for (const tool of tools) {
        for (const p of tool.parameters) if (paramVariable(tool, p.name) === f.id) checkGap(c, f, tool, p);
      }
    }
  }
}

function allTools(flow: Flow): ToolDef[] {
  return [...Object.values(flow.tools), ...flow.stateOrder.flatMap((id) => Object.values(flow.states[id]!.tools))];
}

/** A field's own rules: the pattern compiles, bounds in order, a message has a rule. */
function checkRules(c: SemanticContext, f: Field): void {
  if (f.pattern !== undefined) c.compiles(f.pattern, [...f.at, 'pattern'], '', 'field pattern');
  if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) {
    c.r.error('bad-value', [...f.at, 'min_length'], `min_length (${f.minLength}) is more than max_length (${f.maxLength}): no value could be given`);
  }
  if (f.min !== undefined && f.max !== undefined && typeof f.min === typeof f.max && f.min > f.max && !/today/.test(`${f.min}${f.max}`)) {
    c.r.error('bad-value', [...f.at, 'min'], `min (${f.min}) is after max (${f.max}): no value could be given`);
  }
  if (f.message !== undefined && !hasRules(f)) {
    c.r.warn('not-acted-on', [...f.at, 'message'], 'message is what the visitor reads when the value breaks a rule of the field, and this field has none (pattern, min_length, max_length, min, max)', true);
  }
}

/** What a parameter refuses that the field lets through, in words, if anything. */
function gaps(f: Field, p: ParamDef): string[] {
  const out: string[] = [];
  if (p.pattern !== undefined && p.pattern !== f.pattern) out.push(`must match ${p.pattern}`);
  const numeric = p.type === 'number' || p.type === 'integer';
  const fieldMin = numeric ? (typeof f.min === 'number' ? f.min : -Infinity) : (f.minLength ?? 0);
  const fieldMax = numeric ? (typeof f.max === 'number' ? f.max : Infinity) : (f.maxLength ?? Infinity);
  const unit = numeric ? '' : ' characters';
  if (p.type !== 'date' && p.min !== undefined && p.min > fieldMin) out.push(`must be at least ${p.min}${unit}`);
  if (p.type !== 'date' && p.max !== undefined && p.max < fieldMax) out.push(`must be at most ${p.max}${unit}`);
  return out;
}

/** A tool parameter that takes the field's value must refuse nothing the field lets through. */
function checkGap(c: SemanticContext, f: Field, tool: ToolDef, p: ParamDef): void {
  const missing = gaps(f, p);
  if (missing.length === 0) return;
  const [lo, hi] = p.type === 'number' || p.type === 'integer' ? ['min', 'max'] : ['min_length', 'max_length'];
  const rule = [
    p.pattern !== undefined ? `pattern: "${p.pattern}"` : undefined,
    p.min !== undefined ? `${lo}: ${p.min}` : undefined,
    p.max !== undefined ? `${hi}: ${p.max}` : undefined,
  ]
    .filter((x) => x !== undefined)
    .join(', ');
  c.r.warn(
    'validation-gap',
    [...f.at, 'id'],
    `parameter "${p.name}" of ${tool.name} takes the value of field "${f.id}", and ${missing.join(' and ')}, which the field does not ask: a visitor could confirm a value the tool then refuses. Give the field the same rule (${rule}) and a message for the visitor`,
  );
}
