// Turns a structurally checked document into the Flow model: defaults filled in, Prepatu's
// spellings folded into ours, targets turned into branch lists. It trusts the structure check
// and stays defensive where that check already reported a problem.

import type {
  ActionOutcomes,
  AgentDef,
  Artifact,
  Branch,
  ChoiceOption,
  Condition,
  Field,
  FieldType,
  Flow,
  Gate,
  Guard,
  HookAction,
  ParamDef,
  SourcePath,
  StateDef,
  ToolDef,
  Transitions,
  TurnTakingDef,
  UtteranceRule,
  ValueType,
  VariableDecl,
} from './flow.ts';
import { dict } from './records.ts';
import { RENDERED_ARTIFACTS } from './syntax.ts';
import { convertValue } from './values.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const asArr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asNum = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const asBool = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);
const strList = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : asArr(v).filter((x): x is string => typeof x === 'string');

export function normalizeFlow(data: unknown): Flow {
  const d = asObj(data);
  const settings = asObj(d['settings']);
  const stateEntries = Object.entries(asObj(d['states']));
  const stateOrder = stateEntries.map(([id]) => id);
  const blocked = asObj(settings['on_transition_blocked']);
  const flowNotify = {
    notifyLlm: asBool(blocked['notify_llm'], true),
    notifyClient: asBool(blocked['notify_client'], true),
  };

  const variables = dict<VariableDecl>();
  for (const [name, raw] of Object.entries(asObj(d['variables']))) {
    const v = asObj(raw);
    const type = (asStr(v['type']) as ValueType | undefined) ?? (Array.isArray(v['enum']) ? 'enum' : 'string');
    // A default is stored as its type holds it ("3" for an integer is 3; text stays as written);
    // one that does not convert is a type-mismatch error, so such a flow never runs.
    const given = Object.hasOwn(v, 'default') ? v['default'] : null;
    const converted = given === null || type === 'string' ? undefined : convertValue(type, given, Array.isArray(v['enum']) ? v['enum'] : undefined);
    variables[name] = {
      name,
      type,
      required: asBool(v['required'], false),
      ...(given !== null ? { default: converted?.ok ? converted.value : given } : {}),
      ...(Array.isArray(v['enum']) ? { enum: v['enum'] } : {}),
      persist: asBool(v['persist'], false),
      at: ['variables', name],
    };
  }

  const tools = normalizeTools(d['tools'], ['tools']);
  const states = dict<StateDef>();
  for (const [id, raw] of stateEntries) states[id] = normalizeState(id, asObj(raw), flowNotify);

  return {
    vfdl: 1,
    id: asStr(d['id']) ?? 'flow',
    title: asStr(d['title']) ?? asStr(d['id']) ?? 'flow',
    ...(asStr(d['description']) !== undefined ? { description: asStr(d['description'])! } : {}),
    ...(asStr(d['version']) !== undefined ? { version: asStr(d['version'])! } : {}),
    language: asStr(d['language']) ?? 'en-US',
    mode: d['mode'] === 'assistant' ? 'assistant' : 'kiosk',
    basePrompt: asStr(d['base_prompt']) ?? asStr(settings['base_system_prompt']) ?? '',
    initial: asStr(d['initial']) ?? asStr(d['initial_state']) ?? stateOrder[0] ?? '',
    variables,
    tools,
    states,
    turnTaking: normalizeTurnTaking(d['turn_taking']),
    stateOrder,
    settings: {
      ...(asNum(settings['max_duration_secs']) !== undefined ? { maxDurationSecs: asNum(settings['max_duration_secs'])! } : {}),
      ...(asStr(settings['on_timeout']) !== undefined ? { onTimeout: asStr(settings['on_timeout'])! } : {}),
      ...(asStr(settings['on_error']) !== undefined ? { onError: asStr(settings['on_error'])! } : {}),
      llmRequired: asBool(settings['llm_required'], false),
      allowBack: asBool(settings['allow_back'], false),
      ...flowNotify,
    },
  };
}

