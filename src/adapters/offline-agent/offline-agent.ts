// The offline agent: a LanguageModel that needs no network. It reads the screen (fields, gate,
// values) instead of the prompt, fills tool arguments from what the visitor said, maps yes and no
// to the confirm and reject tools, and says the next question. The kiosk's default without an
// LLM, and its fallback when the LLM fails. Deterministic; English only.

import type { LanguageModel, TurnChunk, TurnRequest } from '../../ports/language-model.ts';
import { readConversation, type Conversation, type ToolOutcome } from './conversation.ts';
import { answeredPlainTool, namedPlainTool, planFill, type PlannedCall } from './fill.ts';
import { actionQuestion, gateQuestion, introduction, join, nextQuestion, paramQuestion } from './replies.ts';
import { flowTools, offers, parameterCount, readParams, readScreen, type Screen } from './screen.ts';
import { isBlank } from '../../engine/values.ts';
import { classifyYesNo } from './yes-no.ts';

/** What the agent does in one turn: words for the caption, then tool calls. */
export interface TurnPlan {
  say: string;
  calls: PlannedCall[];
}

const speak = (...parts: (string | undefined)[]): TurnPlan => ({ say: join(...parts), calls: [] });
const call = (...calls: PlannedCall[]): TurnPlan => ({ say: '', calls });

/** Decides one turn. Pure: the same request always gives the same plan. */
export function planTurn(request: TurnRequest): TurnPlan {
  const screen = readScreen(request);
  const convo = readConversation(request.messages, request.scene?.state.agent.system_prompt, request.scene?.stepStart);
  switch (convo.kind) {
    case 'entry':
      return entryTurn(screen, convo);
    case 'reply':
      return replyTurn(screen, convo);
    case 'results':
      return resultsTurn(screen, convo.outcomes);
  }
}

// ------------------------------------------------------------------ the state was entered

/**
 * A step that shows nothing and offers one tool without parameters, which its prompt names
 * ("greet, then call begin_setup"): the agent takes it, since the visitor has nothing to answer.
 * Never twice in a row, so a step that leads back to itself cannot loop.
 */
function moveOn(screen: Screen, convo: Conversation): PlannedCall | undefined {
  const a = screen.artifact;
  const showsNothing = a === null || (a.type === 'other' && a.fields.length === 0 && a.options.length === 0 && a.actions.length === 0);
  if (!showsNothing || screen.gated.length > 0 || screen.pendingAction !== undefined) return undefined;
  const tools = flowTools(screen);
  const only = tools[0];
  if (tools.length !== 1 || !only || parameterCount(only) > 0) return undefined;
  const name = only.function.name;
  if (!screen.prompt?.includes(name) || convo.outcomes.some((o) => o.tool === name)) return undefined;
  return { tool: name, args: {} };
}

function entryTurn(screen: Screen, convo: Conversation): TurnPlan {
  const question = nextQuestion(screen);
  // A rejection re-enters the step; the engine's retry count still tells of earlier timeouts.
  if (convo.outcomes.some((o) => Array.isArray(o.content['rejected']))) return speak('Sorry about that.', question ?? introduction(screen));
  if (screen.retry > 0) {
    const usable = (screen.artifact?.fields.length ?? 0) > 0 || (screen.artifact?.options.length ?? 0) > 0;
    return speak('Are you still there?', question ?? introduction(screen), usable ? 'You can also use the screen.' : undefined);
  }
  const waiting = screen.pending.length > 0 || screen.pendingAction !== undefined;
  const next = moveOn(screen, convo);
  return { say: join(waiting ? undefined : introduction(screen), question), calls: next ? [next] : [] };
}

// ------------------------------------------------------------------ the visitor spoke

function confirmCalls(screen: Screen): PlannedCall[] {
  const empty = screen.gated.filter((v) => !screen.pending.includes(v) && isBlank(screen.values[v]));
  const whole = `confirm_${screen.state}`;
  if (empty.length === 0 && offers(screen, whole)) return [{ tool: whole, args: {} }];
  return screen.pending.filter((v) => offers(screen, `confirm_${v}`)).map((v) => ({ tool: `confirm_${v}`, args: {} }));
}

function rejectCall(screen: Screen): PlannedCall | undefined {
  const only = screen.pending.length === 1 ? `reject_${screen.pending[0]}` : undefined;
  if (only && offers(screen, only)) return { tool: only, args: {} };
  const whole = `reject_${screen.state}`;
  if (offers(screen, whole)) return { tool: whole, args: {} };
  const v = screen.pending.find((p) => offers(screen, `reject_${p}`));
  return v === undefined ? undefined : { tool: `reject_${v}`, args: {} };
}

