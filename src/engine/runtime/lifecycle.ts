// Entering and leaving states: the entry sequence of seed 001 (on_enter, flow_state, the LLM's new
// prompt and tools, its turn, the timer), the exit rules (unconfirmed values never leave a gated
// state; docs/vfdl.md, "How a step runs") and the end of the flow.

import { boundOn } from '../language/field-rules.ts';
import { dayOf } from '../language/dates.ts';
import { END, type Artifact, type Branch, type Field, type HookAction, type ResponseConstraint, type StateDef, type TurnTakingDef, type UiAction } from '../language/flow.ts';
import { stateDef } from './error-state.ts';
import { globalIn } from '../language/global.ts';
import { interpolate, interpolateDeep, type Values } from '../language/interpolate.ts';
import { languageName, primaryLanguage } from '../language/localize.ts';
import type { FlowStateMessage, GateStatus, ResponseConstraintWire, TurnTakingWire } from './messages.ts';
import { copy, dict } from '../language/records.ts';
import type { Turn } from './session.ts';
import { toolButtons } from '../language/touch.ts';
import { callOnEntry } from './action-effects.ts';
import { kioskSentence } from './kiosk-sentences.ts';
import { attempt } from './transition.ts';
import { handleFatal } from './inputs.ts';

/** A state's on_enter or on_exit items, in order: set, clear, emit, and (on entry) call. */
function runHooks(t: Turn, hooks: readonly HookAction[], stateId: string): void {
  for (const h of hooks) {
    if (h.kind === 'set') {
      for (const [k, v] of Object.entries(h.values)) t.setConverted(k, typeof v === 'string' ? interpolate(v, t.templateValues) : v, 'hook', true);
    } else if (h.kind === 'clear') {
      for (const v of h.variables) t.clearValue(v, 'hook');
    } else if (h.kind === 'call') {
      callOnEntry(t, h.tool);
    } else {
      t.emit({
        type: 'analytics',
        event: h.event,
        state: stateId,
        ...(h.data ? { data: interpolateDeep(h.data, t.templateRecord()) as Record<string, unknown> } : {}),
      });
    }
  }
}

function wireConstraint(c: ResponseConstraint): ResponseConstraintWire {
  return {
    ...(c.maxTokens !== undefined ? { max_tokens: c.maxTokens } : {}),
    ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
    ...(c.stopPhrases !== undefined ? { stop_phrases: [...c.stopPhrases] } : {}),
  };
}

function wireTurnTaking(t: TurnTakingDef): TurnTakingWire {
  return {
    ...(t.endSilenceMs !== undefined ? { end_silence_ms: t.endSilenceMs } : {}),
    ...(t.dictationSilenceMs !== undefined ? { dictation_silence_ms: t.dictationSilenceMs } : {}),
    ...(t.minSpeechMs !== undefined ? { min_speech_ms: t.minSpeechMs } : {}),
    ...(t.bargeIn !== undefined ? { barge_in: t.bargeIn } : {}),
    ...(t.bargeInMs !== undefined ? { barge_in_ms: t.bargeInMs } : {}),
    ...(t.expect !== undefined ? { expect: t.expect } : {}),
  };
}

/**
 * The artifact as the screen shows it: texts filled in, a date field's bounds as dates on `today`,
 * and the form's button in the kiosk's own word for the visit's language where the flow gives none.
 */
function renderArtifact(a: Artifact, values: Values, today: string, language: string): Artifact {
  const bounds = (f: Field) =>
    f.type === 'date' ? { ...(f.min !== undefined ? { min: boundOn(f.min, today)! } : {}), ...(f.max !== undefined ? { max: boundOn(f.max, today)! } : {}) } : {};
  return {
    ...a,
    ...(a.title !== undefined ? { title: interpolate(a.title, values) } : {}),
    ...(a.text !== undefined ? { text: interpolate(a.text, values) } : {}),
    fields: a.fields.map((f) => ({ ...f, label: interpolate(f.label, values), ...bounds(f) })),
    submitLabel: a.submitLabel !== undefined ? interpolate(a.submitLabel, values) : kioskSentence('continue', language),
    options: a.options.map((o) => ({ ...o, label: interpolate(o.label, values) })),
    actions: a.actions.map((x) => ({ ...x, label: interpolate(x.label, values) })),
    ...(a.params ? { params: dict(Object.entries(a.params).map(([k, v]) => [k, typeof v === 'string' ? interpolate(v, values) : v])) } : {}),
  };
}

