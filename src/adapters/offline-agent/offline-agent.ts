// The offline agent: a LanguageModel that needs no network. It reads the screen (fields, gate,
// values) instead of the prompt, fills tool arguments from what the visitor said, maps yes and no
// to the confirm and reject tools, and says the next question, in the visit's language (the
// scene's flow_state names it; languages/ has the words). The flow's global ways out it calls only
// when the visitor asks for one (ways-out.ts). The kiosk's default without an LLM, and
// its fallback when the LLM fails. Deterministic.

import type { ChatMessage, LanguageModel, TurnChunk, TurnRequest } from '../../ports/language-model.ts';
import { SET_LANGUAGE } from '../../engine/language/flow.ts';
import { systemClock, type Clock } from '../../ports/clock.ts';
import { hearChoice } from './choices.ts';
import { readConversation, type Conversation, type ToolOutcome } from './conversation.ts';
import { dayOf } from '../../engine/language/dates.ts';
import { answeredPlainTool, namedPlainTool, planFill, type FillPlan, type PlannedCall } from './fill.ts';
import {
  actionQuestion,
  changeHint,
  farewell,
  goOnHint,
  fieldQuestionFor,
  gateQuestion,
  heardLine,
  introduction,
  join,
  nextQuestion,
  paramQuestion,
  refusalLine,
} from './replies.ts';
import { fieldFor, flowTools, offers, parameterCount, readParams, readScreen, type Screen } from './screen.ts';
import { isBlank } from '../../engine/language/values.ts';
import { displayValue } from '../../engine/language/interpolate.ts';
import type { Sayings } from './languages/language.ts';
import { humanize } from './text.ts';
import { asksOpenQuestion, keptMark, keptWords, worthKeeping } from './kept.ts';
import { answerLanguageRequest, askedLanguage } from './language-request.ts';
import { readAnswer, wantsChange, wantsStartOver } from './yes-no.ts';
import { askedWayOut } from './ways-out.ts';

/** What the agent does in one turn: words for the caption, then tool calls. */
export interface TurnPlan {
  say: string;
  calls: PlannedCall[];
  /** values heard for fields of the form that no tool can take yet, to put in the form */
  formValues?: Record<string, string>;
}

const speak = (...parts: (string | undefined)[]): TurnPlan => ({ say: join(...parts), calls: [] });
const call = (...calls: PlannedCall[]): TurnPlan => ({ say: '', calls });

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
function carriedOver(screen: Screen, convo: Conversation, afterRejection: boolean): FillPlan | undefined {
  if (convo.carried === undefined) return undefined;
  const { answer, rest } = readAnswer(convo.carried, screen.lang.code);
  if (afterRejection) return planFill(screen, rest);
  if (answer !== null) return undefined;
  return planFill(screen, convo.carried, { bare: false, needs: 'choice' });
}