function replyTurn(screen: Screen, convo: Conversation): TurnPlan {
  const said = convo.utterance;
  const answer = classifyYesNo(said);
  if (screen.pendingAction !== undefined && answer !== null) {
    const decision = answer === 'yes' ? 'confirm_action' : 'reject_action';
    if (offers(screen, decision)) return call({ tool: decision, args: {} });
  }
  if (screen.pending.length > 0 && answer === 'yes') {
    const confirms = confirmCalls(screen);
    if (confirms.length > 0) return call(...confirms);
  }
  if (screen.pending.length > 0 && answer === 'no') {
    // "No, it's Alice": the reject re-enters the step, which asks again; the new value waits.
    const reject = rejectCall(screen);
    if (reject) return call(reject);
  }
  const named = namedPlainTool(screen, said);
  if (named) return call(named);
  const fill = planFill(screen, said, convo.earlier);
  if (fill && fill.calls.length > 0) return call(...fill.calls);
  const missing = fill?.missing[0];
  if (missing) return speak('Thanks.', paramQuestion(screen, missing));
  const plain = answer === null ? undefined : answeredPlainTool(screen, answer);
  if (plain) return call(plain);
  const waiting = screen.pending.length > 0 || screen.pendingAction !== undefined;
  return speak(waiting ? 'Sorry, was that a yes or a no?' : "Sorry, I didn't catch that.", nextQuestion(screen) ?? introduction(screen));
}

// ------------------------------------------------------------------ the tool calls came back

/** The question for the parameter an invalid_arguments rejection names ('"email": expected …'). */
function questionForRejected(screen: Screen, outcome: ToolOutcome): string | undefined {
  const detail = typeof outcome.content['detail'] === 'string' ? outcome.content['detail'] : '';
  const param = /^"([^"]+)"/.exec(detail)?.[1];
  const tool = screen.tools.find((t) => t.function.name === outcome.tool);
  const p = tool && param !== undefined ? readParams(screen, tool).find((x) => x.name === param) : undefined;
  return p && paramQuestion(screen, p);
}

/** What to say after tool results, by what they were: the first that applies. */
const ACKNOWLEDGEMENTS: readonly [(content: Record<string, unknown>) => boolean, string][] = [
  [(c) => Array.isArray(c['rejected']), 'Sorry about that.'],
  [(c) => c['status'] === 'cancelled', "All right, I won't do that."],
  [(c) => c['status'] === 'confirmed', 'Done.'],
  [(c) => Array.isArray(c['confirmed']), 'Thank you.'],
  [(c) => typeof c['error'] === 'string', "Sorry, I couldn't do that."],
];

function resultsTurn(screen: Screen, outcomes: readonly ToolOutcome[]): TurnPlan {
  const has = (test: (c: Record<string, unknown>) => boolean) => outcomes.some((o) => test(o.content));
  const invalid = outcomes.find((o) => o.content['error'] === 'invalid_arguments');
  if (invalid) return speak("Sorry, that doesn't look right.", questionForRejected(screen, invalid) ?? nextQuestion(screen));
  if (has((c) => c['error'] === 'no_user_turn')) return speak(gateQuestion(screen) ?? nextQuestion(screen));
  const proposed = outcomes.find((o) => o.content['status'] === 'pending_confirmation');
  const summary = proposed?.content['summary'];
  if (typeof summary === 'string') return speak(actionQuestion(summary));
  if (has((c) => c['status'] === 'running')) return speak('One moment, please.');
  const ack = ACKNOWLEDGEMENTS.find(([answered]) => has(answered))?.[1] ?? (screen.pending.length > 0 ? undefined : 'Got it.');
  return speak(ack, nextQuestion(screen));
}

// ------------------------------------------------------------------ the port

/** Splits a caption into sentences (joined back, they are the caption), so a voice can start early. */
function sentences(text: string): string[] {
  if (text === '') return [];
  const parts = text.split(/(?<=[.!?…])\s+/u);
  return parts.map((p, i) => (i < parts.length - 1 ? `${p} ` : p));
}

/** The LanguageModel that runs without a network: see planTurn. */
export class OfflineAgent implements LanguageModel {
  readonly name = 'offline';

  async *generate(request: TurnRequest): AsyncIterable<TurnChunk> {
    const plan = planTurn(request);
    for (const delta of sentences(plan.say)) {
      if (request.signal?.aborted) return;
      yield { type: 'text', delta };
    }
    for (const [i, c] of plan.calls.entries()) {
      if (request.signal?.aborted) return;
      yield { type: 'tool_call', call: { id: `offline_${request.messages.length}_${i}`, name: c.tool, arguments: JSON.stringify(c.args) } };
    }
  }
}
