// Meaning checks on a normalized flow: targets, tools, variables, prompts, patterns, generated
// tool names, reachability and ways out. Each finding points at the most specific node.

import { generatedToolNames, type Catalog } from './catalog.ts';
import { didYouMean } from './diagnostics.ts';
import {
  END,
  ERROR,
  TURN_TAKING_DEFAULTS,
  resolveTool,
  toolOfAnotherState,
  type Branch,
  type Condition,
  type Flow,
  type Guard,
  type SourcePath,
  type StateDef,
  type ToolDef,
  type TurnTakingDef,
} from './flow.ts';
import { templateNames } from './interpolate.ts';
import { slowPatternProblem } from './pattern-safety.ts';
import { own } from './records.ts';
import type { Reporter } from './source.ts';
import { checkTypes } from './type-check.ts';
import { checkUniqueIds } from './unique-ids.ts';
import { formTool, toolButtons } from './touch.ts';

/** Listening settings that would cut visitors off: a dictated answer must get the longer wait. */
function checkTurnTaking(r: Reporter, t: TurnTakingDef, at: SourcePath): void {
  const free = t.endSilenceMs ?? TURN_TAKING_DEFAULTS.endSilenceMs;
  const dictation = t.dictationSilenceMs ?? TURN_TAKING_DEFAULTS.dictationSilenceMs;
  if (dictation < free) {
    r.warn('bad-value', [...at, t.dictationSilenceMs !== undefined ? 'dictation_silence_ms' : 'end_silence_ms'], `dictation_silence_ms (${dictation}) is shorter than end_silence_ms (${free}): people pause inside phone numbers and dates, so dictated answers would be cut off sooner than free ones`);
  }
}

