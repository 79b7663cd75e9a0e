// A tool call from the LLM: stale-epoch and confinement checks, argument checking (with the
// flow's auto_extract patterns as a fallback), generated gate and action tools, captures, and the
// tool's transition. Every call gets exactly one tool_result.

import { CONFIRM_ACTION, GO_BACK, REJECT_ACTION, resolveTool, SET_LANGUAGE, type ToolDef } from '../language/flow.ts';
import { backButtons } from '../language/touch.ts';
import { languageName, primaryLanguage } from '../language/localize.ts';
import { confirmQuestion, confirmVariables, rejectVariables } from './gate.ts';
import { runHttp } from './action-effects.ts';
import { afterTool } from './after-tool.ts';
import { kioskSentence } from './kiosk-sentences.ts';
import { displayValue, interpolate } from '../language/interpolate.ts';
import type { RejectReason, ToolCallInput } from './messages.ts';
import { actionBusy, type Turn } from './session.ts';
import { attempt, reportBlocked } from './transition.ts';
import { copy, dict, own } from '../language/records.ts';
import { shownValues } from './shown-values.ts';
import { argumentsFromValues, checkArguments } from './arguments.ts';
import { inCase } from '../language/field-rules.ts';

export function reject(t: Turn, tool: string, callId: string, reason: RejectReason, detail: string, field?: string): void {
  t.emit({ type: 'tool_rejected', tool, call_id: callId, reason, detail, ...(field !== undefined ? { field } : {}) });
  t.emit({ type: 'tool_result', call_id: callId, tool, ok: false, content: { error: reason, detail } });
  if (reason !== 'stale') t.system(`[flow engine] ${tool} was not accepted: ${detail}`);
}

function ok(t: Turn, tool: string, callId: string, content: Record<string, unknown>): void {
  // An accepted call: the LLM made something of what the visitor said.
  t.s.noMatch = 0;
  t.emit({ type: 'tool_result', call_id: callId, tool, ok: true, content });
}

export function handleToolCall(t: Turn, call: ToolCallInput): void {
  const callId = call.call_id ?? t.id('call');
  const name = call.name;
  const state = t.state;
  if (call.epoch !== t.s.epoch || !state) {
    return reject(t, name, callId, 'stale', `asked for in epoch ${call.epoch}; the flow is now in epoch ${t.s.epoch}`);
  }
  const offered = t.cat.offered.get(state.id) ?? [];
  if (!offered.includes(name)) {
    return reject(t, name, callId, 'not_in_state', `"${name}" is not available in this step. Available: ${offered.join(', ') || 'none'}.`);
  }
  const gate = state.gate;
  if (gate) {
    const gated = gate.variables;
    for (const [prefix, confirm] of [['confirm_', true], ['reject_', false]] as const) {
      if (!name.startsWith(prefix)) continue;
      const subject = name.slice(prefix.length);
      const vars = subject === state.id ? gated : gated.includes(subject) ? [subject] : null;
      if (!vars) continue;
      if (!confirm) {
        const r = rejectVariables(t, vars);
        return ok(t, name, callId, { rejected: vars, cleared: r.cleared, note: 'Ask the visitor for the right value.' });
      }
      const r = confirmVariables(t, vars, false);
      if (!r.ok) {
        const detail =
          r.reason === 'no_user_turn'
            ? `${r.variables.join(', ')} cannot be confirmed before the visitor has answered. Ask: "${confirmQuestion(t)}"`
            : r.reason === 'user_refused'
              ? `the visitor just said no, so ${r.variables.join(', ')} must not be confirmed for them. Ask what is wrong and what the right value is, then capture it; call reject_${vars.length > 1 ? state.id : vars[0]} if they want it cleared.`
              : `${r.variables.join(', ')} has no value yet; capture it first.`;
        return reject(t, name, callId, r.reason, detail);
      }
      return ok(t, name, callId, { confirmed: r.confirmed, still_needed: r.stillNeeded });
    }
  }
  if (name === CONFIRM_ACTION || name === REJECT_ACTION) return decideAction(t, name === CONFIRM_ACTION, callId);
  if (name === SET_LANGUAGE) return chooseLanguage(t, call.args, callId);
  if (name === GO_BACK) return goBack(t, call.args, callId);

  const tool = resolveTool(t.flow, state, name)!;
  const busy = actionBusy(t.s, name);
  if (busy) return reject(t, name, callId, busy === 'running' ? 'action_running' : 'already_done', busyText(name, busy));
  const variable = (param: string) => own(tool.capture, param) ?? param;
  const args = checkArguments(tool, call.args, t.s.lastUtterance, (param, value) => t.convert(variable(param), value), (param, value) => inCase(value, t.cat.fieldCase.get(variable(param))));
  if (!args.ok) return reject(t, name, callId, 'invalid_arguments', args.detail, args.field);

  if (tool.confirm) return proposeAction(t, tool, args.values, callId);
  const captured = capture(t, tool, args.values, 'tool');
  if (tool.http) {
    const runId = runHttp(t, tool, args.values);
    if (runId === null) return t.emit({ type: 'tool_result', call_id: callId, tool: name, ok: false, content: { status: 'failed', captured } });
    return ok(t, name, callId, { status: 'running', action_id: runId, captured, note: runningNote(name) });
  }
  ok(t, name, callId, { captured, ...(args.ignored.length ? { ignored_arguments: args.ignored } : {}) });
  afterTool(t, tool);
}

