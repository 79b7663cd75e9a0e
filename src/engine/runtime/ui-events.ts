// The visitor's taps and typing on the kiosk (UI events): one handler per kind of event, a tapped
// tool button, or the event's own mapping in the state's on_ui_event.

import { resolveTool, type Branch, type FieldProblem, type StateDef, type ToolDef } from '../language/flow.ts';
import { displayValue } from '../language/interpolate.ts';
import { globalIn } from '../language/global.ts';
import { dict, own } from '../language/records.ts';
import { formTool, paramVariable, toolButtons } from '../language/touch.ts';
import { isBlank } from '../language/values.ts';
import { afterTool } from './after-tool.ts';
import { confirmVariables } from './gate.ts';
import type { UiEventInput } from './messages.ts';
import type { Turn } from './session.ts';
import { checkArguments } from './arguments.ts';
import { decideAction, editAction, tapTool } from './tool-call.ts';
import { attempt, reportBlocked } from './transition.ts';
import { moreTime } from './time-limits.ts';

/** One UI event as its handler gets it: the turn, the event, the state it happened in and the event's mapping there. */
interface UiEvent {
  t: Turn;
  ev: UiEventInput;
  state: StateDef;
  mapped: readonly Branch[] | undefined;
}

/** Handles an event of its kind; false leaves it to the event's mapping, else to a tool button of the same event. */
type UiHandler = (e: UiEvent) => boolean;

export function handleUi(t: Turn, ev: UiEventInput): void {
  const left = t.s.deadline === null ? null : t.s.deadline - t.s.now;
  t.userActivity();
  if (ev.event === 'more_time') return moreTime(t, left);
  t.s.refused = false;
  t.s.noMatch = 0;
  const state = t.state;
  if (!state) return;
  const mapped = own(state.transitions.onUiEvent, ev.event);
  const global = globalIn(t.flow, state);
  // A button that names a tool proposes that tool's action, as the LLM's call would.
  const toolName = [...(state.ui?.actions ?? []), ...global.actions].find((a) => a.event === ev.event && a.tool !== undefined)?.tool;
  const tapped = toolName === undefined ? undefined : resolveTool(t.flow, state, toolName);
  if (tapped) {
    tapTool(t, tapped);
    return;
  }
  if (own(UI_EVENTS, ev.event)?.({ t, ev, state, mapped })) return;
  if (mapped) return void attempt(t, mapped, 'ui', true);
  const button = toolButtons(t.flow, state).find((b) => b.event === ev.event);
  const branches = button && own(state.transitions.onToolCall, button.event);
  if (button && branches) {
    t.system(`[flow engine] The visitor tapped "${button.label}", which does what ${button.event} does.`);
    attempt(t, branches, 'ui', true);
    return;
  }
  // Below everything of the state's own: the flow's global mapping.
  const everywhere = own(global.onUiEvent, ev.event);
  if (everywhere) attempt(t, everywhere, 'ui', true);
}

/** `form_submit`: the form's values checked and kept, then the mapping, the form's tool or the gate moves on. */
function submitForm({ t, ev, state, mapped }: UiEvent): boolean {
  const missing: string[] = [];
  const invalid: string[] = [];
  const why: string[] = [];
  const problems = dict<FieldProblem>();
  const typed = dict<unknown>();
  for (const f of state.ui?.fields ?? []) {
    const raw = own(ev.values, f.id);
    if (isBlank(raw)) {
      if (f.required) missing.push(f.id);
      continue;
    }
    const c = t.convert(f.id, raw);
    // A required checkbox is a consent: ticked, or the step does not go on.
    if (c.ok && f.type === 'checkbox' && f.required && c.value !== true) missing.push(f.id);
    else if (c.ok) typed[f.id] = c.value;
    else {
      invalid.push(f.id);
      why.push(`${f.id} ${c.fieldProblem ? '' : 'is not valid: '}${c.problem}`);
      if (c.fieldProblem) problems[f.id] = c.fieldProblem;
    }
  }
  if (invalid.length) {
    reportBlocked(t, mapped?.[0]?.target ?? null, 'invalid_input', invalid, `Please check: ${why.join('; ')}.`, problems);
    return true;
  }
  if (missing.length) {
    reportBlocked(t, mapped?.[0]?.target ?? null, 'not_captured', missing, `Still needed: ${missing.join(', ')}.`);
    return true;
  }
  const tool = mapped ? undefined : formTool(t.flow, state);
  if (tool) {
    submitThroughTool(t, tool, typed);
    return true;
  }
  for (const [k, v] of Object.entries(typed)) t.setValue(k, v, 'ui', true);
  if (Object.keys(typed).length) {
    t.system(`[flow engine] The visitor filled in the form by hand: ${Object.entries(typed).map(([k, v]) => `${k} = "${displayValue(v)}"`).join(', ')}.`);
  }
  moveOnByHand(t, mapped);
  return true;
}