export function checkSemantics(r: Reporter, flow: Flow, cat: Catalog): void {
  const stateIds = new Set(flow.stateOrder);
  const targets = [...stateIds, END];
  const knownVars = [...cat.variables.keys()];

  const version = (r.src.data as Record<string, unknown>)['vfdl'];
  if (version !== undefined && version !== 1) {
    r.error('bad-value', ['vfdl'], `this kiosk reads VFDL version 1; this file says ${String(version)}`);
  }
  if (!/^[a-z][a-z0-9_]*$/.test(flow.id)) {
    if (/^[a-z][a-z0-9_-]*$/.test(flow.id)) {
      r.warn('bad-value', ['id'], `flow id "${flow.id}" should use underscores, not hyphens ([a-z][a-z0-9_]*)`);
    } else {
      r.error('bad-value', ['id'], `flow id "${flow.id}" must match [a-z][a-z0-9_]*`);
    }
  }
  if (stateIds.has(END)) r.error('reserved-state', ['states', END], `"${END}" is reserved: it ends the flow and cannot be defined`, true);
  for (const id of flow.stateOrder) {
    if (id.startsWith('__') && id !== ERROR && id !== END) {
      r.error('reserved-state', ['states', id], `state ids starting with "__" are reserved (only ${ERROR} may be defined)`, true);
    }
  }

  checkTurnTaking(r, flow.turnTaking, ['turn_taking']);

  const checkTarget = (target: string, path: SourcePath) => {
    if (!stateIds.has(target) && target !== END && target !== ERROR) {
      r.error('unknown-target', path, `"${target}" is not a state of this flow or ${END}${didYouMean(target, targets)}`);
    }
  };
  const checkVar = (name: string, path: SourcePath, what: string) => {
    if (!cat.variables.has(name)) {
      r.error('unknown-variable', path, `${what} refers to unknown variable "${name}"${didYouMean(name, knownVars)}`);
    }
  };
  const checkTemplate = (text: string | undefined, path: SourcePath, what: string) => {
    if (text === undefined) return;
    for (const name of new Set(templateNames(text))) checkVar(name, path, what);
  };
  const checkGuard = (g: Guard | Condition, path: SourcePath) => {
    if ('all' in g || 'any' in g) {
      const list = 'all' in g ? g.all : g.any;
      list.forEach((c) => checkGuard(c, (c as Condition).at ?? path));
      return;
    }
    checkVar(g.variable, [...g.at, 'variable'], 'a guard');
    if (g.operator === 'matches' && typeof g.value === 'string') compiles(g.value, [...g.at, 'value'], 'i', 'guard pattern');
  };
  const checkBranches = (bs: readonly Branch[]) => {
    for (const b of bs) {
      checkTarget(b.target, b.at);
      if (b.guard) checkGuard(b.guard, b.at);
    }
  };

  if (flow.stateOrder.length > 0) {
    const initialAt = [typeof own(r.src.data as Record<string, unknown>, 'initial') === 'string' ? 'initial' : 'initial_state'];
    if (flow.initial === END || flow.initial === ERROR) {
      r.error('bad-value', initialAt, `a visit cannot start in "${flow.initial}": ${initialAt[0]} must name a state of this flow`);
    } else checkTarget(flow.initial, initialAt);
  }
  if (flow.settings.onTimeout) checkTarget(flow.settings.onTimeout, ['settings', 'on_timeout']);
  if (flow.settings.onError) checkTarget(flow.settings.onError, ['settings', 'on_error']);
  checkTemplate(flow.basePrompt, 'base_prompt' in (r.src.data as object) ? ['base_prompt'] : ['settings', 'base_system_prompt'], 'the base prompt');

  for (const [name, t] of Object.entries(flow.tools)) checkTool(name, t);
  for (const id of flow.stateOrder) checkState(flow.states[id]!);

  function checkTool(name: string, t: ToolDef): void {
    checkTemplate(t.summary, [...t.at, 'summary'], `the summary of ${name}`);
    checkTemplate(t.speechCue, [...t.at, 'speech_cue'], `the speech cue of ${name}`);
    for (const p of t.parameters) if (p.pattern !== undefined) compiles(p.pattern, [...p.at, 'pattern'], '', 'parameter pattern');
    for (const [param, patterns] of Object.entries(t.autoExtract)) {
      patterns.forEach((p, i) => compiles(p, [...t.at, 'auto_extract', param, 'patterns', i]));
    }
  }

  function checkState(s: StateDef): void {
    const at = s.at;
    const offered = new Set(cat.offered.get(s.id) ?? []);
    // Tools listed for the LLM must be defined.
    s.agent.tools.forEach((name, i) => {
      const elsewhere = own(s.tools, name) || own(flow.tools, name) ? undefined : toolOfAnotherState(flow, name);
      if (elsewhere) {
        r.warn('tool-from-other-state', [...at, 'agent', 'tools', i], `tool "${name}" is defined in the tools of state "${elsewhere.state}", not in this state's or the flow's; it is used from there, but move it to the flow's tools (top-level "tools:") so every state shares one definition`);
      } else if (!resolveTool(flow, s, name)) {
        const defined = [...Object.keys(s.tools), ...Object.keys(flow.tools)];
        r.error('unknown-tool', [...at, 'agent', 'tools', i], `tool "${name}" is not defined in this state's tools or the flow's tools${didYouMean(name, defined)}`);
      }
    });
    for (const [name, t] of Object.entries(s.tools)) checkTool(name, t);
    // Generated names must not collide with defined tools or each other.
    s.gate?.variables.forEach((v, i, vars) => {
      const why = v === s.id ? `has the same name as the state "${s.id}"` : vars.indexOf(v) < i ? 'is listed twice' : undefined;
      if (why) {
        r.error('tool-name-collision', [...s.gate!.at, 'variables', i], `gated variable "${v}" ${why}, so the tools confirm_${v} and reject_${v} would be generated twice`);
      }
    });
    for (const g of generatedToolNames(flow, s)) {
      const i = s.agent.tools.indexOf(g);
      if (i >= 0 || own(s.tools, g) || own(flow.tools, g)) {
        const path = i >= 0 ? [...at, 'agent', 'tools', i] : own(s.tools, g) ? [...at, 'tools', g] : ['tools', g];
        r.error('tool-name-collision', path, `tool "${g}" collides with a tool the engine generates for state "${s.id}"; rename it`, i < 0);
      }
    }
    // Transitions. A listed tool that is defined nowhere is no suggestion for a name here.
    const callable = [...offered].filter((n) => !s.agent.tools.includes(n) || resolveTool(flow, s, n));
    for (const [tool, bs] of Object.entries(s.transitions.onToolCall)) {
      if (generatedToolNames(flow, s).includes(tool)) {
        r.error('bad-value', [...at, 'transitions', 'on_tool_call', tool], `"${tool}" is generated by the engine; where it leads is set by the gate (on_confirm, on_reject), not on_tool_call`, true);
      } else if (!offered.has(tool)) {
        r.error('unknown-tool', [...at, 'transitions', 'on_tool_call', tool], `on_tool_call names "${tool}", which this state does not offer the LLM${didYouMean(tool, callable)}`, true);
      }
      checkBranches(bs);
    }
    for (const bs of Object.values(s.transitions.onUiEvent)) checkBranches(bs);
    // Buttons that name a tool, and where a tool's action leads once it has ended.
    const defined = [...Object.keys(s.tools), ...Object.keys(flow.tools)];
    const tapped = new Set<string>();
    (s.ui?.actions ?? []).forEach((a, i) => {
      if (a.tool === undefined) return;
      tapped.add(a.tool);
      if (own(s.transitions.onUiEvent, a.event)) {
        r.warn('not-acted-on', [...at, 'transitions', 'on_ui_event', a.event], `"${a.event}" is a button that proposes tool "${a.tool}", so this mapping is never used: on_tool_call and on_action_done/on_action_failed say where the tool leads`, true);
      }
      if (!resolveTool(flow, s, a.tool)) {
        r.error('unknown-tool', [...at, 'ui', 'actions', i, 'tool'], `the button "${a.label}" names tool "${a.tool}", which is not defined in this state's tools or the flow's tools${didYouMean(a.tool, defined)}`);
      }
    });
    for (const [tool, outcomes] of Object.entries(s.transitions.onAction ?? {})) {
      const path = [...at, 'transitions', outcomes.done ? 'on_action_done' : 'on_action_failed', tool];
      const def = resolveTool(flow, s, tool);
      if (!def || !(offered.has(tool) || tapped.has(tool))) {
        const here = [...offered, ...tapped].filter((n) => resolveTool(flow, s, n)?.http);
        r.error('unknown-tool', path, `"${tool}" is neither offered to the LLM here nor on a button of this state${didYouMean(tool, here)}`, true);
      } else if (!def.http) {
        r.error('bad-value', path, `"${tool}" has no http effect, so its action can neither be done nor fail later; on_tool_call says where it leads`, true);
      }
      checkBranches(outcomes.done ?? []);
      checkBranches(outcomes.failed ?? []);
    }
    s.transitions.onUtterance.forEach((rule) => {
      const re = compiles(rule.pattern, [...rule.at, 'pattern']);
      if (re) {
        const groups = new RegExp(`${re.source}|`).exec('')!.length - 1;
        if (groups < rule.captureTo.length) {
          r.error('bad-pattern', [...rule.at, 'pattern'], `pattern has ${groups} group(s) but capture_to names ${rule.captureTo.length} variables`);
        }
      }
      checkBranches(rule.branches);
    });
    const to = s.transitions.onTimeout;
    if (to) {
      checkTarget(to.target, [...to.at, 'target']);
      if (to.fallback) checkTarget(to.fallback, [...to.at, 'fallback']);
      if (to.maxRetries !== undefined && to.target === s.id && !to.fallback) {
        r.warn('no-end', [...to.at, 'max_retries'], 'after the last retry nothing happens: give a fallback so the visitor is not left waiting');
      }
    }
    // Gate.
    const gate = s.gate;
    if (gate && !gate.implicit) {
      const settable = cat.settable.get(s.id)!;
      gate.variables.forEach((v, i) => {
        if (!cat.variables.has(v)) {
          checkVar(v, [...gate.at, 'variables', i], 'the confirmation gate');
        } else if (!settable.has(v)) {
          r.error('ungated-capture', [...gate.at, 'variables', i], `gated variable "${v}" cannot be set in state "${s.id}": no offered tool, form field or utterance capture sets it`);
        }
      });
      checkBranches(gate.onConfirm);
      if (gate.onReject.target) checkTarget(gate.onReject.target, [...gate.at, 'on_reject', 'target']);
      checkTemplate(gate.prompt, [...gate.at, 'prompt'], 'the gate prompt');
    }
    if (Object.keys(s.turnTaking).length) checkTurnTaking(r, { ...flow.turnTaking, ...s.turnTaking }, [...at, 'turn_taking']);
    // Texts.
    checkTemplate(s.agent.prompt, [...at, 'agent', 'prompt'], `the prompt of "${s.id}"`);
    if (s.ui) {
      if (s.ui.type === 'other') {
        r.warn('not-acted-on', [...at, 'ui', 'artifact_type'], `artifact type "${s.ui.declaredType}" is accepted but not rendered by this kiosk (the conversation still runs)`);
      }
      checkTemplate(s.ui.title, uiTextPath(s, s.ui.title), 'the artifact title');
      checkTemplate(s.ui.text, uiTextPath(s, s.ui.text), 'the artifact text');
      s.ui.fields.forEach((f) => checkTemplate(f.label, [...f.at, 'label'], 'a field label'));
    }
    const raw = own(own(r.src.data as Record<string, Record<string, Record<string, unknown>>>, 'states'), s.id) ?? {};
    for (const hookKey of ['on_enter', 'on_exit'] as const) {
      const items = raw[hookKey];
      if (!Array.isArray(items)) continue;
      items.forEach((item, i) => {
        const does = ['set', 'clear', 'emit'].filter((k) => item !== null && typeof item === 'object' && k in item);
        if (does.length !== 1) {
          r.error('bad-value', [...at, hookKey, i], `each ${hookKey} item does one thing: set, clear or emit${does.length ? ` (this one has ${does.join(' and ')}; split it)` : ''}`);
        }
      });
    }
    for (const h of [...s.onEnter, ...s.onExit]) {
      if (h.kind === 'clear') h.variables.forEach((v, i) => checkVar(v, [...h.at, i], 'clear'));
      if (h.kind === 'set') for (const [k, v] of Object.entries(h.values)) if (typeof v === 'string') checkTemplate(v, [...h.at, k], 'a set value');
    }
  }

  /** The artifact key (title, prompt, text or content) whose text became `text`. */
  function uiTextPath(s: StateDef, text: string | undefined): SourcePath {
    const key = ['title', 'prompt', 'text', 'content'].find((k) => r.src.doc.getIn([...s.at, 'ui', k]) === text);
    return key ? [...s.at, 'ui', key] : [...s.at, 'ui'];
  }

  /** The compiled pattern; a pattern that does not compile, or could hang the kiosk, is an error. */
  function compiles(pattern: string, path: SourcePath, flags = 'i', what = 'pattern'): RegExp | undefined {
    let re: RegExp;
    try {
      re = new RegExp(pattern, flags);
    } catch (e) {
      r.error('bad-pattern', path, `${what} does not compile: ${regExpProblem(e)}`);
      return undefined;
    }
    const slow = slowPatternProblem(pattern);
    if (slow) r.error('slow-pattern', path, `${what} can take seconds on some input: ${slow}`);
    return re;
  }

  checkUniqueIds(r);
  checkTypes(r, flow, cat);
  checkGraph(r, flow);
  for (const v of Object.values(flow.variables)) {
    if (v.required && v.default === undefined && !setAnywhere(v.name, cat)) {
      r.warn('required-never-set', v.at, `required variable "${v.name}" is never set by any tool, field, capture or set`, true);
    }
  }
}

