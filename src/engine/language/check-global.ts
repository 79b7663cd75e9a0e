// Meaning checks on `global`, the flow-wide ways out: its tools are the flow's own, its mappings
// name what it offers and lead to states that exist, its buttons do something, its utterance
// rules compile, and the states it excepts exist.

import { checkRule } from './check-transitions.ts';
import { didYouMean } from './diagnostics.ts';
import type { SourcePath } from './flow.ts';
import { own } from './records.ts';
import type { SemanticContext } from './semantic-context.ts';
import { BUILT_IN_EVENTS } from './touch.ts';

/** The kiosk's own event that a button may send from any screen: it wipes the visit. */
const START_OVER = 'start_over';

/** Every part of the flow's `global` block, each reported where it is written. */
export function checkGlobal(c: SemanticContext): void {
  const { r, flow } = c;
  const g = flow.global;
  if (!g) return;
  const defined = Object.keys(flow.tools);
  const flowTool = (name: string, at: SourcePath, what: string) => {
    if (!own(flow.tools, name)) r.error('unknown-tool', at, `${what} "${name}" is not one of the flow's tools: a global tool is defined in the top-level tools${didYouMean(name, defined)}`);
  };
  g.tools.forEach((name, i) => flowTool(name, [...g.at, 'tools', i], 'tool'));
  for (const [tool, bs] of Object.entries(g.onToolCall)) {
    if (!g.tools.includes(tool)) {
      r.error('unknown-tool', [...g.at, 'on_tool_call', tool], `global on_tool_call names "${tool}", which global.tools does not offer the LLM; add it there${didYouMean(tool, g.tools)}`, true);
    }
    c.checkBranches(bs);
  }
  for (const [event, bs] of Object.entries(g.onUiEvent)) {
    if (BUILT_IN_EVENTS.has(event)) {
      r.error('bad-value', [...g.at, 'on_ui_event', event], `"${event}" is a UI event the kiosk gives its own meaning in each state; give a global button an event of its own (talk_to_person)`, true);
    }
    c.checkBranches(bs);
  }
  g.actions.forEach((a, i) => {
    const at = [...g.at, 'actions', i];
    if (a.tool !== undefined) flowTool(a.tool, [...at, 'tool'], `the button "${a.label}" names tool`);
    else if (a.event !== START_OVER && BUILT_IN_EVENTS.has(a.event)) {
      r.error('bad-value', [...at, 'event'], `"${a.event}" is a UI event the kiosk gives its own meaning in each state; give a global button an event of its own (talk_to_person)`);
    } else if (a.event !== START_OVER && !own(g.onUiEvent, a.event) && !flow.stateOrder.some((id) => own(flow.states[id]!.transitions.onUiEvent, a.event))) {
      r.error('no-effect', [...at, 'event'], `a tap on "${a.label}" would do nothing: say where it leads in global.on_ui_event (${a.event}: a_state), or give it a tool`);
    }
  });
  g.onUtterance.forEach((rule) => {
    checkRule(c, rule);
    if (rule.requiresConfirmation) r.error('bad-value', [...rule.at, 'requires_confirmation'], 'a global rule is not behind any gate: requires_confirmation belongs on a state\'s own rule', true);
  });
  g.except.forEach((id, i) => c.checkTarget(id, [...g.at, 'except', i]));
  if (g.onNoMatch) c.checkTarget(g.onNoMatch.fallback, [...g.onNoMatch.at, 'fallback']);
}
