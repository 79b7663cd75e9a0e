// Random inputs for a run through a flow, made from the flow's own definitions and the state the
// run is in: what a visitor may say or tap, what an LLM may call (with right or wrong arguments,
// offered or foreign, late or early), and time passing.

import fc from 'fast-check';
import { resolveTool, type Field, type ParamDef, type StateDef, type ToolDef, type ValueType } from '../../src/engine/language/flow.ts';
import { stateDef } from '../../src/engine/runtime/error-state.ts';
import type { LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineInput, UiEventInput, UtteranceInput } from '../../src/engine/runtime/messages.ts';

/** The epoch a planned tool call claims, relative to the engine's epoch when it is sent. */
export type PlannedEpoch = 'current' | { behind: number } | { ahead: number };

/** A tool call as planned: its epoch and call id are settled when it is sent. */
export interface PlannedToolCall {
  type: 'tool_call';
  name: string;
  args: unknown;
  epoch: PlannedEpoch;
}

/** Time passing: the clock moves on by `afterMs`, then the engine gets a tick. */
export interface PlannedTick {
  type: 'tick';
  afterMs: number;
}

export type PlannedInput = UtteranceInput | UiEventInput | PlannedToolCall | PlannedTick;

/** One step: a single input, or two or three delivered together in one `send`. */
export type PlannedStep = readonly PlannedInput[];

/**
 * For a flow, a builder of the random steps to take in a given state: mostly what that state
 * offers, sometimes what belongs elsewhere or nowhere. A single input, now and then a batch.
 */
export function stepsIn(loaded: LoadedFlow): (state: string) => fc.Arbitrary<PlannedStep> {
  return (stateId) => {
    const state = stateDef(loaded.flow, stateId);
    const input = weighted<PlannedInput>(
      [[utterances(loaded, state)], 3],
      [[toolCalls(loaded, state)], 4],
      [[uiEvents(loaded, state)], 2],
      [[timePassing(loaded)], 1],
    );
    return fc.oneof(
      { arbitrary: input.map((one) => [one]), weight: 9 },
      { arbitrary: fc.array(input, { minLength: 2, maxLength: 3 }), weight: 1 },
    );
  };
}

/**
 * The engine inputs of a planned step, given the engine's current epoch. Tool calls get explicit
 * call ids (`<prefix>.<index>`); `advanceMs` is how far the clock must move before the step.
 */
export function resolveStep(step: PlannedStep, epoch: number, callIdPrefix: string): { inputs: EngineInput[]; advanceMs: number } {
  let advanceMs = 0;
  const inputs = step.map((planned, i): EngineInput => {
    switch (planned.type) {
      case 'tool_call':
        return {
          type: 'tool_call',
          name: planned.name,
          args: structuredClone(planned.args),
          epoch: epochOf(planned.epoch, epoch),
          call_id: `${callIdPrefix}.${i}`,
        };
      case 'tick':
        advanceMs += planned.afterMs;
        return { type: 'tick' };
      default:
        return structuredClone(planned);
    }
  });
  return { inputs, advanceMs };
}

function epochOf(planned: PlannedEpoch, current: number): number {
  if (planned === 'current') return current;
  return 'behind' in planned ? current - planned.behind : current + planned.ahead;
}

// ------------------------------------------------------------------ values

const NAMES = ['Ana', 'José', 'Mary-Jane', "O'Brien", 'Zoë', 'Li', 'Jean Paul'];
const SPOKEN_DATES = ['next Monday', '15 March 1995', 'tomorrow', 'May 20', 'the 3rd'];
const DAY_MS = 86_400_000;

const personName = fc.constantFrom(...NAMES);
const isoDate = fc.integer({ min: -25_000, max: 40_000 }).map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10));
const email = fc.emailAddress();
const phone = fc.stringMatching(/^\+?[1-9][0-9]{6,11}$/);
const freeText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const jsonObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean()), {
  maxKeys: 3,
  noNullPrototype: true,
});

/** What a value must satisfy besides its type: a tool parameter's or a variable's constraints. */
interface ValueRule {
  enum?: readonly unknown[] | undefined;
  pattern?: string | undefined;
  min?: number | undefined;
  max?: number | undefined;
}