/** What is wrong with a pattern, without the "Invalid regular expression: /…/i: " prefix that repeats it. */
function regExpProblem(e: unknown): string {
  return (e as Error).message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '');
}

function setAnywhere(name: string, cat: Catalog): boolean {
  for (const s of cat.settable.values()) if (s.has(name)) return true;
  const info = cat.variables.get(name);
  // Declared only: its recorded place is the declaration itself.
  return info !== undefined && info.at[0] !== 'variables';
}

/** Where each state can go, for reachability (gate, timeout and settings edges included). */
export function edgesOf(flow: Flow, s: StateDef): string[] {
  const out: string[] = [];
  const push = (bs: readonly Branch[]) => bs.forEach((b) => out.push(b.target));
  Object.values(s.transitions.onUiEvent).forEach(push);
  Object.values(s.transitions.onToolCall).forEach(push);
  Object.values(s.transitions.onAction ?? {}).forEach((o) => [o.done, o.failed].forEach((bs) => bs && push(bs)));
  s.transitions.onUtterance.forEach((r) => push(r.branches));
  if (s.transitions.onTimeout) {
    out.push(s.transitions.onTimeout.target);
    if (s.transitions.onTimeout.fallback) out.push(s.transitions.onTimeout.fallback);
  }
  if (s.gate) {
    push(s.gate.onConfirm);
    out.push(s.gate.onReject.target ?? s.id);
  }
  if (flow.settings.maxDurationSecs !== undefined) out.push(flow.settings.onTimeout ?? END);
  return out;
}

