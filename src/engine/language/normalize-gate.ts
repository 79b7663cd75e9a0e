// A state's confirmation gate in the Flow model: the declared `confirmation_gate`, and the gate that
// `requires_confirmation` utterance rules put their captures behind.

import type { Gate, SourcePath, StateDef, UtteranceRule } from './flow.ts';
import { asBool, asNum, asObj, asStr, isObj, strList, type Obj } from './raw-values.ts';
import { normalizeBranches, targetHere } from './normalize-transitions.ts';

/** Who hears about a blocked transition (the flow's `on_transition_blocked`, or a state's over it). */
export type BlockedNotice = StateDef['blockedNotice'];

/** A state's `confirmation_gate`, or undefined where it has none; its own on_transition_blocked wins over the state's. */
export function normalizeGate(
  raw: unknown,
  at: SourcePath,
  stateBlocked: Obj,
  flowNotify: BlockedNotice,
  here?: string,
): Gate | undefined {
  if (!isObj(raw)) return undefined;
  const rej = asObj(raw['on_reject']);
  const blocked = { ...stateBlocked, ...asObj(raw['on_transition_blocked']) };
  return {
    variables: strList(raw['variables']),
    onConfirm: normalizeBranches(raw['on_confirm'], [...at, 'on_confirm'], here),
    onReject: {
      action: rej['action'] === 'keep' ? 'keep' : 'clear',
      ...(asStr(rej['target']) !== undefined ? { target: targetHere(asStr(rej['target'])!, here) } : {}),
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
export function withUtteranceConfirmations(
  stateId: string,
  gate: Gate | undefined,
  rules: readonly UtteranceRule[],
  flowNotify: BlockedNotice,
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
