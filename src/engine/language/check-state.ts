// Meaning checks on one state, in the order they are reported: its tools and transitions (their own
// files), then its confirmation gate, listening settings, texts on screen and entry and exit hooks.

import { checkStateTools } from './check-tools.ts';
import { checkTransitions } from './check-transitions.ts';
import { didYouMean } from './diagnostics.ts';
import { resolveTool, TURN_TAKING_DEFAULTS, type Branch, type Flow, type SourcePath, type StateDef, type TurnTakingDef } from './flow.ts';
import { pickText } from './localize.ts';
import { own } from './records.ts';
import type { SemanticContext } from './semantic-context.ts';
import type { Reporter } from './source.ts';

/** Every check of one state, each reporting as it goes. */
export function checkState(c: SemanticContext, s: StateDef): void {
  if (s.decide) checkDecision(c, s, s.decide);
  checkStateTools(c, s);
  checkTransitions(c, s);
  checkGate(c, s);
  if (Object.keys(s.turnTaking).length) checkTurnTaking(c.r, { ...c.flow.turnTaking, ...s.turnTaking }, [...s.at, 'turn_taking']);
  checkTexts(c, s);
  checkHooks(c, s);
}

/**
 * A decision step: its branches are checked as any, it always decides (the last has no guard),
 * and it never leads back to itself through decision steps alone, where a visit would go round
 * for ever without a step to show.
 */
function checkDecision(c: SemanticContext, s: StateDef, branches: readonly Branch[]): void {
  c.checkBranches(branches, false, true);
  const ring = decisionRing(c.flow, s.id);
  // One ring is one problem: said at the step of it written first.
  const first = ring && Math.min(...ring.map((id) => c.flow.stateOrder.indexOf(id))) === c.flow.stateOrder.indexOf(s.id);
  if (ring && first) c.r.error('bad-value', [...s.at, 'decide'], `decision steps lead back here without a step between (${ring.join(' → ')}): a visit would go round for ever; lead one of them to a step that shows something`);
}

