// Meaning checks on a normalized flow: targets, tools, variables, prompts, patterns, generated
// tool names, reachability and ways out. Each finding points at the most specific node. This file
// checks the flow as a whole and runs the rest: each state (check-state.ts, check-tools.ts,
// check-transitions.ts), unique ids, types and reachability.

import type { Catalog } from './catalog.ts';
import { checkFields } from './check-fields.ts';
import { checkGlobal } from './check-global.ts';
import { checkState, checkTurnTaking } from './check-state.ts';
import { checkTool } from './check-tools.ts';
import { END, ERROR, type Flow, type SourcePath } from './flow.ts';
import { checkGraph } from './reachability.ts';
import { own } from './records.ts';
import { semanticContext, type SemanticContext } from './semantic-context.ts';
import type { Reporter } from './source.ts';
import { checkTypes } from './type-check.ts';
import { checkUniqueIds } from './unique-ids.ts';

export function checkSemantics(r: Reporter, flow: Flow, cat: Catalog): void {
  const c = semanticContext(r, flow, cat);
  checkHeader(c);
  checkTurnTaking(r, flow.turnTaking, ['turn_taking']);
  checkStart(c);
  for (const [name, t] of Object.entries(flow.tools)) checkTool(c, name, t);
  for (const id of flow.stateOrder) checkState(c, flow.states[id]!);
  checkGlobal(c);
  checkFields(c);

  checkUniqueIds(r);
  checkTypes(r, flow, cat);
  checkGraph(r, flow);
  for (const v of Object.values(flow.variables)) {
    if (v.required && v.default === undefined && !setAnywhere(v.name, cat)) {
      r.warn('required-never-set', v.at, `required variable "${v.name}" is never set by any tool, field, capture or set`, true);
    }
    checkLabel(c, v.label, [...v.at, 'label']);
  }
}

/** The flow's id: hyphens load (Prepatu's ids have them) but are not ours. (Its version, form and reserved state ids are in the syntax table.) */
function checkHeader({ r, flow }: SemanticContext): void {
  if (/^[a-z][a-z0-9_]*-[a-z0-9_-]*$/.test(flow.id)) {
    r.warn('bad-value', ['id'], `flow id "${flow.id}" should use underscores, not hyphens ([a-z][a-z0-9_]*)`);
  }
}

/** Where a visit starts, where the settings send it (on_timeout, on_error), and the base prompt's names. */
function checkStart({ r, flow, checkTarget, checkTemplate }: SemanticContext): void {
  if (flow.stateOrder.length > 0) {
    const initialAt = [typeof own(r.src.data as Record<string, unknown>, 'initial') === 'string' ? 'initial' : 'initial_state'];
    // __end__ and __error__ are refused by the syntax table.
    if (flow.initial !== END && flow.initial !== ERROR) checkTarget(flow.initial, initialAt);
  }
  if (flow.settings.onTimeout) checkTarget(flow.settings.onTimeout, ['settings', 'on_timeout']);
  if (flow.settings.onError) checkTarget(flow.settings.onError, ['settings', 'on_error']);
  checkTemplate(flow.basePrompt, 'base_prompt' in (r.src.data as object) ? ['base_prompt'] : ['settings', 'base_system_prompt'], 'the base prompt');
}

/** A variable's label is words a visitor reads as they are, with no {name} (it is not filled in); the syntax table refuses a blank one. */
function checkLabel({ r }: SemanticContext, label: string | undefined, at: SourcePath): void {
  if (label === undefined) return;
  if (/\{[A-Za-z_]/.test(label)) r.warn('bad-value', at, 'a label is shown as written: {…} in it is not filled in with a value');
}

function setAnywhere(name: string, cat: Catalog): boolean {
  for (const s of cat.settable.values()) if (s.has(name)) return true;
  const info = cat.variables.get(name);
  // Declared only: its recorded place is the declaration itself.
  return info !== undefined && info.at[0] !== 'variables';
}
