// What a flow knows about itself, worked out once: every variable with its type and the places
// that set it, and for each state the tools offered to the LLM (its own plus the generated ones)
// as OpenAI function definitions.

import {
  CONFIRM_ACTION,
  GO_BACK,
  hasActionGate,
  REJECT_ACTION,
  resolveTool,
  SET_LANGUAGE,
  type ChoiceOption,
  type Field,
  type FieldType,
  type Flow,
  type SourcePath,
  type StateDef,
  type ToolDef,
  type UiAction,
  type ValueType,
} from './flow.ts';
import { stateBranches } from './branches.ts';
import { isTodayText } from './dates.ts';
import { hasRules } from './field-rules.ts';
import { globalBranches, globalIn } from './global.ts';
import { languageName } from './localize.ts';
import { dict, own } from './records.ts';
import { backButtons } from './touch.ts';
import { paramJsonSchema } from './values.ts';

/** An OpenAI-style function tool definition, as handed to the language model. */
export interface ToolSpec {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: {
      type: 'object';
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: false;
    };
  };
}

export interface VariableInfo {
  name: string;
  type: ValueType;
  enum?: readonly unknown[];
  /** where it is declared or first set, for diagnostics */
  at: SourcePath;
}

export interface Catalog {
  variables: ReadonlyMap<string, VariableInfo>;
  /** state id -> names of the tools the LLM may call there, in offer order */
  offered: ReadonlyMap<string, readonly string[]>;
  /** state id -> OpenAI tool definitions */
  toolSpecs: ReadonlyMap<string, readonly ToolSpec[]>;
  /** state id -> variables that something in that state can set */
  settable: ReadonlyMap<string, ReadonlySet<string>>;
  /** variable -> choice id -> the label a visitor sees (options and select fields) */
  choiceLabels: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** variable -> the form fields of it with rules for its value (every one holds, from any source) */
  fieldRules: ReadonlyMap<string, readonly Field[]>;
  /** variable -> the case its form field asks its value in (`case: upper`), from any source */
  fieldCase: ReadonlyMap<string, 'upper' | 'lower'>;
}

const FIELD_VALUE_TYPE: Record<FieldType, ValueType> = {
  text: 'string',
  email: 'email',
  tel: 'phone',
  number: 'number',
  date: 'date',
  select: 'string',
  radio: 'string',
  checkbox: 'boolean',
};

/** The tools a state offers the LLM by name: its own list, then the flow's global ones. */
function listedTools(flow: Flow, state: StateDef): string[] {
  return [...new Set([...state.agent.tools, ...globalIn(flow, state).tools])];
}

function settersOf(flow: Flow, state: StateDef): Set<string> {
  const out = new Set<string>();
  for (const name of listedTools(flow, state)) {
    const tool = resolveTool(flow, state, name);
    if (!tool) continue;
    for (const v of Object.values(tool.capture)) out.add(v);
    if (tool.http) for (const v of Object.keys(tool.http.capture)) out.add(v);
  }
  for (const h of state.onEnter) {
    const called = h.kind === 'call' ? resolveTool(flow, state, h.tool) : undefined;
    if (called?.http) for (const v of Object.keys(called.http.capture)) out.add(v);
  }
  for (const f of state.ui?.fields ?? []) out.add(f.id);
  if (state.ui?.variable) out.add(state.ui.variable);
  for (const r of [...state.transitions.onUtterance, ...globalIn(flow, state).onUtterance]) for (const v of [...r.captureTo, ...r.namedGroups]) out.add(v);
  return out;
}