/** Sets the variables a tool's arguments capture; returns them. */
function capture(t: Turn, tool: ToolDef, values: Record<string, unknown>, source: 'tool' | 'action' | 'ui'): Record<string, unknown> {
  const out = dict<unknown>();
  for (const [param, value] of Object.entries(values)) {
    const variable = own(tool.capture, param) ?? param;
    t.setValue(variable, value, source);
    out[variable] = value;
  }
  return out;
}

// ------------------------------------------------------------------ action gates (docs/vfdl.md, "Action gates")

/**
 * Makes the call the one pending action. One already pending ends: `edited` when it was the same
 * tool (the visitor changed a detail), else `replaced`; either way the new one has its own id and
 * needs its own yes. `callId` is absent for a tap.
 */
export function proposeAction(t: Turn, tool: ToolDef, args: Record<string, unknown>, callId?: string): void {
  const old = t.s.pendingAction;
  if (old) {
    const edited = old.tool === tool.name;
    t.emit({
      type: 'action_result',
      action_id: old.id,
      tool: old.tool,
      status: edited ? 'edited' : 'replaced',
      detail: edited ? 'changed before it was confirmed; the new request needs its own yes' : 'replaced by a newer request',
    });
  }
  const values = shownValues(t.flow, t.cat, t.templateRecord(args));
  const summary = tool.summary
    ? interpolate(tool.summary, values)
    : `${tool.description || tool.name}: ${Object.keys(args).map((k) => displayValue(values[k])).join(', ')}`;
  const id = t.id('action');
  const expiresAt = t.s.now + (tool.expiresAfter ?? 300) * 1000;
  t.s.pendingAction = { id, tool: tool.name, args, summary, proposedAt: t.s.now, expiresAt, heard: false };
  t.emit({ type: 'action_pending', action_id: id, tool: tool.name, summary, args, expires_at: expiresAt, ...(old ? { replaces: old.id } : {}) });
  if (callId) {
    ok(t, tool.name, callId, {
      status: 'pending_confirmation',
      summary,
      note: `Nothing has happened yet. Ask the visitor: "${summary}. Shall I go ahead?" and call ${CONFIRM_ACTION} only after they say yes.`,
    });
  } else {
    t.system(`[flow engine] The visitor tapped to ${summary}. Nothing has happened yet; it waits for their yes (${CONFIRM_ACTION}).`);
  }
  t.emit({ type: 'speech_cue', text: kioskSentence('go_ahead', t.s.language, { summary }), reason: 'action_pending' });
}

