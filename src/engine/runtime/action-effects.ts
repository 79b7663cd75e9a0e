// A tool's HTTP effect, as the engine decides it: the `action_run` it asks the runtime for (built
// by http-call.ts, which the kiosk's server uses again on its own copy of the flow), and where the
// flow goes once the runtime answers: the answer's captures and `on_action_done` (or the tool's
// on_tool_call mapping), or `on_action_failed` and a plain sentence for the visitor.

import { kioskSentence } from './kiosk-sentences.ts';
import { resolveTool, type Branch, type ToolDef } from '../language/flow.ts';
import type { ActionDoneInput } from './messages.ts';
import { copy, own } from '../language/records.ts';
import { argumentsFromValues, checkArguments } from './arguments.ts';
import type { RunningAction, Turn } from './session.ts';
import { guardHolds } from './guards.ts';
import { attempt } from './transition.ts';
import { afterTool } from './after-tool.ts';
import { httpCall, valuesFor } from './http-call.ts';

/** What the visitor hears and sees when an action did not go through; never the error itself. */

/**
 * Asks the runtime to perform the tool's HTTP call (`action_run`) and remembers it as running.
 * Returns the action id, or null when it was refused here (and ended as failed at once).
 */
export function runHttp(t: Turn, tool: ToolDef, args: Record<string, unknown>, id = t.id('action')): string | null {
  const http = tool.http!;
  const values = t.templateRecord(args);
  const run: RunningAction = { id, tool: tool.name, args, state: t.s.state, left: false };
  const call = httpCall(http, values);
  if ('refused' in call) {
    actionFailed(t, run, `not sent: ${call.refused}`);
    return null;
  }
  t.s.running = [...t.s.running, run];
  t.emit({ type: 'action_run', action_id: id, tool: tool.name, state: t.s.state, values: valuesFor(http, values), ...call });
  return id;
}

/**
 * `call` in on_enter: the tool's HTTP action runs at once, its arguments taken from the variables
 * they set (as a tool button takes them). Arguments that do not make a valid call are not sent:
 * the action fails at once and the flow takes the failure path, as for any failed action.
 */
export function callOnEntry(t: Turn, name: string): void {
  const tool = t.state ? resolveTool(t.flow, t.state, name) : undefined;
  if (!tool?.http || t.state?.terminal) return; // vfdl check refuses both
  const given = argumentsFromValues(tool, t.s.values);
  const args = checkArguments(tool, given, '');
  if (!args.ok) {
    actionFailed(t, { id: t.id('action'), tool: tool.name, args: given, state: t.s.state, left: false }, `not sent: ${args.detail}`);
    return;
  }
  runHttp(t, tool, args.values);
}

/** The runtime's answer to an `action_run`: applied only while the visitor is still in its state. */
export function handleActionDone(t: Turn, done: ActionDoneInput): void {
  const run = t.s.running.find((r) => r.id === done.action_id);
  if (!run) return;
  t.s.running = t.s.running.filter((r) => r !== run);
  if (!done.ok) return actionFailed(t, run, done.error ?? 'the request failed', typeof done.status === 'number' ? done.status : undefined);
  t.emit({ type: 'action_result', action_id: run.id, tool: run.tool, status: 'done', detail: 'completed' });
  if (run.left || run.state !== t.s.state) return; // the visitor has moved on: the answer is not applied
  const tool = t.state ? resolveTool(t.flow, t.state, run.tool) : undefined;
  if (!tool?.http) return;
  // A write done is not proposed again in this step (session.ts, actionBusy).
  if (tool.confirm) t.s.done = [...t.s.done, tool.name];
  for (const [variable, path] of Object.entries(tool.http.capture)) {
    const value = path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? own(o as Record<string, unknown>, k) : undefined), done.data);
    if (value !== undefined) t.setConverted(variable, value, 'action');
  }
  t.system(`[flow engine] ${run.tool} completed.`);
  const next = outcome(t, run.tool, 'done');
  if (next) attempt(t, next, 'action', true);
  else afterTool(t, tool);
}

/**
 * An action that failed (or was never sent): reported, never taken for done. In its state the
 * LLM gets the error, the visitor a plain sentence, and the flow its `on_action_failed`, if any.
 * A branch made for the answer's HTTP status (`status: 404`) is an answer the flow expected: its
 * target says what it means, and the kiosk's "that did not go through" is not said.
 */
function actionFailed(t: Turn, run: RunningAction, detail: string, status?: number): void {
  const here = !run.left && run.state === t.s.state;
  const next = here ? (outcome(t, run.tool, 'failed') ?? []).filter((b) => !b.status || (status !== undefined && b.status.includes(status))) : [];
  const handled = next.find((b) => !b.guard || guardHolds(b.guard, t.guards))?.status !== undefined;
  t.emit({ type: 'action_result', action_id: run.id, tool: run.tool, status: 'failed', detail, ...(status !== undefined ? { http_status: status } : {}), ...(handled ? { handled: true as const } : {}) });
  if (!here) return;
  if (handled) {
    t.system(`[flow engine] ${run.tool} was answered with status ${status} (${detail}); the flow goes on to what that answer means. Nothing was done.`);
  } else {
    t.system(`[flow engine] ${run.tool} did not go through (${detail}). Nothing was done: never tell the visitor it was. Say so plainly and offer another way.`);
    t.emit({ type: 'speech_cue', text: kioskSentence('action_failed', t.s.language), reason: 'action_failed' });
  }
  if (next.length) attempt(t, next, 'action', true);
}

function outcome(t: Turn, tool: string, key: 'done' | 'failed'): readonly Branch[] | undefined {
  const on = t.state?.transitions.onAction;
  return on ? own(on, tool)?.[key] : undefined;
}