/** base_prompt + state prompt, interpolated, plus what the engine needs the LLM to know. */
export function systemPrompt(t: Turn, s: StateDef): string {
  const parts = [t.flow.basePrompt.trim(), s.agent.prompt.trim()].filter(Boolean).map((p) => interpolate(p, t.templateValues));
  if (s.gate) {
    const vars = s.gate.variables;
    const ask = s.gate.prompt ? ` Ask it this way, with the values you heard: "${s.gate.prompt}"` : '';
    parts.push(
      `The visitor must confirm ${vars.join(', ')} before the flow moves on. When you capture a value it appears on screen; read it back and ask if it is right.${ask} Call confirm_${vars[0]} (or confirm_${s.id} for all) only after the visitor says yes, and reject_… when they say no.`,
    );
  }
  if (primaryLanguage(t.flow.language) !== primaryLanguage(t.flow.defaultLanguage)) {
    const name = languageName(t.flow.language);
    parts.push(`The visitor speaks ${name} (${t.flow.language}). Always answer in ${name}, whatever language these instructions are written in.`);
  }
  return parts.join('\n\n');
}

/** What a state's `flow_state` holds that no value changes, worked out on its first entry. */
interface StaticParts {
  /** the screen's own buttons and those the kiosk adds for the LLM's tools (touch.ts) */
  actions: readonly UiAction[];
  /** the flow's global buttons that apply here, but those the screen has of its own (by event) */
  globalActions: readonly UiAction[];
  /** the tools offered here only by the flow's `global`: ways out, not the step's own way on */
  globalTools: readonly string[];
  shownVariables: readonly string[];
  turnTaking: TurnTakingWire;
}

const staticParts = new WeakMap<StateDef, StaticParts>();

function partsOf(t: Turn, s: StateDef): StaticParts {
  let parts = staticParts.get(s);
  if (!parts) {
    parts = {
      actions: s.ui ? [...s.ui.actions, ...toolButtons(t.flow, s)] : [],
      globalActions: globalIn(t.flow, s).actions.filter((g) => !(s.ui?.actions ?? []).some((a) => a.event === g.event)),
      globalTools: globalIn(t.flow, s).tools.filter((name) => !s.agent.tools.includes(name)),
      shownVariables: [...new Set([...(s.ui?.fields.map((f) => f.id) ?? []), ...(s.ui?.variable ? [s.ui.variable] : []), ...(s.gate?.variables ?? [])])],
      turnTaking: wireTurnTaking({ ...t.flow.turnTaking, ...s.turnTaking }),
    };
    staticParts.set(s, parts);
  }
  return parts;
}

/** The `flow_state` of state `s` as the session stands: on entry, and again when a visit resumes. */
export function flowStateMessage(t: Turn, s: StateDef): FlowStateMessage {
  const parts = partsOf(t, s);
  const values = dict<unknown>();
  for (const v of [...parts.shownVariables, ...Object.keys(t.s.gate)]) if (t.s.values[v] !== undefined) values[v] = t.s.values[v];
  return {
    type: 'flow_state',
    flow_id: t.flow.id,
    state: s.id,
    language: t.flow.language,
    epoch: t.s.epoch,
    artifact: s.ui ? renderArtifact({ ...s.ui, actions: [...parts.actions] }, t.shown, dayOf(t.s.now), t.flow.language) : null,
    agent: {
      system_prompt: systemPrompt(t, s),
      tools: [...(t.cat.toolSpecs.get(s.id) ?? [])],
      context: s.agent.context,
      ...(s.agent.responseConstraint ? { response_constraint: wireConstraint(s.agent.responseConstraint) } : {}),
      retry: t.s.retries,
    },
    gate: s.gate ? copy(t.s.gate) : null,
    ...(s.gate?.prompt ? { gate_prompt: s.gate.prompt } : {}),
    values,
    can_go_back: t.flow.settings.allowBack && t.s.history.length > 0,
    terminal: s.terminal,
    turn_taking: { ...parts.turnTaking },
    ...(parts.globalActions.length ? { global_actions: parts.globalActions.map((a) => ({ ...a, label: interpolate(a.label, t.shown) })) } : {}),
    ...(parts.globalTools.length ? { global_tools: [...parts.globalTools] } : {}),
  };
}

