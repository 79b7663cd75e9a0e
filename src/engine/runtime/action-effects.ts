// A tool's HTTP effect, as the engine decides it: the `action_run` it asks the runtime for (values
// percent-encoded in the url, never able to smuggle a `{secret:NAME}` reference in), and where the
// flow goes once the runtime answers: the answer's captures and `on_action_done` (or the tool's
// on_tool_call mapping), or `on_action_failed` and a plain sentence for the visitor.

import { resolveTool, type Branch, type ToolDef } from '../language/flow.ts';
import { displayValue, interpolate, interpolateDeep, templateNames } from '../language/interpolate.ts';
import type { ActionDoneInput } from './messages.ts';
import { copy, own } from '../language/records.ts';
import type { RunningAction, Turn } from './session.ts';
import { attempt } from './transition.ts';
import { afterTool } from './after-tool.ts';

/** What the visitor hears and sees when an action did not go through; never the error itself. */
export const ACTION_FAILED_SENTENCE = 'Sorry, that did not go through. Nothing was done.';

/** A reference the kiosk's server would replace with a secret: `{secret:NAME}`. */
const SECRET_REFERENCE = /\{secret:[A-Z0-9_]+\}/g;

const references = (text: string) => text.match(SECRET_REFERENCE)?.length ?? 0;

/**
 * Why this action may not be sent, or null. A value (from the visitor, the LLM or an answer) that
 * holds `{secret:` could make the server put a secret where the flow's author never wrote one, so
 * it is refused whatever its case; so is a text whose values and template together form a
 * reference the template alone did not have.
 */
function smuggledSecret(tool: ToolDef, values: Readonly<Record<string, unknown>>): string | null {
  const http = tool.http!;
  const texts: string[] = [http.url];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') texts.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(http.body);
  for (const text of texts) {
    for (const name of templateNames(text)) {
      if (/\{secret:/i.test(displayValue(own(values, name)))) return `the value of "${name}" holds a secret reference ({secret:…}), which a value may never carry`;
    }
    if (references(interpolate(text, values)) > references(text)) return 'the values put together with the flow\'s text form a secret reference ({secret:…})';
  }
  return null;
}

/**
 * Asks the runtime to perform the tool's HTTP call (`action_run`) and remembers it as running.
 * Returns the action id, or null when it was refused here (and ended as failed at once).
 */
export function runHttp(t: Turn, tool: ToolDef, args: Record<string, unknown>, id = t.id('action')): string | null {
  const http = tool.http!;
  const values = copy(t.s.values, args);
  const run: RunningAction = { id, tool: tool.name, args, state: t.s.state, left: false };
  const refused = smuggledSecret(tool, values);
  if (refused) {
    actionFailed(t, run, `not sent: ${refused}`);
    return null;
  }
  // Each value filled into the url is percent-encoded, so it stays one path segment or one query
  // value whatever it holds (`/`, `?`, `#`, `&`, `=`); the template's own text is kept as written.
  const inUrl: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(values)) inUrl[name] = encodeURIComponent(displayValue(value));
  t.s.running = [...t.s.running, run];
  t.emit({
    type: 'action_run',
    action_id: id,
    tool: tool.name,
    method: http.method,
    url: interpolate(http.url, inUrl),
    ...(http.body !== undefined ? { body: interpolateDeep(http.body, values) } : {}),
    ...(http.headers ? { headers: { ...http.headers } } : {}),
    ...(http.timeoutSeconds !== undefined ? { timeout_seconds: http.timeoutSeconds } : {}),
  });
  return id;
}

/** The runtime's answer to an `action_run`: applied only while the visitor is still in its state. */
export function handleActionDone(t: Turn, done: ActionDoneInput): void {
  const run = t.s.running.find((r) => r.id === done.action_id);
  if (!run) return;
  t.s.running = t.s.running.filter((r) => r !== run);
  if (!done.ok) return actionFailed(t, run, done.error ?? 'the request failed');
  t.emit({ type: 'action_result', action_id: run.id, tool: run.tool, status: 'done', detail: 'completed' });
  if (run.left || run.state !== t.s.state) return; // the visitor has moved on: the answer is not applied
  const tool = t.state ? resolveTool(t.flow, t.state, run.tool) : undefined;
  if (!tool?.http) return;
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
 */
function actionFailed(t: Turn, run: RunningAction, detail: string): void {
  t.emit({ type: 'action_result', action_id: run.id, tool: run.tool, status: 'failed', detail });
  if (run.left || run.state !== t.s.state) return;
  t.system(`[flow engine] ${run.tool} did not go through (${detail}). Nothing was done: never tell the visitor it was. Say so plainly and offer another way.`);
  t.emit({ type: 'speech_cue', text: ACTION_FAILED_SENTENCE, reason: 'action_failed' });
  const next = outcome(t, run.tool, 'failed');
  if (next) attempt(t, next, 'action', true);
}

function outcome(t: Turn, tool: string, key: 'done' | 'failed'): readonly Branch[] | undefined {
  const on = t.state?.transitions.onAction;
  return on ? own(on, tool)?.[key] : undefined;
}