/** Values of `type` that satisfy `rule` (as far as a generator can tell). */
function validValue(type: ValueType, rule: ValueRule): fc.Arbitrary<unknown> {
  if (rule.enum && rule.enum.length > 0) return fc.constantFrom(...rule.enum);
  switch (type) {
    case 'string':
      if (rule.pattern !== undefined) return matchingText(rule.pattern) ?? fc.oneof(personName, freeText);
      if (rule.min !== undefined || rule.max !== undefined) {
        return fc.string({ unit: fc.constantFrom(...'abcdefghij'), minLength: Math.max(1, rule.min ?? 1), maxLength: rule.max ?? 30 });
      }
      return fc.oneof(personName, fc.string({ minLength: 1, maxLength: 30 }));
    case 'number':
      return fc.double({ min: rule.min ?? -1e6, max: rule.max ?? 1e6, noNaN: true });
    case 'integer':
      return fc.integer({ min: Math.ceil(rule.min ?? -1e6), max: Math.floor(rule.max ?? 1e6) });
    case 'boolean':
      return fc.boolean();
    case 'date':
      return isoDate;
    case 'email':
      return email;
    case 'phone':
      return phone;
    case 'name':
      return personName;
    case 'enum':
      return freeText;
    case 'object':
      return jsonObject;
  }
}

const WRONG_VALUES: Record<ValueType, readonly unknown[]> = {
  string: [{}, ['a'], { nested: true }],
  number: ['twelve', '1,5', {}, true],
  integer: ['twelve', 1.5, {}, true],
  boolean: ['maybe', 2, {}],
  date: ['tomorrow', '2023-02-30', '15/03/1995', 20230101],
  email: ['not an email', 'ana@', 'ana at example dot com', 42],
  phone: ['call me', '12', {}],
  name: [{}, ['a'], 42],
  enum: ['none of these', 7, {}],
  object: ['text', 5, true],
};

/** Values the engine must refuse for `type` and `rule`: wrong JS type, unparsable, out of range. */
function wrongValue(type: ValueType, rule: ValueRule): fc.Arbitrary<unknown> {
  const wrong: unknown[] = [...WRONG_VALUES[type]];
  if (rule.enum && rule.enum.length > 0) wrong.push('none of these');
  const numeric = type === 'number' || type === 'integer';
  if (rule.min !== undefined) wrong.push(numeric ? rule.min - 1 : '');
  if (rule.max !== undefined) wrong.push(numeric ? rule.max + 1 : 'x'.repeat(rule.max + 1));
  return fc.constantFrom(...wrong);
}

/** Texts that match a flow's regular expression, or null when fast-check cannot build them. */
function matchingText(pattern: string): fc.Arbitrary<string> | null {
  for (const source of [pattern, pattern.replace(/\\b/g, ' ')]) {
    try {
      return fc.stringMatching(new RegExp(source), { maxLength: 60 });
    } catch {
      // a construct fast-check does not generate from (\b, lookbehind, ...): try the next form
    }
  }
  return null;
}

/** Values a visitor may type or tap for a variable: right for its type in the catalog, or not. */
function typedOrWrong(loaded: LoadedFlow, variable: string): fc.Arbitrary<unknown> {
  const info = loaded.catalog.variables.get(variable);
  const type = info?.type ?? 'string';
  const rule = { enum: info?.enum };
  const valid = validValue(type, rule);
  return fc.oneof(valid, valid.map(String), wrongValue(type, rule), fc.constant(''));
}

// ------------------------------------------------------------------ the flow's vocabulary

function statesOf(loaded: LoadedFlow): StateDef[] {
  return loaded.flow.stateOrder.map((id) => loaded.flow.states[id]!);
}

/** Every tool definition the flow has, top-level and per state (a state may override a name). */
function toolDefs(loaded: LoadedFlow): ToolDef[] {
  const defs = new Set<ToolDef>(Object.values(loaded.flow.tools));
  for (const state of statesOf(loaded)) {
    for (const name of state.agent.tools) {
      const def = resolveTool(loaded.flow, state, name);
      if (def) defs.add(def);
    }
  }
  return [...defs];
}

/** Tools a state offers that the engine generates: a gate's confirm_… and reject_…, confirm_action, ... */
function generatedTools(loaded: LoadedFlow, state: StateDef): string[] {
  return (loaded.catalog.offered.get(state.id) ?? []).filter((name) => !resolveTool(loaded.flow, state, name));
}

function fieldsOf(state: StateDef | undefined): readonly Field[] {
  return state?.ui?.fields ?? [];
}

/** `items` as a one-element list of arbitraries, or none when empty (fc.constantFrom needs one). */
function someOf<T>(items: readonly T[]): fc.Arbitrary<T>[] {
  return items.length > 0 ? [fc.constantFrom(...items)] : [];
}

/** One of the arbitraries; each weighs what its group says. Empty groups drop out (fc.oneof needs one). */
function weighted<T>(...groups: [arbitraries: fc.Arbitrary<T>[], weight: number][]): fc.Arbitrary<T> {
  return fc.oneof(...groups.flatMap(([arbitraries, weight]) => arbitraries.map((arbitrary) => ({ arbitrary, weight }))));
}

// ------------------------------------------------------------------ utterances