/**
 * A tap on an artifact button that names a tool: the tool's arguments come from the values the
 * visit holds, and it is proposed (or run, without `confirm`) exactly as the LLM's call would be.
 * Returns false when the values do not make a valid call (reported as a blocked move).
 */
export function tapTool(t: Turn, tool: ToolDef): boolean {
  const busy = actionBusy(t.s, tool.name);
  if (busy) {
    // A second tap (or a tap on what the LLM started): nothing is sent twice, and the visitor hears why.
    t.system(`[flow engine] The visitor tapped ${tool.name} again: ${busyText(tool.name, busy)}`);
    t.emit({ type: 'speech_cue', text: kioskSentence(busy === 'running' ? 'still_running' : 'already_done', t.s.language), reason: 'action_busy' });
    return false;
  }
  const args = checkArguments(tool, argumentsFromValues(tool, t.s.values), '');
  if (!args.ok) {
    const field = args.field ?? tool.name;
    reportBlocked(t, null, args.detail.endsWith('is required') ? 'not_captured' : 'invalid_input', [own(tool.capture, field) ?? field], args.detail);
    return false;
  }
  if (tool.confirm) {
    proposeAction(t, tool, args.values);
    return true;
  }
  capture(t, tool, args.values, 'ui');
  if (tool.http) runHttp(t, tool, args.values);
  else afterTool(t, tool);
  return true;
}

/**
 * The visitor changed values of the pending action by touch ("Change" on its card): the same tool
 * is proposed again with them, as an edit. Returns false when there is none or a value does not fit.
 */
export function editAction(t: Turn, changes: Readonly<Record<string, unknown>>): boolean {
  const pending = t.s.pendingAction;
  const tool = pending && t.state ? resolveTool(t.flow, t.state, pending.tool) : undefined;
  if (!pending || !tool) return false;
  const args = checkArguments(tool, copy(pending.args, changes), '');
  if (!args.ok) {
    reportBlocked(t, null, 'invalid_input', [args.field ?? tool.name], args.detail);
    return false;
  }
  proposeAction(t, tool, args.values);
  return true;
}

/** confirm_action / reject_action, from the LLM (callId) or a tap (no callId). */
export function decideAction(t: Turn, confirm: boolean, callId?: string): void {
  const name = confirm ? CONFIRM_ACTION : REJECT_ACTION;
  const pending = t.s.pendingAction;
  if (!pending) {
    if (callId) reject(t, name, callId, 'no_pending_action', 'there is no pending action to decide on');
    return;
  }
  if (confirm && callId && !pending.heard) {
    return reject(t, name, callId, 'no_user_turn', `the visitor has not answered yet. Ask: "${pending.summary}. Shall I go ahead?"`);
  }
  if (confirm && callId && t.s.refused) {
    return reject(
      t,
      name,
      callId,
      'user_refused',
      `the visitor just said no, so nothing has been done. Ask what they would like to change, or call ${REJECT_ACTION} if they do not want it.`,
    );
  }
  // Removed before it runs: it can run at most once.
  t.s.pendingAction = null;
  if (!confirm) {
    t.emit({ type: 'action_result', action_id: pending.id, tool: pending.tool, status: 'rejected', detail: 'the visitor declined' });
    if (callId) ok(t, name, callId, { status: 'cancelled' });
    t.system(`[flow engine] The visitor declined: ${pending.summary}. Nothing was done.`);
    return;
  }
  const tool = resolveTool(t.flow, t.state!, pending.tool);
  if (callId) ok(t, name, callId, { status: 'confirmed', summary: pending.summary, ...(tool?.http ? { running: true, note: runningNote(pending.tool) } : {}) });
  if (!tool) {
    t.emit({ type: 'action_result', action_id: pending.id, tool: pending.tool, status: 'failed', detail: 'the tool is no longer available here' });
    return;
  }
  capture(t, tool, pending.args, 'action');
  if (tool.http) {
    runHttp(t, tool, pending.args, pending.id);
    return;
  }
  t.emit({ type: 'action_result', action_id: pending.id, tool: tool.name, status: 'done', detail: pending.summary });
  t.s.done = [...t.s.done, tool.name];
  afterTool(t, tool);
}

