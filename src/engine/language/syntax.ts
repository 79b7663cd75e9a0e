// The syntax of a VFDL file as data: every key, its kind and what it means. The structural
// checker (structure-check.ts) and the editor's JSON Schema (json-schema.ts) are both derived from
// this one table, so the checker and the editor never disagree about what a file may say. Where a
// transition leads (targets, branches, guards) is in syntax-targets.ts.

import { FIELD_RULES } from './field-rules.ts';
import { any, arr, bool, ignored, map, matching, num, obj, regex, req, seconds, str, text, textList, union, withMistake, type Shape } from './shapes.ts';
import { branch, condition, guard, stateName, targetSpec, variableName } from './syntax-targets.ts';
import { turnTakingShape } from './turn-taking.ts';

export type { KeyRule, Prop, Shape } from './shapes.ts';
export { OPERATORS, targetSpec } from './syntax-targets.ts';

export const VALUE_TYPES = [
  'string',
  'number',
  'integer',
  'boolean',
  'date',
  'email',
  'phone',
  'name',
  'enum',
  'object',
] as const;
export const FIELD_TYPES = ['text', 'email', 'tel', 'number', 'date', 'select', 'radio', 'checkbox'] as const;
export const RENDERED_ARTIFACTS = ['form', 'options', 'card'] as const;
export const OTHER_ARTIFACTS = ['orb_layout', 'navigate', 'feedback', 'dismiss', 'custom'] as const;

/** A variable's name as a template writes it (`{room_number}`). */
const VARIABLE_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';

/** Where a visit starts: a state of the flow, never one of the reserved ends. */
const startState = matching('the state a visit starts in', '^(?!__end__$|__error__$)', (v) => `a visit cannot start in "${v}": name a state of this flow`);

const blockedNotice = obj(
  {
    notify_llm: bool('tell the LLM, by system message, that a transition was blocked (default true)'),
    notify_client: bool('send transition_blocked to the screen (default true)'),
  },
  'who hears about a blocked transition',
);

/** `turn_taking`: its own file (turn-taking.ts), the listening keys together. */
const turnTaking = turnTakingShape;

const param = obj(
  {
    type: str('the value type (default string)', VALUE_TYPES),
    required: bool('the LLM must give it'),
    description: str('what the LLM should put here'),
    enum: arr(any(), 'the allowed values'),
    pattern: regex('a regular expression the value must match'),
    min: num('smallest number, or shortest text'),
    max: num('largest number, or longest text'),
  },
  'a tool parameter',
);