function normalizeTurnTaking(raw: unknown): TurnTakingDef {
  const t = asObj(raw);
  const expect = asStr(t['expect']);
  return {
    ...(asNum(t['end_silence_ms']) !== undefined ? { endSilenceMs: asNum(t['end_silence_ms'])! } : {}),
    ...(asNum(t['dictation_silence_ms']) !== undefined ? { dictationSilenceMs: asNum(t['dictation_silence_ms'])! } : {}),
    ...(asNum(t['min_speech_ms']) !== undefined ? { minSpeechMs: asNum(t['min_speech_ms'])! } : {}),
    ...(typeof t['barge_in'] === 'boolean' ? { bargeIn: t['barge_in'] } : {}),
    ...(asNum(t['barge_in_ms']) !== undefined ? { bargeInMs: asNum(t['barge_in_ms'])! } : {}),
    ...(expect === 'auto' || expect === 'free' || expect === 'dictation' ? { expect } : {}),
  };
}

function normalizeTools(raw: unknown, at: SourcePath): Record<string, ToolDef> {
  return dict(Object.entries(asObj(raw)).map(([name, t]) => [name, normalizeTool(name, asObj(t), [...at, name])]));
}

function normalizeTool(name: string, t: Obj, at: SourcePath): ToolDef {
  const parameters: ParamDef[] = Object.entries(asObj(t['parameters'])).map(([pname, raw]) => {
    const p = asObj(raw);
    return {
      name: pname,
      type: (asStr(p['type']) as ValueType | undefined) ?? (Array.isArray(p['enum']) ? 'enum' : 'string'),
      required: asBool(p['required'], false),
      ...(asStr(p['description']) !== undefined ? { description: asStr(p['description'])! } : {}),
      ...(Array.isArray(p['enum']) ? { enum: p['enum'] } : {}),
      ...(asStr(p['pattern']) !== undefined ? { pattern: asStr(p['pattern'])! } : {}),
      ...(asNum(p['min']) !== undefined ? { min: asNum(p['min'])! } : {}),
      ...(asNum(p['max']) !== undefined ? { max: asNum(p['max'])! } : {}),
      at: [...at, 'parameters', pname],
    };
  });
  const capture = dict(parameters.map((p) => [p.name, p.name]));
  for (const [pname, v] of Object.entries(asObj(t['capture']))) if (typeof v === 'string') capture[pname] = v;
  const autoExtract = dict(Object.entries(asObj(t['auto_extract'])).map(([pname, v]) => [pname, strList(asObj(v)['patterns'])]));
  const http = isObj(t['http']) ? t['http'] : undefined;
  return {
    name,
    description: asStr(t['description']) ?? '',
    parameters,
    capture,
    confirm: asBool(t['confirm'], false),
    ...(asStr(t['summary']) !== undefined ? { summary: asStr(t['summary'])! } : {}),
    ...(asNum(t['expires_after']) !== undefined ? { expiresAfter: asNum(t['expires_after'])! } : {}),
    ...(http
      ? {
          http: {
            method: asStr(http['method']) ?? 'POST',
            url: asStr(http['url']) ?? '',
            ...('body' in http ? { body: http['body'] } : {}),
            ...(isObj(http['headers']) ? { headers: http['headers'] as Record<string, string> } : {}),
            capture: dict(Object.entries(asObj(http['capture'])).filter((e): e is [string, string] => typeof e[1] === 'string')),
            ...(asNum(http['timeout_seconds']) !== undefined ? { timeoutSeconds: asNum(http['timeout_seconds'])! } : {}),
          },
        }
      : {}),
    ...(asStr(t['speech_cue']) !== undefined ? { speechCue: asStr(t['speech_cue'])! } : {}),
    autoExtract,
    at,
  };
}

function normalizeCondition(raw: unknown, at: SourcePath): Condition | Guard {
  const c = asObj(raw);
  if ('all' in c || 'any' in c) return normalizeGuard(c, at)!;
  return {
    variable: asStr(c['variable']) ?? '',
    operator: (asStr(c['operator']) ?? 'eq') as Condition['operator'],
    ...('value' in c ? { value: c['value'] } : {}),
    at,
  };
}

