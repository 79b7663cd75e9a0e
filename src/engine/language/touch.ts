// Ways on by touch in states that only the LLM was meant to move on (Prepatu's wizards): the
// form's Continue calls the state's advancing tool that the form fills, and an LLM-only state's
// advancing tools without parameters are shown as buttons. A visitor who only taps can always go on.

import { END, resolveTool, type Flow, type StateDef, type ToolDef, type UiAction } from './flow.ts';
import { stateBranches } from './branches.ts';
import { own } from './records.ts';

/** UI events the engine gives a meaning of its own: never used as a tool button's event. */
export const BUILT_IN_EVENTS: ReadonlySet<string> = new Set(['form_submit', 'option_select', 'confirm_variable', 'field_change', 'confirm_action', 'reject_action', 'back', 'start_over', 'more_time']);

/** The state's own tools that move it on (mapped in on_tool_call), in the order it offers them; no action-gated or HTTP ones. */
function advancingTools(flow: Flow, state: StateDef): ToolDef[] {
  return state.agent.tools.flatMap((name) => {
    const tool = resolveTool(flow, state, name);
    const moves = own(state.transitions.onToolCall, name) !== undefined;
    return tool && moves && !tool.confirm && !tool.http ? [tool] : [];
  });
}

/** The variable a tool parameter sets. */
export function paramVariable(tool: ToolDef, param: string): string {
  return own(tool.capture, param) ?? param;
}

/**
 * The tool a form's Continue calls: in a state with a form and no `form_submit` transition, the
 * one advancing tool with parameters, each of which sets one of the form's fields.
 */
export function formTool(flow: Flow, state: StateDef): ToolDef | undefined {
  const fields = new Set((state.ui?.type === 'form' ? state.ui.fields : []).map((f) => f.id));
  if (fields.size === 0 || own(state.transitions.onUiEvent, 'form_submit') !== undefined) return undefined;
  const filling = advancingTools(flow, state).filter((t) => t.parameters.length > 0 && t.parameters.every((p) => fields.has(paramVariable(t, p.name))));
  return filling.length === 1 ? filling[0] : undefined;
}

/**
 * Buttons for a state with a screen whose every way out is the LLM's (no UI events, utterance
 * rules, timeout or gate): one per advancing tool without parameters, labelled from its name
 * ("confirm_booking" → "Confirm booking"); its event is the tool's name.
 */
export function toolButtons(flow: Flow, state: StateDef): UiAction[] {
  const t = state.transitions;
  const llmOnly = Object.keys(t.onUiEvent).length === 0 && t.onUtterance.length === 0 && !t.onTimeout && !state.gate;
  if (!llmOnly || !state.ui || state.ui.type === 'other') return [];
  return advancingTools(flow, state)
    .filter((tool) => tool.parameters.length === 0 && !BUILT_IN_EVENTS.has(tool.name) && !state.ui!.actions.some((a) => a.event === tool.name))
    .map((tool) => ({ event: tool.name, label: labelOf(tool.name) }));
}

function labelOf(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The step's buttons that may go back, which the generated `go_back` tool names: Back where the
 * flow allows it (not on its first step), and each of the step's own buttons that no tool stands
 * for, whose mapping leads only to other steps, each of which can lead here again ("Change my
 * details"; never "I agree", which leads on). Whether one really goes back is known only in a
 * visit: the engine takes it only to a step the visit has shown.
 */
export function backButtons(flow: Flow, state: StateDef): UiAction[] {
  if (state.terminal) return [];
  const buttons: UiAction[] = [];
  if (flow.settings.allowBack && state.id !== flow.initial && own(state.transitions.onUiEvent, 'back') === undefined) {
    buttons.push({ event: 'back', label: 'Back' });
  }
  for (const action of state.ui?.actions ?? []) {
    const branches = own(state.transitions.onUiEvent, action.event);
    if (action.tool !== undefined || branches === undefined || branches.length === 0) continue;
    if (BUILT_IN_EVENTS.has(action.event) && action.event !== 'back') continue;
    if (branches.every((b) => b.target !== state.id && leadsTo(flow, b.target, state.id))) buttons.push(action);
  }
  return buttons;
}

/** Whether some way through the flow leads from state `from` to state `to`. */
function leadsTo(flow: Flow, from: string, to: string): boolean {
  const seen = new Set<string>();
  const next = [from];
  while (next.length > 0) {
    const id = next.pop()!;
    if (id === to) return true;
    const s = id === END || seen.has(id) ? undefined : flow.states[id];
    if (!s) continue;
    seen.add(id);
    next.push(...stateBranches(s).map((b) => b.target));
  }
  return false;
}
