// A state's transitions in the Flow model: every way out (UI events, tool calls, action outcomes,
// utterance rules, the time-out) as lists of branches, each with its guard and the values it sets.

import { SELF, type ActionOutcomes, type Branch, type Condition, type Guard, type NoMatchRule, type SourcePath, type Transitions, type UtteranceRule } from './flow.ts';
import { asArr, asBool, asNum, asObj, asStr, isObj, oneOf, strList, type Obj } from './raw-values.ts';
import { dict } from './records.ts';
import { OPERATORS } from './syntax.ts';

/** A target as written, with `self` read as the state it is written in (`here`), where there is one. */
export function targetHere(target: string, here: string | undefined): string {
  return target === SELF && here !== undefined ? here : target;
}

/** A state's `transitions` mapping; `trAt` is where it is, `here` the state's id (what `self` names). */
export function normalizeTransitions(tr: Obj, trAt: SourcePath, here?: string): Transitions {
  const branchesBy = (key: string) =>
    dict(Object.entries(asObj(tr[key])).map(([name, t]) => [name, normalizeBranches(t, [...trAt, key, name], here)]));
  const onAction = dict<ActionOutcomes>();
  for (const key of ['done', 'failed'] as const) {
    for (const [tool, bs] of Object.entries(branchesBy(`on_action_${key}`))) onAction[tool] = { ...onAction[tool], [key]: bs };
  }
  const to = asObj(tr['on_timeout']);
  return {
    onUiEvent: branchesBy('on_ui_event'),
    onToolCall: branchesBy('on_tool_call'),
    onAction,
    onUtterance: normalizeUtteranceRules(tr['on_utterance'], [...trAt, 'on_utterance'], here),
    ...(isObj(tr['on_timeout']) && typeof to['seconds'] === 'number' && typeof to['target'] === 'string'
      ? {
          onTimeout: {
            seconds: to['seconds'],
            target: targetHere(to['target'], here),
            ...(asNum(to['max_retries']) !== undefined ? { maxRetries: asNum(to['max_retries'])! } : {}),
            ...(asStr(to['fallback']) !== undefined ? { fallback: targetHere(asStr(to['fallback'])!, here) } : {}),
            at: [...trAt, 'on_timeout'],
          },
        }
      : {}),
    ...noMatchOf(tr['on_no_match'], [...trAt, 'on_no_match'], here),
  };
}

/** `on_no_match`, as `{ onNoMatch }` when it is given whole, else nothing. */
export function noMatchOf(raw: unknown, at: SourcePath, here?: string): { onNoMatch?: NoMatchRule } {
  const o = asObj(raw);
  const maxRetries = asNum(o['max_retries']);
  const fallback = asStr(o['fallback']);
  return maxRetries !== undefined && fallback !== undefined ? { onNoMatch: { maxRetries, fallback: targetHere(fallback, here), at } } : {};
}

/** `on_utterance`: each rule's pattern, where its captures go, and its target's branches. */
export function normalizeUtteranceRules(raw: unknown, at: SourcePath, here?: string): UtteranceRule[] {
  return asArr(raw).map((rule, i) => {
    const u = asObj(rule);
    const pattern = asStr(u['pattern']) ?? '';
    const ruleAt = [...at, i];
    return {
      pattern,
      captureTo: strList(u['capture_to']),
      namedGroups: [...pattern.matchAll(/\(\?<([A-Za-z_$][\w$]*)>/g)].map((m) => m[1]!),
      branches: u['target'] === undefined ? [] : normalizeBranches(u['target'], [...ruleAt, 'target'], here),
      requiresConfirmation: asBool(u['requires_confirmation'], false),
      at: ruleAt,
    };
  });
}

function normalizeCondition(raw: unknown, at: SourcePath): Condition | Guard {
  const c = asObj(raw);
  if ('all' in c || 'any' in c) return normalizeGuard(c, at)!;
  const age = asStr(c['age_of']);
  return {
    variable: age ?? asStr(c['variable']) ?? '',
    age: age !== undefined,
    operator: oneOf(c['operator'], OPERATORS) ?? 'eq',
    ...('value' in c ? { value: c['value'] } : {}),
    at,
  };
}

function normalizeGuard(raw: unknown, at: SourcePath): Guard | undefined {
  const g = asObj(raw);
  // A bare condition where a group belongs is reported as such; read as the group it meant, so it
  // is not taken for a branch without a guard.
  if (!('all' in g) && !('any' in g) && ('variable' in g || 'age_of' in g || 'operator' in g)) return { all: [normalizeCondition(g, at)] };
  if (Array.isArray(g['all'])) return { all: g['all'].map((c, i) => normalizeCondition(c, [...at, 'all', i])) };
  if (Array.isArray(g['any'])) return { any: g['any'].map((c, i) => normalizeCondition(c, [...at, 'any', i])) };
  return undefined;
}

/** A target spec (string | branch | list) as a list of branches; `self` names `here`, where given. */
export function normalizeBranches(raw: unknown, at: SourcePath, here?: string): Branch[] {
  if (typeof raw === 'string') return [{ target: targetHere(raw, here), set: {}, at }];
  if (Array.isArray(raw)) return raw.flatMap((b, i) => normalizeBranches(b, [...at, i], here));
  if (isObj(raw) && typeof raw['target'] === 'string') {
    const guard = normalizeGuard(raw['guard'], [...at, 'guard']);
    const status = (Array.isArray(raw['status']) ? raw['status'] : [raw['status']]).filter((s): s is number => typeof s === 'number');
    return [{ target: targetHere(raw['target'], here), set: asObj(raw['set']), ...(guard ? { guard } : {}), ...(status.length ? { status } : {}), at: [...at, 'target'] }];
  }
  return [];
}