function normalizeGuard(raw: unknown, at: SourcePath): Guard | undefined {
  const g = asObj(raw);
  if (Array.isArray(g['all'])) return { all: g['all'].map((c, i) => normalizeCondition(c, [...at, 'all', i])) };
  if (Array.isArray(g['any'])) return { any: g['any'].map((c, i) => normalizeCondition(c, [...at, 'any', i])) };
  return undefined;
}

/** A target spec (string | branch | list) as a list of branches. */
export function normalizeBranches(raw: unknown, at: SourcePath): Branch[] {
  if (typeof raw === 'string') return [{ target: raw, set: {}, at }];
  if (Array.isArray(raw)) return raw.flatMap((b, i) => normalizeBranches(b, [...at, i]));
  if (isObj(raw) && typeof raw['target'] === 'string') {
    const guard = normalizeGuard(raw['guard'], [...at, 'guard']);
    return [{ target: raw['target'], set: asObj(raw['set']), ...(guard ? { guard } : {}), at: [...at, 'target'] }];
  }
  return [];
}

function normalizeHooks(raw: unknown, at: SourcePath): HookAction[] {
  return asArr(raw).flatMap((h, i): HookAction[] => {
    const o = asObj(h);
    const here = [...at, i];
    if (isObj(o['set'])) return [{ kind: 'set', values: o['set'], at: [...here, 'set'] }];
    if (o['clear'] !== undefined) return [{ kind: 'clear', variables: strList(o['clear']), at: [...here, 'clear'] }];
    if (typeof o['emit'] === 'string') {
      return [{ kind: 'emit', event: o['emit'], ...(isObj(o['data']) ? { data: o['data'] } : {}), at: [...here, 'emit'] }];
    }
    return [];
  });
}

/** The id an option entry stands for (a plain value, or `id`, `value` or `label`), if it has one. */
export function optionId(o: unknown): string | undefined {
  if (typeof o === 'string') return o;
  if (typeof o === 'number' || typeof o === 'boolean') return String(o);
  const x = asObj(o);
  return asStr(x['id']) ?? asStr(x['value']) ?? asStr(x['label']);
}

function normalizeOptions(raw: unknown): ChoiceOption[] {
  return asArr(raw).flatMap((o): ChoiceOption[] => {
    const id = optionId(o);
    if (id === undefined) return [];
    if (!isObj(o)) return [{ id, label: id }];
    const x = o;
    return [
      {
        id,
        label: asStr(x['label']) ?? id,
        ...(asStr(x['description']) !== undefined ? { description: asStr(x['description'])! } : {}),
      },
    ];
  });
}

function normalizeArtifact(raw: unknown, at: SourcePath): Artifact | undefined {
  if (!isObj(raw)) return undefined;
  const declared = asStr(raw['artifact_type']) ?? 'card';
  const type = (RENDERED_ARTIFACTS as readonly string[]).includes(declared) ? (declared as Artifact['type']) : 'other';
  const fields: Field[] = asArr(raw['fields']).flatMap((f, i): Field[] => {
    const o = asObj(f);
    const id = asStr(o['id']);
    if (!id) return [];
    const options = normalizeOptions(o['options']);
    return [
      {
        id,
        type: (asStr(o['type']) as FieldType | undefined) ?? 'text',
        label: asStr(o['label']) ?? id,
        required: asBool(o['required'], false),
        ...(asStr(o['placeholder']) !== undefined ? { placeholder: asStr(o['placeholder'])! } : {}),
        ...(options.length ? { options } : {}),
        at: [...at, 'fields', i],
      },
    ];
  });
  // Prepatu's `prompt` is the heading of a form or options screen and the body of a card.
  let title = asStr(raw['title']);
  let text = asStr(raw['text']) ?? asStr(raw['content']);
  const prompt = asStr(raw['prompt']);
  if (prompt !== undefined) {
    if (type === 'card' && text === undefined) text = prompt;
    else if (title === undefined) title = prompt;
    else if (text === undefined) text = prompt;
  }
  return {
    type,
    declaredType: declared,
    ...(title !== undefined ? { title } : {}),
    ...(text !== undefined ? { text } : {}),
    fields,
    submitLabel: asStr(raw['submit_label']) ?? 'Continue',
    options: normalizeOptions(raw['options']),
    ...(asStr(raw['variable']) !== undefined ? { variable: asStr(raw['variable'])! } : {}),
    actions: asArr(raw['actions']).flatMap((a) => {
      const o = asObj(a);
      const tool = asStr(o['tool']);
      const event = asStr(o['event']);
      return event ? [{ event, label: asStr(o['label']) ?? event, ...(tool !== undefined ? { tool } : {}) }] : [];
    }),
    ...(isObj(raw['params']) ? { params: raw['params'] } : {}),
  };
}