export function enterState(t: Turn, id: string): void {
  const s = stateDef(t.flow, id);
  const from = t.s.from;
  const fresh = from !== id;
  const cause = t.s.next?.cause;
  const back = cause === 'back';
  t.s.next = null;
  t.s.from = null;
  t.s.state = id;
  t.s.epoch += 1;
  if (id === END) return endFlow(t, from ?? id);
  if (!s) return;
  if (fresh) {
    t.s.retries = 0;
    t.s.noMatch = 0;
    t.s.done = [];
    if (back) t.s.history = t.s.history.slice(0, -1);
    // A decision step is passed through, never shown: Back goes to the step before it.
    else if (from !== null && from !== END && !stateDef(t.flow, from)?.decide) t.s.history = [...t.s.history, from];
  }
  // Gate statuses: a re-entry keeps them; a fresh entry starts from the values already held.
  const gate = dict<GateStatus>();
  for (const v of s.gate?.variables ?? []) {
    if (!fresh && t.s.gate[v] !== undefined) gate[v] = t.s.gate[v]!;
    else if (t.s.values[v] !== undefined) {
      gate[v] = 'pending';
      t.write('capturedAt')[v] = t.s.now;
      t.write('heard')[v] = false;
    } else gate[v] = 'empty';
  }
  t.replace('gate', gate);

  runHooks(t, s.onEnter, id);
  if (s.decide) return decide(t, s.decide);
  t.emit(flowStateMessage(t, s));
  const to = s.transitions.onTimeout;
  if (cause === 'timeout' && !fresh && to) {
    const of = to.maxRetries !== undefined ? ` of ${to.maxRetries}` : '';
    t.system(`[flow engine] The visitor has not answered for ${to.seconds} seconds. This is retry ${t.s.retries}${of}: say it differently, shorter, and mention they can also use the screen.`);
  }
  t.emit({ type: 'llm_turn', epoch: t.s.epoch, reason: 'state_entered' });
  t.s.deadline = to ? t.s.now + to.seconds * 1000 : null;
  if (s.terminal) endFlow(t, id);
}

/**
 * A decision step: the first branch whose guard holds is taken at once, its values set (vfdl check
 * makes the last branch one without a guard). Nothing is shown and the LLM is not asked: the
 * visitor goes straight on to the step it leads to.
 */
function decide(t: Turn, branches: readonly Branch[]): void {
  t.s.deadline = null;
  if (attempt(t, branches, 'decide', true)) return;
  handleFatal(t, `the decision step "${t.s.state}" found no branch to take`);
}

export function exitState(t: Turn, id: string): void {
  const s = stateDef(t.flow, id);
  const reentry = t.s.next?.target === id;
  t.s.from = id;
  if (!s) return;
  if (!reentry) {
    // An HTTP answer that comes back after the visitor left is reported, not applied.
    t.s.running = t.s.running.map((r) => (r.state === id ? { ...r, left: true } : r));
    // Unconfirmed data never leaves a gated state.
    for (const v of Object.keys(t.s.gate)) if (t.s.gate[v] === 'pending') t.clearValue(v, 'gate');
    t.replace('gate', dict());
    const a = t.s.pendingAction;
    if (a) {
      t.s.pendingAction = null;
      t.emit({ type: 'action_result', action_id: a.id, tool: a.tool, status: 'cancelled', detail: 'the visitor left this step' });
    }
  }
  t.s.deadline = null;
  runHooks(t, s.onExit, id);
}

function endFlow(t: Turn, lastState: string): void {
  t.s.ended = true;
  t.s.deadline = null;
  const missing = Object.values(t.flow.variables)
    .filter((v) => v.required && (t.s.values[v.name] === undefined || t.s.values[v.name] === ''))
    .map((v) => v.name);
  if (missing.length) t.emit({ type: 'analytics', event: 'required_variables_unset', state: lastState, data: { variables: missing } });
  t.emit({
    type: 'flow_end',
    flow_id: t.flow.id,
    last_state: lastState,
    mode: t.flow.mode,
    variables: copy(t.s.values),
    reason: t.s.durationCapped ? 'max_duration' : 'completed',
  });
}