const YES_NO = ['yes', 'no', 'Yes, that is right.', "No, that's wrong", 'yep', 'nope', 'maybe'];

/** What a visitor may say: the state's patterns and gate phrases, yes and no, names, emails, dates, noise. */
function utterances(loaded: LoadedFlow, state: StateDef | undefined): fc.Arbitrary<UtteranceInput> {
  const phrases = [...YES_NO, ...(state?.gate?.confirmPhrases ?? []), ...(state?.gate?.rejectPhrases ?? [])];
  const words = [
    ...[...loaded.catalog.variables.values()].flatMap((v) => (v.enum ?? []).map(String)),
    ...(state?.ui?.options ?? []).flatMap((o) => [o.id, o.label]),
  ];
  const patterns = (state?.transitions.onUtterance ?? []).map((r) => matchingText(r.pattern)).filter((a) => a !== null);
  const said = weighted<string>(
    [patterns, 3],
    [[fc.constantFrom(...phrases)], 3],
    [someOf(words), 1],
    [[personName, personName.map((n) => `my name is ${n}`), email, email.map((e) => `my email is ${e}`)], 1],
    [[isoDate, fc.constantFrom(...SPOKEN_DATES)], 1],
    [[freeText], 2],
  );
  return said.map((text) => ({ type: 'utterance', text }));
}

// ------------------------------------------------------------------ tool calls

const plannedEpoch: fc.Arbitrary<PlannedEpoch> = fc.oneof(
  { arbitrary: fc.constant('current' as const), weight: 8 },
  { arbitrary: fc.integer({ min: 1, max: 3 }).map((behind) => ({ behind })), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 3 }).map((ahead) => ({ ahead })), weight: 1 },
);

const MALFORMED_JSON = ['{"', '{not json}', '[1, 2', "{'a': 1}", 'null,'];
const NOT_AN_OBJECT = [[], [1, 2], 42, true, '"text"', '[]'];

function paramRule(p: ParamDef): ValueRule {
  return { enum: p.enum, pattern: p.pattern, min: p.min, max: p.max };
}

/** Arguments that pass the tool's parameters: every required one, some optional ones. */
function validArguments(tool: ToolDef): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(tool.parameters.map((p) => [p.name, validValue(p.type, paramRule(p))]));
  const requiredKeys = tool.parameters.filter((p) => p.required).map((p) => p.name);
  return fc.record(model, { requiredKeys, noNullPrototype: true });
}

/** Arguments the tool must refuse: a wrong value, a missing required one, or not an object at all. */
function invalidArguments(tool: ToolDef): fc.Arbitrary<unknown> {
  const valid = validArguments(tool);
  return fc.oneof(
    fc.constantFrom(...MALFORMED_JSON, ...NOT_AN_OBJECT),
    ...tool.parameters.map((p) => fc.tuple(valid, wrongValue(p.type, paramRule(p))).map(([args, bad]) => ({ ...args, [p.name]: bad }))),
    ...tool.parameters
      .filter((p) => p.required)
      .map((p) => valid.map((args) => Object.fromEntries(Object.entries(args).filter(([k]) => k !== p.name)))),
  );
}

/** Calls of a tool the flow defines, mostly with valid arguments (as objects or as JSON text). */
function callsOf(tool: ToolDef): fc.Arbitrary<PlannedToolCall> {
  const valid = validArguments(tool);
  const args = fc.oneof(
    { arbitrary: valid, weight: 4 },
    { arbitrary: valid.map((a) => JSON.stringify(a)), weight: 1 },
    { arbitrary: invalidArguments(tool), weight: 3 },
  );
  return fc.tuple(args, plannedEpoch).map(([a, epoch]) => ({ type: 'tool_call', name: tool.name, args: a, epoch }));
}

/** Calls of tools the engine generates; they take no arguments, but an LLM may send some. */
function callsOfGenerated(names: readonly string[]): fc.Arbitrary<PlannedToolCall>[] {
  if (names.length === 0) return [];
  const args = fc.constantFrom<unknown>({}, '', '{}', null, { note: 'the visitor said yes' }, '{"');
  return [fc.tuple(fc.constantFrom(...names), args, plannedEpoch).map(([name, a, epoch]) => ({ type: 'tool_call', name, args: a, epoch }))];
}

/** Tools no state offers, as a confused or hostile LLM might call them. */
const madeUpToolCalls: fc.Arbitrary<PlannedToolCall> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('transfer_money', 'end_flow', '__end__', 'confirm_', 'reject_all', 'confirm_everything'),
      fc.stringMatching(/^[a-z][a-z_]{0,15}$/),
    ),
    fc.oneof(jsonObject, fc.constantFrom<unknown>('{"', null)),
    plannedEpoch,
  )
  .map(([name, args, epoch]) => ({ type: 'tool_call', name, args, epoch }));