/** What the LLM is told of a tool it may not call now, and why. */
function busyText(tool: string, busy: 'running' | 'done'): string {
  return busy === 'running'
    ? `${tool} is running now for this step; its answer comes by itself. It is not started again: tell the visitor it is under way, and do not call ${tool} again.`
    : `${tool} was done already in this step. It is not proposed again: tell the visitor it is done, and do not call ${tool} again.`;
}

/** What the LLM is told of an action that has started. */
function runningNote(tool: string): string {
  return `${tool} is running now; its answer comes by itself. Do not call ${tool} again.`;
}

/**
 * set_language: the session takes the language, and the engine shows the step again in it once
 * the step is over (FlowEngine.send). Values and pending confirmations stay as they are.
 */
/** A generated tool's text argument, from arguments as the model wrote them (JSON text) or as an object from a test; '' when absent. */
function textArgument(raw: unknown, name: string): string {
  let args = raw;
  if (typeof raw === 'string') {
    try {
      args = JSON.parse(raw);
    } catch {
      args = undefined;
    }
  }
  const value = typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}

function chooseLanguage(t: Turn, raw: unknown, callId: string): void {
  const asked = textArgument(raw, 'language');
  const { languages } = t.flow;
  const chosen = languages.find((tag) => tag.toLowerCase() === asked.toLowerCase()) ?? (asked ? languages.find((tag) => primaryLanguage(tag) === primaryLanguage(asked)) : undefined);
  if (!chosen) {
    return reject(t, SET_LANGUAGE, callId, 'invalid_arguments', `"${asked}" is not a language of this kiosk: ${languages.join(', ')}`, 'language');
  }
  t.s.language = chosen;
  ok(t, SET_LANGUAGE, callId, { language: chosen, note: `From now on speak ${languageName(chosen)}; the screen shows it too.` });
}

/**
 * go_back: the visitor's words go back as the step's button would (Back, "Change my details"),
 * taken as a tool call (ranked below the visitor's own taps), and only to a step this visit has
 * shown: a way that could lead anywhere else is refused and the model told why.
 */
function goBack(t: Turn, raw: unknown, callId: string): void {
  const state = t.state!;
  const buttons = backButtons(t.flow, state);
  const asked = textArgument(raw, 'button');
  const button = buttons.find((b) => b.event === asked);
  if (!button) {
    return reject(t, GO_BACK, callId, 'invalid_arguments', `button must be one of: ${buttons.map((b) => b.event).join(', ')}`, 'button');
  }
  const shown = new Set(t.s.history);
  const branches = own(state.transitions.onUiEvent, button.event);
  if (branches === undefined) {
    // Back, unmapped: the step before, as the Back button does.
    const previous = t.s.history.at(-1);
    if (previous === undefined) return reject(t, GO_BACK, callId, 'invalid_arguments', 'this is the first step of the visit: there is nothing to go back to', 'button');
    ok(t, GO_BACK, callId, { button: button.event, back_to: previous });
    t.go(previous, 'back');
    return;
  }
  const unseen = branches.map((b) => b.target).filter((target) => !shown.has(target));
  if (unseen.length > 0) {
    return reject(t, GO_BACK, callId, 'invalid_arguments', `"${button.label}" could lead to ${unseen.join(', ')}, which this visit has not shown: it is not a way back here`, 'button');
  }
  ok(t, GO_BACK, callId, { button: button.event });
  attempt(t, branches, 'tool', true);
}