const tool = obj(
  {
    description: str('what the tool does, for the LLM'),
    parameters: map(param, 'the arguments, each setting the variable of its name', 'parameter name'),
    capture: map(variableName, 'parameter -> variable it sets, where the names differ'),
    confirm: bool('a write: store it and run it only after the visitor confirms'),
    summary: text('what the visitor is asked to confirm, e.g. "Book {service} on {date}"'),
    expires_after: seconds('seconds an unconfirmed action waits (default 300)', 1),
    http: obj(
      {
        method: str('HTTP method', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        url: req(str('the address, with {var} interpolation; it starts with https:// or {origin:NAME}')),
        body: any('a JSON body, with {var} interpolation in its texts'),
        headers: map(str('sent as written; {secret:NAME} is filled in by the server'), 'request headers'),
        capture: {
          ...map(str('a dotted path in the JSON answer'), 'variable -> path in the answer', 'the variable the value goes to'),
          keys: {
            pattern: VARIABLE_NAME,
            problem: (key, value) =>
              `"${key}" is no variable name: http.capture maps each variable to the path of its value in the answer (variable: path), the other way round from a tool's capture${typeof value === 'string' && new RegExp(VARIABLE_NAME, 'u').test(value) ? `; write ${value}: ${key}` : ''}`,
            code: 'bad-value',
          },
        },
        timeout_seconds: num('seconds the call may take (the server\'s default is 10, its maximum 60)', { min: 0.1, max: 60 }),
      },
      'the HTTP call the runtime performs for this tool',
    ),
    speech_cue: text('what the agent says when the tool was handled without a transition'),
    auto_extract: map(
      obj({ patterns: req(arr(regex('a regular expression; group 1 is the value'), 'regular expressions; group 1 is the value')) }),
      'parameter -> patterns tried on the latest utterance when the LLM leaves it out',
    ),
    sets_variable: ignored(any(), 'Prepatu documentation key; parameters already name the variables'),
    advances: ignored(bool(), 'Prepatu documentation key; on_tool_call says where a tool leads'),
  },
  'a tool the LLM may call',
);

const hook = obj(
  {
    set: map(any(), 'variables to set; texts may use {var}'),
    clear: union([variableName, arr(variableName)], 'variables to empty'),
    emit: str('an analytics event name'),
    data: map(any(), 'data sent with the emitted event'),
    call: str('on entering: a tool whose HTTP action runs at once, its arguments from the variables (a lookup that fills the screen)'),
  },
  'one of set, clear, emit or call',
  [
    { kind: 'one-of', keys: ['set', 'clear', 'emit', 'call'], why: 'each on_enter and on_exit item does one thing: set, clear, emit or call; split it into one item each' },
    { kind: 'when', key: 'data', require: ['emit'], why: 'data is sent with an emitted event: give emit, or remove data' },
  ],
);

const choice = union(
  [
    str('a value, shown as its own label'),
    obj({
      id: str('the value sent when tapped'),
      value: str('the value sent when tapped (same as id)'),
      label: text('the text on the button'),
      description: text('a second line of text'),
    }),
  ],
  'an option',
);

const field = obj(
  {
    id: req(str('the variable this field shows and sets')),
    type: str('the input kind (default text)', FIELD_TYPES),
    label: text('the visible label'),
    required: bool('the form cannot be submitted without it'),
    placeholder: text('a hint shown while the field is empty'),
    options: arr(choice, 'for select and radio'),
    pattern: regex('text fields: a regular expression the value must match (not anchored: write ^…$)'),
    min_length: num('text fields: the fewest characters', { integer: true, min: 0 }),
    max_length: num('text fields: the most characters', { integer: true, min: 1 }),
    min: union([num(), str('a date, or today counted from')], 'number fields: the smallest value; date fields: the earliest date (2000-01-01, today, today - 120 years)'),
    max: union([num(), str('a date, or today counted from')], 'number fields: the largest value; date fields: the latest date (today, today + 1 year)'),
    message: text('what the visitor is told when the value breaks a rule of the field'),
    case: str('text fields: the value is written in upper (or lower) case, however it is typed, said or sent, before its rules are checked', ['upper', 'lower']),
  },
  'a form field',
  FIELD_RULES,
);

const uiAction = obj({
  event: req(str('the UI event sent')),
  label: req(text('the button text')),
  tool: str('a tap proposes this tool\'s action, as the LLM calling it would'),
});

const artifact: Shape = {
  ...obj(
    {
      artifact_type: req(
        str('form, options or card; Prepatu types are accepted and not rendered', [
          ...RENDERED_ARTIFACTS,
          ...OTHER_ARTIFACTS,
        ]),
      ),
      title: text('the heading; {var} allowed'),
      prompt: text('heading or body text; {var} allowed'),
      text: text('body text of a card; {var} allowed'),
      content: text('body text of a card; {var} allowed'),
      fields: arr(field, 'the form fields'),
      submit_label: text('the submit button (default: the kiosk\'s word in the visit\'s language, Continue)'),
      options: arr(choice, 'one big button per option'),
      variable: str('for options: the variable a tap sets'),
      actions: arr(uiAction, 'extra buttons that send UI events'),
      params: union(
        [
          map(any(), 'label -> value; a text value may use {var}', 'the label'),
          arr(obj({ label: req(text('the label, as the visitor reads it')), value: any('the value; a text may use {var}') }, 'one line of the card')),
        ],
        'values shown on a card: a mapping of label to value, or a list of { label, value } whose labels may be given per language',
      ),
    },
    'what the screen shows in this state',
  ),
  open: (v) => !(RENDERED_ARTIFACTS as readonly unknown[]).includes(v['artifact_type']),
};

const utteranceRule = obj(
  {
    pattern: req(regex('a JavaScript regular expression, matched case-insensitively')),
    capture_to: union([variableName, arr(variableName)], 'variables for groups 1..n'),
    target: targetSpec,
    requires_confirmation: bool('the capture is pending until the visitor confirms it'),
  },
  'a regular expression tried on the transcript before the LLM sees it',
);

/** Answers that came to nothing, counted like time-outs, then a way out. */
const noMatch = obj(
  {
    max_retries: req(num('answers in a row that may come to nothing; the next that no rule takes goes to fallback', { integer: true, min: 0 })),
    fallback: req(stateName),
  },
  '"didn\'t understand": answers that came to nothing, counted, then the fallback',
);

const state = obj(
  {
    description: str('a note for authors'),
    decide: {
      ...targetSpec,
      doc: 'a decision step: on entering it, the first branch whose guard holds is taken at once (end the list with a branch without a guard); it shows nothing and asks nothing',
    },
    on_enter: arr(hook, 'run when the state is entered'),
    on_exit: arr(hook, 'run when the state is left'),
    ui: artifact,
    agent: obj(
      {
        prompt: text('this state\'s instructions; {var} allowed'),
        say: text('what the kiosk says on entering this state, word for word and at once, instead of asking the LLM for it (a fixed question, a read-back of the values); {var} allowed'),
        tools: arr(str(), 'the only tools the LLM may call here'),
        context: str('append: keep earlier turns (default); reset: start afresh', ['append', 'reset']),
        response_constraint: obj({
          max_tokens: num(undefined, { integer: true, min: 1 }),
          temperature: num(undefined, { min: 0 }),
          stop_phrases: arr(str()),
        }),
      },
      'what the LLM sees in this state',
    ),
    tools: map(tool, 'tools defined for this state (override the flow\'s)', 'tool name'),
    turn_taking: turnTaking,
    confirmation_gate: obj(
      {
        variables: req(arr(variableName, 'variables the visitor must confirm')),
        on_confirm: req(targetSpec),
        on_reject: obj({
          action: str('clear (default) or keep the values', ['clear', 'keep']),
          target: stateName,
        }),
        expires_after: seconds('seconds a pending value waits before it is cleared', 1),
        prompt: text('the confirmation question, e.g. "I heard {first_name}, is that right?"'),
        confirm_phrases: textList('transcripts that confirm without the LLM'),
        reject_phrases: textList('transcripts that reject without the LLM'),
        on_transition_blocked: blockedNotice,
      },
      'values the visitor must confirm before the flow moves on',
    ),
    transitions: obj(
      {
        on_ui_event: map(targetSpec, 'UI event -> target', 'event name'),
        on_tool_call: map(targetSpec, 'tool -> target', 'tool name'),
        on_utterance: arr(utteranceRule),
        on_timeout: obj({
          seconds: req(seconds('seconds without user activity', 0.001)),
          target: req(stateName),
          max_retries: num('re-entries before the fallback', { integer: true, min: 0 }),
          fallback: stateName,
        }),
        on_no_match: noMatch,
        on_action_done: map(targetSpec, 'tool -> target once its HTTP action succeeded (instead of on_tool_call)', 'tool name'),
        on_action_failed: map(targetSpec, 'tool -> target when its HTTP action failed', 'tool name'),
        on_action: ignored(map(any()), 'Prepatu engine-internal actions; on_action_done and on_action_failed say where an action leads'),
        on_transition_blocked: blockedNotice,
      },
      'where this state can go',
    ),
  },
  'a state of the flow',
  [
    {
      kind: 'when',
      key: 'decide',
      forbid: ['ui', 'agent', 'tools', 'confirmation_gate', 'transitions', 'turn_taking'],
      why: 'a decision step only decides where the visit goes on entering it (decide: …): it shows nothing, asks nothing and waits for nothing, so it has no ui, agent, tools, confirmation_gate, transitions or turn_taking; put those in the steps it leads to',
    },
  ],
);

/** Ways out of every state (a person, start over), below each state's own in priority. */
const globalBlock = obj(
  {
    tools: arr(str(), 'tools of the flow\'s tools offered to the LLM in every state'),
    actions: arr(uiAction, 'buttons on every screen'),
    on_ui_event: map(targetSpec, 'UI event -> target, from every state', 'event name'),
    on_tool_call: map(targetSpec, 'tool -> target, from every state', 'tool name'),
    on_utterance: arr(utteranceRule, 'rules tried after the state\'s own, in every state'),
    on_no_match: noMatch,
    except: arr(stateName, 'states where none of this applies'),
  },
  'flow-wide ways out: in every state but terminal ones and those in except, below the state\'s own transitions',
);

const variable = obj(
  {
    type: str('the value type', VALUE_TYPES),
    required: bool('warn when the flow ends with it unset'),
    default: any('the initial value'),
    enum: arr(any(), 'the allowed values'),
    persist: ignored(bool(), 'this kiosk wipes every value after each visitor'),
    description: str('a note for authors'),
    label: text(
      'how the visitor reads its name: on the end screen (with show_at_end) and in notices',
      'a label is what the visitor reads for this value: give it words, or leave the key out',
    ),
    show_at_end: bool('the end screen shows it, under its label: what the visitor takes away (a queue number, a booking code). Nothing else of the visit is shown there'),
  },
  'a declared variable',
);

/** The whole document. Keys starting `x-` are the author's own (anchors to merge from). */
export const flowShape: Extract<Shape, { kind: 'object' }> = { extensions: true, ...obj(
  {
    vfdl: num('language version (1)', { integer: true, min: 1, max: 1, maxWhy: 'this kiosk reads VFDL version 1, the only one there is' }),
    id: req(matching('the flow id, [a-z][a-z0-9_]*', '^[a-z][a-z0-9_-]*$', (v) => `flow id "${v}" must match [a-z][a-z0-9_]*: lower-case letters, digits and _, starting with a letter`)),
    title: text('shown on the idle screen (default: the id)'),
    description: text('a note for authors'),
    version: str('the flow\'s own version (semver)'),
    language: str('BCP 47 language tag of the texts written as plain strings, and the visit\'s language until the visitor chooses another (default en-US)'),
    languages: arr(str('a BCP 47 language tag'), 'the languages a visitor may choose (default: just `language`); it must hold `language`'),
    mode: str('kiosk (default) or assistant', ['kiosk', 'assistant']),
    base_prompt: text('prepended to every state\'s prompt'),
    initial: startState,
    initial_state: startState,
    variables: map(variable, 'declared variables', 'variable name'),
    tools: map(tool, 'tools shared by all states', 'tool name'),
    global: globalBlock,
    states: req({
      ...map(state, 'the states, by id', 'state id'),
      min: { count: 1, why: 'a flow needs at least one state' },
      keys: {
        pattern: '^(?!__(?!error__$))(?!self$)',
        problem: (id) =>
          id === '__end__'
            ? '"__end__" is reserved: it ends the flow and cannot be defined'
            : id === 'self'
              ? '"self" is reserved: as a target it names the state it is written in'
              : 'state ids starting with "__" are reserved (only __error__ may be defined)',
        code: 'reserved-state',
      },
    }),
    turn_taking: turnTaking,
    settings: obj({
      base_system_prompt: text('Prepatu spelling of base_prompt'),
      max_duration_secs: seconds('a hard cap on one visitor\'s session, in seconds', 1),
      on_timeout: withMistake(
        str('the state a visit goes to when max_duration_secs runs out (default: the end)'),
        (v) =>
          v !== null && typeof v === 'object'
            ? 'settings.on_timeout names the state a visit goes to when settings.max_duration_secs runs out (on_timeout: front_desk); a step\'s own time-out, with its seconds and target, goes under that state\'s transitions: (transitions: { on_timeout: { seconds: 30, target: … } })'
            : undefined,
      ),
      on_error: stateName,
      llm_required: bool('the flow cannot run on the offline agent'),
      allow_back: bool('show a Back control that returns to the previous state'),
      on_transition_blocked: blockedNotice,
    }),
  },
  'a VFDL flow',
) };

/** Shapes used in several places, named once in the JSON Schema's $defs. */
export const namedShapes: ReadonlyMap<Shape, string> = new Map<Shape, string>([
  [targetSpec, 'target'],
  [branch, 'branch'],
  [guard, 'guard'],
  [condition, 'condition'],
  [tool, 'tool'],
  [param, 'parameter'],
  [hook, 'hook'],
  [choice, 'option'],
  [field, 'field'],
  [artifact, 'artifact'],
  [state, 'state'],
  [variable, 'variable'],
  [blockedNotice, 'blocked_notice'],
  [turnTaking, 'turn_taking'],
  [utteranceRule, 'utterance_rule'],
  [uiAction, 'button'],
  [globalBlock, 'global'],
  [noMatch, 'no_match'],
]);