/** `option_select`: the chosen option becomes the state's variable, then the flow moves on. */
function selectOption({ t, ev, state, mapped }: UiEvent): boolean {
  const variable = state.ui?.variable;
  const value = ev.selected_id ?? ev.value;
  if (variable && value !== undefined) {
    const c = t.convert(variable, value);
    if (!c.ok) {
      reportBlocked(t, mapped?.[0]?.target ?? null, 'invalid_input', [variable], `"${String(value)}" is not one of the choices.`);
      return true;
    }
    t.setValue(variable, c.value, 'ui', true);
  }
  moveOnByHand(t, mapped);
  return true;
}

/** `confirm_variable`: one value's Confirm, or "Confirm all" with the values the visitor saw waiting: one step. */
function confirmTapped({ t, ev }: UiEvent): boolean {
  const asked = ev.variables ?? (ev.variable ? [ev.variable] : []);
  const pending = asked.filter((v, i) => typeof v === 'string' && own(t.s.gate, v) === 'pending' && asked.indexOf(v) === i);
  if (pending.length) confirmVariables(t, pending, true);
  return true;
}

/** `field_change`: a value the visitor typed into a field of the form, confirmed as they typed it (or cleared). */
function changeField({ t, ev, state }: UiEvent): boolean {
  const v = ev.variable;
  if (!v || !(state.ui?.fields ?? []).some((f) => f.id === v)) return true;
  if (isBlank(ev.value)) {
    t.clearValue(v, 'ui');
    return true;
  }
  const c = t.convert(v, ev.value);
  // A value that breaks a rule of its field is said beside it at once; one of the wrong kind waits for Continue.
  if (!c.ok && c.fieldProblem) reportBlocked(t, null, 'invalid_input', [v], `Please check: ${v} ${c.problem}.`, dict([[v, c.fieldProblem]]));
  if (!c.ok) return true;
  t.setValue(v, c.value, 'ui', true);
  t.system(`[flow engine] The visitor typed ${v} = "${displayValue(c.value)}" themselves; it counts as confirmed.`);
  return true;
}

/** `confirm_action` and `reject_action`, unmapped: the visitor's answer to the pending action. */
function decideTapped({ t, ev, mapped }: UiEvent): boolean {
  if (mapped) return false;
  decideAction(t, ev.event === 'confirm_action');
  return true;
}

/** `edit_action`, unmapped: the visitor's changes to the pending action. */
function editTapped({ t, ev, mapped }: UiEvent): boolean {
  if (mapped) return false;
  editAction(t, ev.values ?? {});
  return true;
}

/** `back`, unmapped: the previous state, where the flow allows going back and there is one. */
function goBack({ t, mapped }: UiEvent): boolean {
  if (mapped || !t.flow.settings.allowBack || t.s.history.length === 0) return false;
  t.go(t.s.history[t.s.history.length - 1]!, 'back');
  return true;
}

/** The kinds of UI event the engine itself knows; any other event only has its mapping or a tool button. */
const UI_EVENTS: Readonly<Record<string, UiHandler>> = {
  form_submit: submitForm,
  option_select: selectOption,
  confirm_variable: confirmTapped,
  field_change: changeField,
  confirm_action: decideTapped,
  reject_action: decideTapped,
  edit_action: editTapped,
  back: goBack,
};

/**
 * Continue on a form whose state maps no form_submit: the form's values go through the state's
 * advancing tool (formTool) as if the LLM had called it with them: its parameters are checked, a
 * missing or invalid one is named on screen, and its transition is taken under the gate's rules.
 */
function submitThroughTool(t: Turn, tool: ToolDef, typed: Record<string, unknown>): void {
  const given = dict<unknown>();
  for (const p of tool.parameters) {
    const variable = paramVariable(tool, p.name);
    const value = own(typed, variable) ?? t.s.values[variable];
    if (!isBlank(value)) given[p.name] = value;
  }
  const args = checkArguments(tool, given, '');
  const target = own(t.state!.transitions.onToolCall, tool.name)?.[0]?.target ?? null;
  if (!args.ok) {
    const variable = args.field === undefined ? [] : [paramVariable(tool, args.field)];
    const missing = args.field !== undefined && given[args.field] === undefined;
    reportBlocked(t, target, missing ? 'not_captured' : 'invalid_input', variable, missing ? `Still needed: ${variable.join(', ')}.` : `Please check: ${args.detail}.`);
    return;
  }
  for (const [k, v] of Object.entries(typed)) t.setValue(k, v, 'ui', true);
  for (const [param, v] of Object.entries(args.values)) t.setValue(paramVariable(tool, param), v, 'ui', true);
  t.system(`[flow engine] The visitor filled in the form by hand and pressed Continue, which calls ${tool.name}: ${Object.entries(args.values).map(([k, v]) => `${k} = "${displayValue(v)}"`).join(', ')}.`);
  afterTool(t, tool);
}

/**
 * After the visitor gave values with their own hands: the event's mapping, or, unmapped, the
 * gate's on_confirm once every gated value is confirmed.
 */
function moveOnByHand(t: Turn, mapped: readonly Branch[] | undefined): void {
  const gate = t.state?.gate;
  if (mapped) attempt(t, mapped, 'ui', true);
  else if (gate && Object.values(t.s.gate).every((s) => s === 'confirmed')) attempt(t, gate.onConfirm, 'ui', true);
}