export function buildCatalog(flow: Flow): Catalog {
  const vars = new Map<string, VariableInfo>();
  const add = (name: string, type: ValueType, at: SourcePath, enumValues?: readonly unknown[]) => {
    if (!vars.has(name)) vars.set(name, { name, type, at, ...(enumValues ? { enum: enumValues } : {}) });
  };
  for (const v of Object.values(flow.variables)) add(v.name, v.type, v.at, v.enum);
  const toolsSeen: ToolDef[] = [...Object.values(flow.tools)];
  for (const id of flow.stateOrder) toolsSeen.push(...Object.values(flow.states[id]!.tools));
  for (const t of toolsSeen) {
    for (const p of t.parameters) {
      const target = own(t.capture, p.name) ?? p.name;
      add(target, p.type, p.at, p.enum);
    }
    for (const [param, target] of Object.entries(t.capture)) add(target, 'string', [...t.at, 'capture', param]);
    if (t.http) for (const v of Object.keys(t.http.capture)) add(v, 'string', [...t.at, 'http', 'capture', v]);
  }
  for (const id of flow.stateOrder) {
    const s = flow.states[id]!;
    for (const f of s.ui?.fields ?? []) add(f.id, own(FIELD_VALUE_TYPE, f.type) ?? 'string', f.at, f.options?.map((o) => o.id));
    if (s.ui?.variable) add(s.ui.variable, 'string', [...s.at, 'ui', 'variable'], s.ui.options.map((o) => o.id));
    for (const r of s.transitions.onUtterance) {
      for (const v of [...r.captureTo, ...r.namedGroups]) add(v, 'string', r.at);
    }
  }
  const addSets = (values: Readonly<Record<string, unknown>>, at: SourcePath) => {
    for (const [k, v] of Object.entries(values)) {
      add(k, typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : isTodayText(v) ? 'date' : 'string', [...at, k]);
    }
  };
  for (const id of flow.stateOrder) {
    const s = flow.states[id]!;
    for (const h of [...s.onEnter, ...s.onExit]) if (h.kind === 'set') addSets(h.values, h.at);
    for (const b of stateBranches(s)) addSets(b.set, [...b.at.slice(0, -1), 'set']);
  }
  const g = flow.global;
  if (g) {
    for (const r of g.onUtterance) for (const v of [...r.captureTo, ...r.namedGroups]) add(v, 'string', r.at);
    for (const b of globalBranches(g)) addSets(b.set, [...b.at.slice(0, -1), 'set']);
  }

  const offered = new Map<string, string[]>();
  const toolSpecs = new Map<string, ToolSpec[]>();
  const settable = new Map<string, Set<string>>();
  for (const id of flow.stateOrder) {
    const s = flow.states[id]!;
    const listed = listedTools(flow, s);
    const own = listed.flatMap((name) => {
      const t = resolveTool(flow, s, name);
      return t ? [toolSpec(t)] : [];
    });
    const made = generatedTools(flow, s);
    offered.set(id, [...new Set([...listed, ...made.map((t) => t.function.name)])]);
    toolSpecs.set(id, [...own, ...made]);
    settable.set(id, settersOf(flow, s));
  }
  const choiceLabels = new Map<string, Map<string, string>>();
  const addLabels = (variable: string, options: readonly ChoiceOption[]) => {
    const labels = choiceLabels.get(variable) ?? new Map<string, string>();
    for (const o of options) if (o.label !== o.id && !labels.has(o.id)) labels.set(o.id, o.label);
    if (labels.size) choiceLabels.set(variable, labels);
  };
  for (const id of flow.stateOrder) {
    const ui = flow.states[id]!.ui;
    if (ui?.variable) addLabels(ui.variable, ui.options);
    for (const f of ui?.fields ?? []) if (f.options) addLabels(f.id, f.options);
  }
  const fieldRules = new Map<string, Field[]>();
  const fieldCase = new Map<string, 'upper' | 'lower'>();
  for (const id of flow.stateOrder) {
    for (const f of flow.states[id]!.ui?.fields ?? []) {
      if (hasRules(f)) fieldRules.set(f.id, [...(fieldRules.get(f.id) ?? []), f]);
      if (f.case && !fieldCase.has(f.id)) fieldCase.set(f.id, f.case);
    }
  }
  return { variables: vars, offered, toolSpecs, settable, choiceLabels, fieldRules, fieldCase };
}

