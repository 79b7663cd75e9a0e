// The offline agent: a LanguageModel that needs no network. It reads the screen (fields, gate,
// values) instead of the prompt, fills tool arguments from what the visitor said, maps yes and no
// to the confirm and reject tools, and says the next question, in the visit's language (the
// scene's flow_state names it; languages/ has the words). The flow's global ways out it calls only
// when the visitor asks for one (ways-out.ts). The kiosk's default without an LLM, and
// its fallback when the LLM fails. Deterministic.

import type { ChatMessage, LanguageModel, TurnChunk, TurnRequest } from '../../ports/language-model.ts';
import { SET_LANGUAGE } from '../../engine/language/flow.ts';
import { systemClock, type Clock } from '../../ports/clock.ts';
import { readConversation, type Conversation, type ToolOutcome } from './conversation.ts';
import { readCorrection } from './corrections.ts';
import { dayOf } from '../../engine/language/dates.ts';
import { planFill, type FillPlan, type PlannedCall } from './fill.ts';
import { actionQuestion, changeHint, farewell, fieldQuestionFor, gateQuestion, heardLine, introduction, join, nextQuestion, paramQuestion, refusalLine } from './replies.ts';
import { flowTools, parameterCount, readParams, readScreen, type Screen } from './screen.ts';
import { isBlank } from '../../engine/language/values.ts';
import type { Sayings } from './languages/language.ts';
import { asksOpenQuestion, keptMark, keptWords } from './kept.ts';
import { mend } from './mend.ts';
import { call, speak, type TurnPlan } from './plan.ts';
import { replyTurn } from './reply.ts';
import { readAnswer } from './yes-no.ts';

export type { TurnPlan } from './plan.ts';

/**
 * Decides one turn. Pure: the same request on the same day always gives the same plan. `today`
 * (YYYY-MM-DD) is the kiosk's date, which a date of birth may not come after; without it, no
 * date is refused for being in the future.
 */
