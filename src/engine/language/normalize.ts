// Turns a structurally checked document into the Flow model: defaults filled in, Prepatu's
// spellings folded into ours, targets turned into branch lists. It trusts the structure check
// and stays defensive where that check already reported a problem. This file reads the flow and
// its states; a state's transitions, gate, screen and tools are read in normalize-*.ts.

import type { AgentDef, Flow, HookAction, SourcePath, StateDef, Transitions, VariableDecl } from './flow.ts';
import { normalizeGlobal } from './global.ts';
import { normalizeGate, withUtteranceConfirmations, type BlockedNotice } from './normalize-gate.ts';
import { normalizeArtifact } from './normalize-screen.ts';
import { normalizeTools } from './normalize-tools.ts';
import { normalizeBranches, normalizeTransitions } from './normalize-transitions.ts';
import { asArr, asBool, asNum, asObj, asStr, isObj, oneOf, strList, type Obj } from './raw-values.ts';
import { dict } from './records.ts';
import { VALUE_TYPES } from './syntax.ts';
import { isTodayText } from './dates.ts';
import { normalizeTurnTaking } from './turn-taking.ts';
import { convertValue } from './values.ts';

/** The flow of a document whose texts are already in `language` (localize.ts); by default its own `language`. */
export function normalizeFlow(data: unknown, language?: string): Flow {
  const d = asObj(data);
  const defaultLanguage = asStr(d['language']) ?? 'en-US';
  const languages = Array.isArray(d['languages']) ? strList(d['languages']) : [defaultLanguage];
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
    // A default of today (or a day counted from it) makes a date, as `today` does wherever a date is compared.
    const type = oneOf(v['type'], VALUE_TYPES) ?? (Array.isArray(v['enum']) ? 'enum' : isTodayText(v['default']) ? 'date' : 'string');
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
      ...(asStr(v['label']) !== undefined ? { label: asStr(v['label'])! } : {}),
      showAtEnd: asBool(v['show_at_end'], false),
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
    language: language ?? defaultLanguage,
    defaultLanguage,
    languages,
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
    ...(isObj(d['global']) ? { global: normalizeGlobal(d['global'])! } : {}),
  };
}

function normalizeHooks(raw: unknown, at: SourcePath): HookAction[] {
  return asArr(raw).flatMap((h, i): HookAction[] => {
    const o = asObj(h);
    const here = [...at, i];
    if (isObj(o['set'])) return [{ kind: 'set', values: o['set'], at: [...here, 'set'] }];
    if (o['clear'] !== undefined) return [{ kind: 'clear', variables: strList(o['clear']), at: [...here, 'clear'] }];
    if (typeof o['call'] === 'string') return [{ kind: 'call', tool: o['call'], at: [...here, 'call'] }];
    if (typeof o['emit'] === 'string') {
      return [{ kind: 'emit', event: o['emit'], ...(isObj(o['data']) ? { data: o['data'] } : {}), at: [...here, 'emit'] }];
    }
    return [];
  });
}

function normalizeState(id: string, s: Obj, flowNotify: BlockedNotice): StateDef {
  const at: SourcePath = ['states', id];
  const tr = asObj(s['transitions']);
  const transitions = normalizeTransitions(tr, [...at, 'transitions'], id);
  const stateBlocked = asObj(tr['on_transition_blocked']);
  const blockedNotice = {
    notifyLlm: asBool(stateBlocked['notify_llm'], flowNotify.notifyLlm),
    notifyClient: asBool(stateBlocked['notify_client'], flowNotify.notifyClient),
  };
  let gate = normalizeGate(s['confirmation_gate'], [...at, 'confirmation_gate'], stateBlocked, flowNotify, id);
  const decide = s['decide'] === undefined || s['decide'] === null ? undefined : normalizeBranches(s['decide'], [...at, 'decide'], id);
  gate = withUtteranceConfirmations(id, gate, transitions.onUtterance, flowNotify);
  const ui = normalizeArtifact(s['ui'], [...at, 'ui']);
  return {
    id,
    onEnter: normalizeHooks(s['on_enter'], [...at, 'on_enter']),
    onExit: normalizeHooks(s['on_exit'], [...at, 'on_exit']),
    ...(ui ? { ui } : {}),
    agent: normalizeAgent(asObj(s['agent'])),
    tools: normalizeTools(s['tools'], [...at, 'tools']),
    ...(gate ? { gate } : {}),
    turnTaking: normalizeTurnTaking(s['turn_taking']),
    transitions,
    ...(decide ? { decide } : {}),
    terminal: !hasExit(transitions) && !gate && !decide,
    blockedNotice,
    at,
  };
}

/** A state's `agent`: its prompt, tools, context and response constraint. */
function normalizeAgent(a: Obj): AgentDef {
  const rc = asObj(a['response_constraint']);
  return {
    prompt: asStr(a['prompt']) ?? '',
    ...(asStr(a['say']) ? { say: asStr(a['say'])! } : {}),
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
}

/** Whether a state has any way out: a mapped event, tool call, action outcome, utterance rule or time-out. */
function hasExit(transitions: Transitions): boolean {
  const { onUiEvent, onToolCall, onAction, onUtterance } = transitions;
  return (
    Object.keys(onUiEvent).length > 0 ||
    Object.keys(onToolCall).length > 0 ||
    Object.values(onAction ?? {}).some((o) => o.done !== undefined || o.failed !== undefined) ||
    onUtterance.length > 0 ||
    transitions.onTimeout !== undefined ||
    transitions.onNoMatch !== undefined
  );
}