function normalizeState(
  id: string,
  s: Obj,
  flowNotify: { notifyLlm: boolean; notifyClient: boolean },
): StateDef {
  const at: SourcePath = ['states', id];
  const a = asObj(s['agent']);
  const rc = asObj(a['response_constraint']);
  const agent: AgentDef = {
    prompt: asStr(a['prompt']) ?? '',
    tools: strList(a['tools']),
    context: a['context'] === 'reset' ? 'reset' : 'append',
    ...(isObj(a['response_constraint'])
      ? {
          responseConstraint: {
            ...(asNum(rc['max_tokens']) !== undefined ? { maxTokens: asNum(rc['max_tokens'])! } : {}),
            ...(asNum(rc['temperature']) !== undefined ? { temperature: asNum(rc['temperature'])! } : {}),
            ...(Array.isArray(rc['stop_phrases']) ? { stopPhrases: strList(rc['stop_phrases']) } : {}),
          },
        }
      : {}),
  };

  const tr = asObj(s['transitions']);
  const trAt = [...at, 'transitions'];
  const branchesBy = (key: string) =>
    dict(Object.entries(asObj(tr[key])).map(([name, t]) => [name, normalizeBranches(t, [...trAt, key, name])]));
  const onUiEvent = branchesBy('on_ui_event');
  const onToolCall = branchesBy('on_tool_call');
  const onAction = dict<ActionOutcomes>();
  for (const key of ['done', 'failed'] as const) {
    for (const [tool, bs] of Object.entries(branchesBy(`on_action_${key}`))) onAction[tool] = { ...onAction[tool], [key]: bs };
  }
  const onUtterance: UtteranceRule[] = asArr(tr['on_utterance']).map((raw, i) => {
    const u = asObj(raw);
    const pattern = asStr(u['pattern']) ?? '';
    const ruleAt = [...trAt, 'on_utterance', i];
    return {
      pattern,
      captureTo: strList(u['capture_to']),
      namedGroups: [...pattern.matchAll(/\(\?<([A-Za-z_$][\w$]*)>/g)].map((m) => m[1]!),
      branches: u['target'] === undefined ? [] : normalizeBranches(u['target'], [...ruleAt, 'target']),
      requiresConfirmation: asBool(u['requires_confirmation'], false),
      at: ruleAt,
    };
  });
  const to = asObj(tr['on_timeout']);
  const transitions: Transitions = {
    onUiEvent,
    onToolCall,
    onAction,
    onUtterance,
    ...(isObj(tr['on_timeout']) && typeof to['seconds'] === 'number' && typeof to['target'] === 'string'
      ? {
          onTimeout: {
            seconds: to['seconds'],
            target: to['target'],
            ...(asNum(to['max_retries']) !== undefined ? { maxRetries: asNum(to['max_retries'])! } : {}),
            ...(asStr(to['fallback']) !== undefined ? { fallback: asStr(to['fallback'])! } : {}),
            at: [...trAt, 'on_timeout'],
          },
        }
      : {}),
  };

  const stateBlocked = asObj(tr['on_transition_blocked']);
  const blockedNotice = {
    notifyLlm: asBool(stateBlocked['notify_llm'], flowNotify.notifyLlm),
    notifyClient: asBool(stateBlocked['notify_client'], flowNotify.notifyClient),
  };
  let gate = normalizeGate(s['confirmation_gate'], [...at, 'confirmation_gate'], stateBlocked, flowNotify);
  gate = withUtteranceConfirmations(id, gate, onUtterance, flowNotify);

  const hasExit =
    Object.keys(onUiEvent).length > 0 ||
    Object.keys(onToolCall).length > 0 ||
    Object.values(onAction).some((o) => o.done !== undefined || o.failed !== undefined) ||
    onUtterance.length > 0 ||
    transitions.onTimeout !== undefined;
  const ui = normalizeArtifact(s['ui'], [...at, 'ui']);
  return {
    id,
    onEnter: normalizeHooks(s['on_enter'], [...at, 'on_enter']),
    onExit: normalizeHooks(s['on_exit'], [...at, 'on_exit']),
    ...(ui ? { ui } : {}),
    agent,
    tools: normalizeTools(s['tools'], [...at, 'tools']),
    ...(gate ? { gate } : {}),
    turnTaking: normalizeTurnTaking(s['turn_taking']),
    transitions,
    terminal: !hasExit && !gate,
    blockedNotice,
    at,
  };
}

function normalizeGate(
  raw: unknown,
  at: SourcePath,
  stateBlocked: Obj,
  flowNotify: { notifyLlm: boolean; notifyClient: boolean },
): Gate | undefined {
  if (!isObj(raw)) return undefined;
  const rej = asObj(raw['on_reject']);
  const blocked = { ...stateBlocked, ...asObj(raw['on_transition_blocked']) };
  return {
    variables: strList(raw['variables']),
    onConfirm: normalizeBranches(raw['on_confirm'], [...at, 'on_confirm']),
    onReject: {
      action: rej['action'] === 'keep' ? 'keep' : 'clear',
      ...(asStr(rej['target']) !== undefined ? { target: asStr(rej['target'])! } : {}),
    },
    ...(asNum(raw['expires_after']) !== undefined ? { expiresAfter: asNum(raw['expires_after'])! } : {}),
    ...(asStr(raw['prompt']) !== undefined ? { prompt: asStr(raw['prompt'])! } : {}),
    confirmPhrases: strList(raw['confirm_phrases']),
    rejectPhrases: strList(raw['reject_phrases']),
    notifyLlm: asBool(blocked['notify_llm'], flowNotify.notifyLlm),
    notifyClient: asBool(blocked['notify_client'], flowNotify.notifyClient),
    implicit: false,
    at,
  };
}

/**
 * `requires_confirmation: true` on an utterance rule puts its captures behind a gate: with no
 * declared gate, the rule's target becomes the gate's on_confirm.
 */
function withUtteranceConfirmations(
  stateId: string,
  gate: Gate | undefined,
  rules: readonly UtteranceRule[],
  flowNotify: { notifyLlm: boolean; notifyClient: boolean },
): Gate | undefined {
  const confirming = rules.filter((r) => r.requiresConfirmation);
  if (confirming.length === 0) return gate;
  const vars = new Set(gate?.variables ?? []);
  for (const r of confirming) for (const v of [...r.captureTo, ...r.namedGroups]) vars.add(v);
  if (gate) return { ...gate, variables: [...vars] };
  const first = confirming.find((r) => r.branches.length > 0);
  return {
    variables: [...vars],
    onConfirm: first?.branches ?? [{ target: stateId, set: {}, at: confirming[0]!.at }],
    onReject: { action: 'clear' },
    confirmPhrases: [],
    rejectPhrases: [],
    notifyLlm: flowNotify.notifyLlm,
    notifyClient: flowNotify.notifyClient,
    implicit: true,
    at: confirming[0]!.at,
  };
}