/** A way from decision step `start` back to itself through decision steps only, if there is one. */
function decisionRing(flow: Flow, start: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (id: string, path: string[]): string[] | undefined => {
    for (const b of own(flow.states, id)?.decide ?? []) {
      if (b.target === start) return [...path, start];
      if (seen.has(b.target) || !own(flow.states, b.target)?.decide) continue;
      seen.add(b.target);
      const found = walk(b.target, [...path, b.target]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}

/** Listening settings that would cut visitors off: a dictated answer must get the longer wait. */
export function checkTurnTaking(r: Reporter, t: TurnTakingDef, at: SourcePath): void {
  const free = t.endSilenceMs ?? TURN_TAKING_DEFAULTS.endSilenceMs;
  const dictation = t.dictationSilenceMs ?? TURN_TAKING_DEFAULTS.dictationSilenceMs;
  if (dictation < free) {
    r.warn('bad-value', [...at, t.dictationSilenceMs !== undefined ? 'dictation_silence_ms' : 'end_silence_ms'], `dictation_silence_ms (${dictation}) is shorter than end_silence_ms (${free}): people pause inside phone numbers and dates, so dictated answers would be cut off sooner than free ones`);
  }
}

/** A declared gate: its variables exist and can be set here, and its targets and prompt name what exists. */
function checkGate(c: SemanticContext, s: StateDef): void {
  const { r, cat } = c;
  const gate = s.gate;
  if (!gate || gate.implicit) return;
  const settable = cat.settable.get(s.id)!;
  gate.variables.forEach((v, i) => {
    if (!cat.variables.has(v)) {
      c.checkVar(v, [...gate.at, 'variables', i], 'the confirmation gate');
    } else if (!settable.has(v)) {
      r.error('ungated-capture', [...gate.at, 'variables', i], `gated variable "${v}" cannot be set in state "${s.id}": no offered tool, form field or utterance capture sets it`);
    }
  });
  c.checkBranches(gate.onConfirm);
  if (gate.onReject.target) c.checkTarget(gate.onReject.target, [...gate.at, 'on_reject', 'target']);
  c.checkTemplate(gate.prompt, [...gate.at, 'prompt'], 'the gate prompt');
}

/** The texts of the prompt and the screen name variables; a screen of a kind the kiosk does not draw is said. */
function checkTexts(c: SemanticContext, s: StateDef): void {
  const { checkTemplate } = c;
  checkTemplate(s.agent.prompt, [...s.at, 'agent', 'prompt'], `the prompt of "${s.id}"`);
  if (!s.ui) return;
  if (s.ui.type === 'other') {
    c.r.warn('not-acted-on', [...s.at, 'ui', 'artifact_type'], `artifact type "${s.ui.declaredType}" is accepted but not rendered by this kiosk (the conversation still runs)`);
  }
  checkTemplate(s.ui.title, uiTextPath(c, s, s.ui.title), 'the artifact title');
  checkTemplate(s.ui.text, uiTextPath(c, s, s.ui.text), 'the artifact text');
  s.ui.fields.forEach((f) => checkTemplate(f.label, [...f.at, 'label'], 'a field label'));
  // params as written: a mapping of label to value, or a list of { label, value } (its labels may be text maps).
  const written = rawAt(c, [...s.at, 'ui', 'params']);
  const lines = Array.isArray(written) ? written.map((l, i) => [labelOf(c, rawAt(c, [...s.at, 'ui', 'params', i, 'label'])), asValue(l), [...s.at, 'ui', 'params', i, 'value']] as const) : Object.entries(s.ui.params ?? {}).map(([label, value]) => [label, value, [...s.at, 'ui', 'params', label]] as const);
  for (const [label, value, at] of lines) if (typeof value === 'string') checkTemplate(value, at, `the card's "${label}"`);
  if (s.ui.type === 'options' && s.ui.variable === undefined && !Object.hasOwn(s.transitions.onUiEvent, 'option_select')) {
    c.r.error('no-effect', [...s.at, 'ui', 'options'], 'a tap on these options would do nothing: name the variable a tap sets (variable: …), or say where a tap leads (on_ui_event: { option_select: … })');
  } else if (s.ui.type === 'options' && s.ui.variable === undefined) {
    checkTapSetsNothing(c, s);
  }
}

/**
 * An options step whose tap is stored nowhere, while the step's tool or an utterance rule stores
 * the same answer spoken: a visitor who taps loses the answer a visitor who speaks gives.
 */
function checkTapSetsNothing(c: SemanticContext, s: StateDef): void {
  const ways = new Map<string, string[]>();
  const add = (variable: string, way: string) => ways.set(variable, [...(ways.get(variable) ?? []), way]);
  for (const name of s.agent.tools) {
    const tool = resolveTool(c.flow, s, name);
    for (const variable of new Set(Object.values(tool?.capture ?? {}))) add(variable, `tool ${name}`);
  }
  for (const rule of s.transitions.onUtterance) for (const variable of [...rule.captureTo, ...rule.namedGroups]) add(variable, 'an on_utterance rule');
  const [first] = ways.keys();
  if (first === undefined) return;
  const said = [...ways].map(([variable, by]) => `${[...new Set(by)].join(' and ')} ${by.length > 1 ? 'set' : 'sets'} "${variable}"`).join('; ');
  c.r.warn('no-effect', [...s.at, 'ui', 'options'], `a tap on these options stores no value, while the answer said aloud is stored (${said}): a visitor who taps loses it. Name the variable a tap sets: variable: ${first}`);
}

/** The value written at `path` in the file (before its texts are put in one language). */
function rawAt(c: SemanticContext, path: SourcePath): unknown {
  let node: unknown = c.r.src.data;
  for (const key of path) node = node !== null && typeof node === 'object' ? own(node as Record<string, unknown>, String(key)) : undefined;
  return node;
}

/** A label as written, in the flow's own language when it is a text map. */
function labelOf(c: SemanticContext, label: unknown): string {
  if (typeof label === 'string') return label;
  const picked = label !== null && typeof label === 'object' ? pickText(label as Record<string, unknown>, c.flow.defaultLanguage, c.flow.defaultLanguage) : undefined;
  return typeof picked === 'string' ? picked : '';
}

const asValue = (line: unknown): unknown => (line !== null && typeof line === 'object' ? own(line as Record<string, unknown>, 'value') : undefined);

/** The artifact key (title, prompt, text or content) whose text became `text`. */
function uiTextPath(c: SemanticContext, s: StateDef, text: string | undefined): SourcePath {
  const key = ['title', 'prompt', 'text', 'content'].find((k) => c.r.src.doc.getIn([...s.at, 'ui', k]) === text);
  return key ? [...s.at, 'ui', key] : [...s.at, 'ui'];
}

/** on_enter and on_exit name variables and tools that exist, and call only what can run on entering. (That each item does one thing is in the syntax table.) */
function checkHooks(c: SemanticContext, s: StateDef): void {
  for (const h of [...s.onEnter, ...s.onExit]) {
    if (h.kind === 'clear') h.variables.forEach((v, i) => c.checkVar(v, [...h.at, i], 'clear'));
    if (h.kind === 'set') for (const [k, v] of Object.entries(h.values)) if (typeof v === 'string') c.checkTemplate(v, [...h.at, k], 'a set value');
    if (h.kind === 'call') checkCall(c, s, h.tool, h.at, s.onExit.includes(h));
  }
}

/** A `call` item: on entering a state that goes on, a tool of the state's with an HTTP action that needs no yes. */
function checkCall(c: SemanticContext, s: StateDef, name: string, at: SourcePath, onExit: boolean): void {
  const tool = resolveTool(c.flow, s, name);
  const why = onExit
    ? 'call runs on entering a state: on_exit could not wait for its answer; call it in on_enter of the state that follows'
    : s.terminal
      ? `"${s.id}" is a terminal state: the flow ends as it is entered, so the answer of the call would never be heard`
      : !tool
        ? undefined
        : !tool.http
          ? `"${name}" has no http effect: call runs a tool's HTTP action on entering (a lookup that fills the screen)`
          : tool.confirm
            ? `"${name}" waits for the visitor's yes (confirm: true), and on entering nobody has asked for it: offer it on a button (actions: [{ event, label, tool: ${name} }]) or to the LLM`
            : undefined;
  if (why) c.r.error('bad-value', at, why);
  else if (!tool) c.r.error('unknown-tool', at, `tool "${name}" is not defined in this state's tools or the flow's tools${didYouMean(name, [...Object.keys(s.tools), ...Object.keys(c.flow.tools)])}`);
}