function generated(name: string, description: string): ToolSpec {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties: dict(), required: [], additionalProperties: false },
    },
  };
}

/** The OpenAI function definition of a tool. */
export function toolSpec(t: ToolDef): ToolSpec {
  const properties = dict(t.parameters.map((p) => [p.name, paramJsonSchema(p)]));
  return {
    type: 'function',
    function: {
      name: t.name,
      description: t.confirm ? `${t.description} (The visitor is asked to confirm before it runs.)`.trim() : t.description,
      parameters: {
        type: 'object',
        properties,
        required: t.parameters.filter((p) => p.required).map((p) => p.name),
        additionalProperties: false,
      },
    },
  };
}

/**
 * The tools the engine makes for a state: confirm_/reject_ for each gated variable and for the
 * state as a whole, and confirm_action/reject_action where a tool is action-gated.
 */
export function generatedTools(flow: Flow, s: StateDef): ToolSpec[] {
  const made: ToolSpec[] = [];
  if (s.gate) {
    const all = s.gate.variables.join(', ');
    for (const v of s.gate.variables) {
      made.push(
        generated(`confirm_${v}`, `The visitor said the value of ${v} is right. Call only after they confirm it.`),
        generated(`reject_${v}`, `The visitor said the value of ${v} is wrong; it is cleared so you can ask again.`),
      );
    }
    made.push(
      generated(`confirm_${s.id}`, `The visitor confirmed every value asked for here (${all}).`),
      generated(`reject_${s.id}`, `The visitor said the values asked for here (${all}) are wrong.`),
    );
  }
  if (hasActionGate(flow, s)) {
    made.push(
      generated(CONFIRM_ACTION, 'The visitor agreed to the pending action; it runs now. Call only after they say yes.'),
      generated(REJECT_ACTION, 'The visitor declined the pending action; it is cancelled.'),
    );
  }
  const back = backButtons(flow, s);
  if (back.length > 0) made.push(goBackTool(back));
  if (flow.languages.length > 1 && !s.terminal) made.push(languageTool(flow));
  return made;
}

/**
 * go_back: the visitor's words go back as one of the step's buttons would (Back, "Change my
 * details"). The engine takes it like any tool call, and only to a step this visit has shown, so a
 * model never moves the visit on through it nor speaks as the screen.
 */
function goBackTool(buttons: readonly UiAction[]): ToolSpec {
  const tool = generated(
    GO_BACK,
    `The visitor asked to go back or to change an earlier answer (a change of mind, "no wait, I meant …"), as these buttons of the screen would: ${buttons.map((b) => `${b.event} ("${b.label}")`).join(', ')}. It goes back only to a step already shown in this visit; the visitor's words are then heard there.`,
  );
  tool.function.parameters.properties['button'] = { type: 'string', enum: buttons.map((b) => b.event), description: 'the button whose way back the visitor asked for' };
  tool.function.parameters.required.push('button');
  return tool;
}

/** set_language: the visitor asked to be spoken to in another of the flow's languages. */
function languageTool(flow: Flow): ToolSpec {
  const tool = generated(
    SET_LANGUAGE,
    `The visitor asked to be spoken to in another language. The screen changes with it and every answer given so far is kept. This kiosk speaks ${flow.languages.map((tag) => `${languageName(tag)} (${tag})`).join(', ')}.`,
  );
  tool.function.parameters.properties['language'] = { type: 'string', enum: [...flow.languages], description: 'the language tag the visitor asked for' };
  tool.function.parameters.required.push('language');
  return tool;
}

/** Names of the tools the engine makes for a state (see generatedTools). */
export function generatedToolNames(flow: Flow, s: StateDef): string[] {
  return generatedTools(flow, s).map((t) => t.function.name);
}