function checkGraph(r: Reporter, flow: Flow): void {
  if (!own(flow.states, flow.initial)) return;
  const seen = new Set<string>([flow.initial]);
  const queue = [flow.initial];
  let endReachable = false;
  while (queue.length) {
    const id = queue.shift()!;
    const s = own(flow.states, id);
    if (!s) {
      if (id === END) endReachable = true;
      continue;
    }
    if (s.terminal) endReachable = true;
    for (const t of edgesOf(flow, s)) {
      if (!seen.has(t)) {
        seen.add(t);
        queue.push(t);
      }
    }
  }
  for (const id of flow.stateOrder) {
    if (!seen.has(id) && id !== ERROR && id !== flow.settings.onError) {
      r.warn('unreachable-state', ['states', id], `state "${id}" cannot be reached from "${flow.initial}"`, true);
    }
  }
  const anyEnd = flow.stateOrder.some((id) => flow.states[id]!.terminal) || [...seen].includes(END) ||
    flow.stateOrder.some((id) => edgesOf(flow, flow.states[id]!).includes(END));
  if (!anyEnd) {
    r.warn('no-end', ['states'], `the flow has neither ${END} nor a terminal state: a visitor can never finish`, true);
  } else if (!endReachable) {
    r.warn('no-end', ['states'], `no path from "${flow.initial}" reaches ${END} or a terminal state`, true);
  }
  for (const id of flow.stateOrder) {
    const s = flow.states[id]!;
    if (s.terminal || !seen.has(id)) continue;
    const t = s.transitions;
    const deterministic =
      Object.keys(t.onUiEvent).length > 0 ||
      t.onUtterance.length > 0 ||
      t.onTimeout !== undefined ||
      (s.gate !== undefined && (s.ui?.fields.length ?? 0) > 0) ||
      (s.gate?.confirmPhrases.length ?? 0) > 0 ||
      (flow.settings.allowBack && id !== flow.initial) ||
      // touch routes the kiosk makes from the state's tools (touch.ts)
      formTool(flow, s) !== undefined ||
      toolButtons(flow, s).length > 0;
    if (!deterministic) {
      r.warn('llm-only-exit', ['states', id], `every way out of "${id}" depends on the LLM: add an on_ui_event, on_utterance or on_timeout`, true);
    }
  }
}