/** Mostly the tools the state offers; also tools of other states and tools of no state. */
function toolCalls(loaded: LoadedFlow, state: StateDef | undefined): fc.Arbitrary<PlannedToolCall> {
  const offered = state ? (loaded.catalog.offered.get(state.id) ?? []) : [];
  const offeredDefs = state ? offered.map((name) => resolveTool(loaded.flow, state, name)).filter((d) => d !== undefined) : [];
  const foreignDefs = toolDefs(loaded).filter((d) => !offeredDefs.includes(d));
  const foreignGenerated = [...new Set(statesOf(loaded).flatMap((s) => generatedTools(loaded, s)))].filter((n) => !offered.includes(n));
  return weighted<PlannedToolCall>(
    [offeredDefs.map(callsOf), 6],
    [callsOfGenerated(state ? generatedTools(loaded, state) : []), 3],
    [foreignDefs.map(callsOf), 1],
    [callsOfGenerated(foreignGenerated), 1],
    [[madeUpToolCalls], 1],
  );
}

// ------------------------------------------------------------------ UI events

const BUILT_IN_EVENTS = ['confirm_action', 'reject_action', 'back', 'change_variable'];

/** Taps and typing: mostly on the state's own screen, sometimes on another state's, or nonsense. */
function uiEvents(loaded: LoadedFlow, state: StateDef | undefined): fc.Arbitrary<UiEventInput> {
  const ui = (event: string, extra: Omit<UiEventInput, 'type' | 'event'> = {}): UiEventInput => ({ type: 'ui_event', event, ...extra });
  const formValues = (fields: readonly Field[]) =>
    fc.record(Object.fromEntries(fields.map((f) => [f.id, typedOrWrong(loaded, f.id)])), { requiredKeys: [], noNullPrototype: true });
  const ownFields = fieldsOf(state);
  const otherFields = statesOf(loaded).filter((s) => s !== state).flatMap(fieldsOf);
  const options = [...(state?.ui?.options ?? []), ...ownFields.flatMap((f) => f.options ?? [])].map((o) => o.id);
  const variables = [...(state?.gate?.variables ?? []), ...loaded.catalog.variables.keys()];
  const events = [...(state?.ui?.actions ?? []).map((a) => a.event), ...Object.keys(state?.transitions.onUiEvent ?? {}), ...BUILT_IN_EVENTS];
  const fieldChange = (f: Field) => typedOrWrong(loaded, f.id).map((value) => ui('field_change', { variable: f.id, value }));

  const formSubmit = weighted<Record<string, unknown>>(
    [ownFields.length > 0 ? [formValues(ownFields)] : [], 4],
    [[fc.constant({})], 1],
    [otherFields.length > 0 ? [formValues(otherFields)] : [], 1],
  ).map((values) => ui('form_submit', { values }));
  const optionSelect = fc
    .tuple(fc.oneof(...someOf(options), fc.string({ maxLength: 10 })), fc.boolean())
    .map(([id, asSelectedId]) => ui('option_select', asSelectedId ? { selected_id: id } : { value: id }));
  const confirmVariable = fc.constantFrom(...variables, 'nothing_here').map((variable) => ui('confirm_variable', { variable }));
  const unknownEvent = fc.stringMatching(/^[a-z][a-z_]{0,11}$/).map((event) => ui(event));

  return weighted<UiEventInput>(
    [[formSubmit], 3],
    [[optionSelect, confirmVariable], 2],
    [ownFields.map(fieldChange), 2],
    [otherFields.map(fieldChange), 1],
    [[fc.constantFrom(...events).map((event) => ui(event))], 3],
    [[unknownEvent], 1],
  );
}

// ------------------------------------------------------------------ time

/** Moves of the clock: short pauses, the flow's timeouts and expiries give or take a second, long idles. */
function timePassing(loaded: LoadedFlow): fc.Arbitrary<PlannedTick> {
  const seconds = [
    ...statesOf(loaded).flatMap((s) => [s.transitions.onTimeout?.seconds, s.gate?.expiresAfter]),
    ...toolDefs(loaded).map((t) => (t.confirm ? (t.expiresAfter ?? 300) : undefined)),
    loaded.flow.settings.maxDurationSecs,
  ].filter((s) => s !== undefined);
  const nearDeadline = someOf(seconds).map((deadline) =>
    fc.tuple(deadline, fc.integer({ min: -1000, max: 1000 })).map(([s, jitter]) => Math.max(0, s * 1000 + jitter)),
  );
  return fc
    .oneof(fc.integer({ min: 0, max: 5000 }), ...nearDeadline, fc.integer({ min: 0, max: 2 * 3_600_000 }))
    .map((afterMs) => ({ type: 'tick', afterMs }));
}