export function planTurn(request: TurnRequest, today = '9999-12-31'): TurnPlan {
  const screen = readScreen(request, today);
  const convo = readConversation(request.messages, request.scene?.state.agent.system_prompt, request.scene?.stepStart);
  switch (convo.kind) {
    case 'entry':
      return entryTurn(screen, convo, request.messages);
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

/**
 * What to do with words the visitor said just before this step began that the step they left did
 * not use: after "no, it's Marta" rejected a name, take Marta; after "Tom" took them to a step
 * asking which host, take Tom Becker. Other than after a rejection, only a choice named is carried
 * over, and never a yes or a no (it answered the step before).
 */
function carriedOver(screen: Screen, convo: Conversation, afterRejection: readonly string[] | false): FillPlan | undefined {
  if (convo.carried === undefined) return undefined;
  const carried = mend(convo.carried, screen.lang);
  const { answer, rest } = readAnswer(carried, screen.lang.code);
  if (afterRejection) return planFill(screen, rest, { bareFor: afterRejection });
  if (answer !== null) return undefined;
  return planFill(screen, carried, { bare: false, needs: 'choice' });
}

/** Back in a step after a rejection: take a value said with the no, else ask for the rejected one. */
function afterRejection(screen: Screen, convo: Conversation, rejected: readonly string[]): TurnPlan {
  const carried = carriedOver(screen, convo, rejected);
  if (carried && carried.calls.length > 0) return call(...carried.calls);
  const refused = carried?.refusals[0];
  const again = refused?.param.name ?? rejected.find((v) => isBlank(screen.values[v]));
  const ask = (again === undefined ? undefined : fieldQuestionFor(screen, again)) ?? nextQuestion(screen) ?? introduction(screen);
  return speak(refused ? refusalLine(screen, refused) : screen.lang.say.sorry, ask);
}

/** Words kept from earlier that this step takes (the first that gives a tool a value still empty), said back. */
function takeKept(screen: Screen, messages: readonly ChatMessage[]): TurnPlan | undefined {
  for (const kept of keptWords(messages)) {
    const fill = planFill(screen, kept.text, { bare: 'text', onlyBlank: true });
    if (fill.calls.length > 0) return { say: heardLine(screen, fill.heard), calls: fill.calls.map((c) => ({ ...c, kept: kept.index })) };
  }
  return undefined;
}

/**
 * Back at an earlier step by the go_back the agent called at the visitor's words ("no wait, I meant
 * Priya"): the words read again here, as if said at this step, when they do something here.
 */
function takenBack(screen: Screen, convo: Conversation): TurnPlan | undefined {
  if (!convo.tapped || convo.carried === undefined) return undefined;
  const words = readCorrection(mend(convo.carried, screen.lang), screen.lang).rest;
  const again = replyTurn(screen, { ...convo, kind: 'reply', utterance: words, earlier: [], notes: [], outcomes: [] }, { mayGoBack: false });
  // "Change my details" names nothing to change: the step's question (its values read back) says what is there.
  const wholeStep = again.calls.some((c) => c.tool === `reject_${screen.state}`);
  return again.calls.length > 0 && !wholeStep ? again : undefined;
}

function entryTurn(screen: Screen, convo: Conversation, messages: readonly ChatMessage[]): TurnPlan {
  const back = takenBack(screen, convo);
  if (back) return back;
  // A rejection re-enters the step; the engine's retry count still tells of earlier timeouts.
  const rejections = convo.outcomes.map((o) => o.content['rejected']).filter(Array.isArray);
  if (rejections.length > 0) return afterRejection(screen, convo, rejections.flat().map(String));
  const question = nextQuestion(screen);
  if (screen.retry > 0) {
    const usable = (screen.artifact?.fields.length ?? 0) > 0 || (screen.artifact?.options.length ?? 0) > 0;
    return speak(screen.lang.say.stillThere, question ?? introduction(screen), usable ? screen.lang.say.useScreen : undefined);
  }
  const waiting = screen.pending.length > 0 || screen.pendingAction !== undefined;
  // The visitor asked for this language: the step again, in it.
  if (convo.outcomes.some((o) => o.tool === SET_LANGUAGE && typeof o.content['language'] === 'string')) {
    return speak(screen.lang.say.nowSpeaking, waiting ? undefined : introduction(screen), question);
  }
  const carried = carriedOver(screen, convo, false)?.calls ?? [];
  if (carried.length > 0) return call(...carried);
  const kept = takeKept(screen, messages);
  if (kept) return kept;
  const next = moveOn(screen, convo);
  const earlier = keptWords(messages)[0];
  const mention = earlier && !waiting && asksOpenQuestion(screen) ? screen.lang.say.mentioned(earlier.text) : undefined;
  const say = join(waiting ? undefined : introduction(screen), mention, question);
  // The last step, with nothing on screen to read: its prompt's farewell, never silence.
  if (say === '' && screen.terminal) return speak(farewell(screen));
  return { say, calls: next ? [next] : [] };
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
const ACKNOWLEDGEMENTS: readonly [(content: Record<string, unknown>) => boolean, (say: Sayings) => string][] = [
  [(c) => Array.isArray(c['rejected']), (say) => say.sorry],
  [(c) => c['status'] === 'cancelled', (say) => say.wontDo],
  // Confirmed, and still running (a check-in sent to the clinic): the step moves on when it is done.
  [(c) => c['status'] === 'confirmed', (say) => say.oneMoment],
  [(c) => Array.isArray(c['confirmed']), (say) => say.thankYou],
  [(c) => typeof c['error'] === 'string', (say) => say.couldNot],
];

function resultsTurn(screen: Screen, outcomes: readonly ToolOutcome[]): TurnPlan {
  const say = screen.lang.say;
  const has = (test: (c: Record<string, unknown>) => boolean) => outcomes.some((o) => test(o.content));
  const invalid = outcomes.find((o) => o.content['error'] === 'invalid_arguments');
  if (invalid) return speak(say.looksWrong, questionForRejected(screen, invalid) ?? nextQuestion(screen));
  if (has((c) => c['error'] === 'no_user_turn')) return speak(gateQuestion(screen) ?? nextQuestion(screen));
  const proposed = outcomes.find((o) => o.content['status'] === 'pending_confirmation');
  const summary = proposed?.content['summary'];
  if (typeof summary === 'string') return speak(actionQuestion(screen, summary));
  if (has((c) => c['status'] === 'running' || c['running'] === true)) return speak(say.oneMoment);
  const ack = ACKNOWLEDGEMENTS.find(([answered]) => has(answered))?.[1](say) ?? (screen.pending.length > 0 ? undefined : say.gotIt);
  // Nothing to ask while a confirmed action runs: the screen that comes next says how it went.
  if (has((c) => c['status'] === 'confirmed')) return speak(ack);
  // Declining an action on a card that has a button for changing things: say where it is.
  const hint = has((c) => c['status'] === 'cancelled') ? changeHint(screen) : undefined;
  return speak(ack, hint ?? nextQuestion(screen));
}

// ------------------------------------------------------------------ the port

/** Splits a caption into sentences (joined back, they are the caption), so a voice can start early. */
function sentences(text: string): string[] {
  if (text === '') return [];
  const parts = text.split(/(?<=[.!?…])\s+/u);
  return parts.map((p, i) => (i < parts.length - 1 ? `${p} ` : p));
}

/** The LanguageModel that runs without a network: see planTurn. The clock gives today's date. */
export class OfflineAgent implements LanguageModel {
  readonly name = 'offline';

  constructor(private readonly clock: Clock = systemClock) {}

  async *generate(request: TurnRequest): AsyncIterable<TurnChunk> {
    const plan = planTurn(request, dayOf(this.clock.now()));
    for (const delta of sentences(plan.say)) {
      if (request.signal?.aborted) return;
      yield { type: 'text', delta };
    }
    for (const [field, value] of Object.entries(plan.formValues ?? {})) {
      if (request.signal?.aborted) return;
      yield { type: 'form_value', field, value };
    }
    for (const [i, c] of plan.calls.entries()) {
      if (request.signal?.aborted) return;
      const id = `offline_${request.messages.length}_${i}${c.kept === undefined ? '' : keptMark(c.kept)}`;
      yield { type: 'tool_call', call: { id, name: c.tool, arguments: JSON.stringify(c.args) } };
    }
  }
}