/** Back in a step after a rejection: take a value said with the no, else ask for the rejected one. */
function afterRejection(screen: Screen, convo: Conversation, rejected: readonly string[]): TurnPlan {
  const carried = carriedOver(screen, convo, true);
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

function entryTurn(screen: Screen, convo: Conversation, messages: readonly ChatMessage[]): TurnPlan {
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

// ------------------------------------------------------------------ the visitor spoke

/** Values or an action wait for the visitor's yes. */
const waitingAnything = (screen: Screen): boolean => screen.pending.length > 0 || screen.pendingAction !== undefined;

function confirmCalls(screen: Screen): PlannedCall[] {
  const empty = screen.gated.filter((v) => !screen.pending.includes(v) && isBlank(screen.values[v]));
  const whole = `confirm_${screen.state}`;
  if (empty.length === 0 && offers(screen, whole)) return [{ tool: whole, args: {} }];
  return screen.pending.filter((v) => offers(screen, `confirm_${v}`)).map((v) => ({ tool: `confirm_${v}`, args: {} }));
}

/** The one of `names` the visitor speaks of, by its field's label or its name ("my date of birth is wrong"). */
function namedVariable(screen: Screen, said: string, names: readonly string[]): string | undefined {
  const choices = names.map((v) => ({ value: v, names: [humanize(v), fieldFor(screen, v)?.label ?? ''] }));
  const named = hearChoice(said, choices, screen.lang).chosen?.value;
  return typeof named === 'string' ? named : undefined;
}

/**
 * The reject for a "no" while values wait for a yes: of the one value the visitor names ("no, my
 * date of birth is wrong") or gives anew ("no, it's 6 March"), else of them all.
 */
function rejectCall(screen: Screen, said: string): PlannedCall | undefined {
  const anew = Object.keys(planFill(screen, readAnswer(said, screen.lang.code).rest).heard).filter((v) => screen.pending.includes(v));
  const only = namedVariable(screen, said, screen.pending) ?? (anew.length === 1 ? anew[0] : undefined) ?? (screen.pending.length === 1 ? screen.pending[0] : undefined);
  if (only !== undefined && offers(screen, `reject_${only}`)) return { tool: `reject_${only}`, args: {} };
  const whole = `reject_${screen.state}`;
  if (offers(screen, whole)) return { tool: whole, args: {} };
  const v = screen.pending.find((p) => offers(screen, `reject_${p}`));
  return v === undefined ? undefined : { tool: `reject_${v}`, args: {} };
}

/** "No, my date of birth is wrong" about a value a form already holds: its question again. */
function askAgainFor(screen: Screen, said: string): string | undefined {
  const filled = (screen.artifact?.fields ?? []).map((f) => f.id).filter((v) => !isBlank(screen.values[v]));
  const wrong = namedVariable(screen, said, filled);
  return wrong === undefined ? undefined : fieldQuestionFor(screen, wrong);
}

/** The engine took the visitor's yes or no itself (the flow's own phrase) and asks what comes next. */
const ANSWERED_BY_ENGINE = /^\[flow engine\] The visitor (?:confirmed|said ")/;

/** Heard values that the form on screen has an ungated field for and does not show yet. */
function formValues(screen: Screen, heard: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(heard)) {
    if (!fieldFor(screen, name) || screen.gated.includes(name) || screen.values[name] === value) continue;
    out[name] = displayValue(value);
  }
  return out;
}

/**
 * "Can we speak Spanish?": set_language, or why not. A language's name said alone is a choice
 * when the screen offers one by that name.
 */
function languageAsked(screen: Screen, said: string): TurnPlan | undefined {
  const asked = askedLanguage(said, screen.lang);
  if (!asked || (asked.bare && Object.keys(planFill(screen, said, { bare: false, needs: 'choice' }).heard).length > 0)) return undefined;
  const answer = answerLanguageRequest(screen, asked.code);
  return answer.call ? call(answer.call) : speak(answer.say, nextQuestion(screen) ?? introduction(screen));
}

function replyTurn(screen: Screen, convo: Conversation): TurnPlan {
  const said = convo.utterance;
  const say = screen.lang.say;
  const answer = readAnswer(said, screen.lang.code).answer;
  if (convo.notes.some((n) => ANSWERED_BY_ENGINE.test(n))) {
    return speak(answer === 'no' ? say.sorry : say.thankYou, nextQuestion(screen) ?? introduction(screen));
  }
  const language = languageAsked(screen, said);
  if (language) return language;
  // A way out of every step ("I'd like to talk to a person"), only when asked for by its words.
  const wayOut = askedWayOut(screen, said);
  if (wayOut) return 'call' in wayOut ? call(wayOut.call) : speak(wayOut.ask);
  // "Change my details" or "the date is wrong" is a no to what waits, and asks to go back.
  const intent = answer ?? (wantsChange(said, screen.lang) ? 'no' : null);
  if (screen.pendingAction !== undefined && intent !== null) {
    const decision = intent === 'yes' ? 'confirm_action' : 'reject_action';
    if (offers(screen, decision)) return call({ tool: decision, args: {} });
  }
  if (screen.pending.length > 0 && answer === 'yes') {
    const confirms = confirmCalls(screen);
    if (confirms.length > 0) return call(...confirms);
  }
  if (screen.pending.length > 0 && intent === 'no') {
    // "No, it's Marta": the reject re-enters the step, whose entry turn takes Marta.
    const reject = rejectCall(screen, said);
    if (reject) return call(reject);
  }
  const named = namedPlainTool(screen, said);
  if (named) return call(named);
  if (wantsStartOver(said, screen.lang)) return speak(say.startOver, nextQuestion(screen) ?? introduction(screen));
  const fill = planFill(screen, said, { earlier: convo.earlier });
  const refused = fill.refusals[0];
  if (fill.calls.length > 0) return { say: refused ? refusalLine(screen, refused) : '', calls: fill.calls };
  if (refused) return speak(refusalLine(screen, refused), fieldQuestionFor(screen, refused.param.name) ?? nextQuestion(screen));
  const missing = fill.missing[0];
  if (missing) return { ...speak(heardLine(screen, fill.heard), paramQuestion(screen, missing)), formValues: formValues(screen, fill.heard) };
  // A plain "no" to "Is that all correct?" says something shown is wrong: ask what, never take it
  // as "cancel" or "decline" (which may send the visitor away).
  if (answer === 'no' && readAnswer(said, screen.lang.code).rest === '' && nextQuestion(screen)?.endsWith(say.allCorrect)) {
    return speak(say.allRight, changeHint(screen) ?? say.whatToChange);
  }
  const plain = intent === null ? undefined : answeredPlainTool(screen, intent);
  if (plain) return call(plain);
  const back = intent === 'no' ? (changeHint(screen) ?? askAgainFor(screen, said)) : undefined;
  if (back) return speak(say.allRight, back);
  // A yes where only a button of the step's own goes on (the way out of every step never does).
  const onward = waitingAnything(screen) ? undefined : goOnHint(screen, said, answer === 'yes');
  if (onward) return speak(onward);
  const ask = nextQuestion(screen) ?? introduction(screen);
  // Words for a later question ("I have chest pain" at the name step): kept, and taken up there.
  if (worthKeeping(screen, said)) return speak(say.kept, ask);
  // An action of this step is on its way (a check-in being sent): its answer comes by itself.
  if (screen.running) return speak(say.oneMoment);
  return speak(waitingAnything(screen) ? say.yesOrNo : say.notCaught, ask);
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
  [(c) => c['status'] === 'confirmed', (say) => say.done],
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
