// The offline agent's answer to what the visitor just said or typed: the words mended (mend.ts)
// and read in turn as a request for another language or a way out, a yes or a no to what waits,
// a correction (corrections.ts), values for the step's tools (fill.ts), small talk or help
// (talk.ts), a change of mind that goes back a step (going-back.ts), words kept for later
// (kept.ts), or, failing all, a plain "Sorry, I didn't catch that" and the step's question.

import { GO_BACK } from '../../engine/language/flow.ts';
import { displayValue } from '../../engine/language/interpolate.ts';
import { isBlank } from '../../engine/language/values.ts';
import { hearChoice } from './choices.ts';
import type { Conversation } from './conversation.ts';
import { readCorrection, type Correction } from './corrections.ts';
import { answeredPlainTool, namedPlainTool, planFill, type PlannedCall } from './fill.ts';
import { goesBack, wayBack } from './going-back.ts';
import { worthKeeping } from './kept.ts';
import { answerLanguageRequest, askedLanguage } from './language-request.ts';
import { mend } from './mend.ts';
import { call, speak, type TurnPlan } from './plan.ts';
import { changeHint, fieldQuestionFor, goOnHint, heardLine, introduction, nextQuestion, paramQuestion, refusalLine } from './replies.ts';
import { fieldFor, offers, type Screen } from './screen.ts';
import { howTo, lookUpTool, needFirst, talkOf } from './talk.ts';
import { humanize } from './text.ts';
import { askedWayOut } from './ways-out.ts';
import { readAnswer, wantsChange, wantsStartOver } from './yes-no.ts';

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

/**
 * While values wait for a yes and the visitor says no or corrects them: the values said with it,
 * when one of them corrects a value waiting in part ("no wait, it's Garcia with one r" keeps Maria,
 * "no, the 6th" keeps March 1984); else the reject ("no, it's Marta": the step is entered again,
 * and its entry turn takes Marta).
 */
function correctWaiting(screen: Screen, said: string, fix: Correction, intent: 'yes' | 'no' | null): TurnPlan | undefined {
  const rest = fix.correcting ? fix.rest : readAnswer(said, screen.lang.code).rest;
  const fill = planFill(screen, rest);
  if (fill.calls.length > 0 && fill.corrected.some((v) => screen.pending.includes(v))) return call(...fill.calls);
  if (intent === 'no') {
    const reject = rejectCall(screen, said);
    if (reject) return call(reject);
  }
  if (fix.correcting && fix.rest === '') return speak(screen.lang.say.takeYourTime, nextQuestion(screen));
  return undefined;
}

/** Small talk, help and "can you look it up?", answered, then the step's question. */
function talkBack(screen: Screen, said: string): TurnPlan | undefined {
  const kind = talkOf(screen, said);
  if (kind === undefined) return undefined;
  const say = screen.lang.say;
  const ask = nextQuestion(screen);
  switch (kind) {
    case 'greeting':
      return speak(say.hello, ask ?? introduction(screen));
    case 'thanks':
      return speak(say.welcome, ask);
    case 'howAreYou':
      return speak(say.fine, ask ?? introduction(screen));
    case 'lookUp': {
      const tool = lookUpTool(screen);
      if (tool) return call(tool);
      const first = needFirst(screen);
      return first ? speak(first, ask) : undefined;
    }
    case 'help':
      return speak(screen.artifact?.text, howTo(screen), ask ?? introduction(screen));
    case 'aboutStep':
      return speak(introduction(screen), ask);
  }
}

/** Options for a reply turn. */
export interface ReplyOptions {
  /** the agent may go back for the visitor (not when reading words it already went back with) */
  mayGoBack: boolean;
}

/** The answer to what the visitor just said. */
export function replyTurn(screen: Screen, convo: Conversation, options: ReplyOptions = { mayGoBack: true }): TurnPlan {
  const said = mend(convo.utterance, screen.lang);
  const say = screen.lang.say;
  // "No wait, I meant Priya" takes something back: its "no" answers nothing.
  const fix = readCorrection(said, screen.lang);
  const answer = fix.correcting ? null : readAnswer(said, screen.lang.code).answer;
  if (convo.notes.some((n) => ANSWERED_BY_ENGINE.test(n))) {
    return speak(readAnswer(said, screen.lang.code).answer === 'no' ? say.sorry : say.thankYou, nextQuestion(screen) ?? introduction(screen));
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
  if (screen.pending.length > 0 && (intent === 'no' || fix.correcting)) {
    const corrected = correctWaiting(screen, said, fix, intent);
    if (corrected) return corrected;
  }
  const named = namedPlainTool(screen, fix.rest);
  if (named) return call(named);
  if (wantsStartOver(said, screen.lang)) return speak(say.startOver, nextQuestion(screen) ?? introduction(screen));
  const fill = planFill(screen, fix.rest, { earlier: convo.earlier });
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
  // A change of mind: back a step, with the words, where the screen has a way back.
  const back = options.mayGoBack && !waitingAnything(screen) && goesBack(screen, said, fix) ? wayBack(screen, said) : undefined;
  if (back !== undefined) return call({ tool: GO_BACK, args: { button: back } });
  const plain = intent === null ? undefined : answeredPlainTool(screen, intent);
  if (plain) return call(plain);
  const change = intent === 'no' ? (changeHint(screen) ?? askAgainFor(screen, said)) : undefined;
  if (change) return speak(say.allRight, change);
  const talk = talkBack(screen, fix.rest);
  if (talk) return talk;
  // A yes where only a button of the step's own goes on (the way out of every step never does).
  const question = nextQuestion(screen);
  const asking = question !== undefined && !question.endsWith(say.allCorrect) && !question.endsWith(say.agree);
  const onward = waitingAnything(screen) ? undefined : goOnHint(screen, said, answer === 'yes' && !asking);
  if (onward) return speak(onward);
  const ask = question ?? introduction(screen);
  if (answer === 'yes' && !waitingAnything(screen)) return speak(say.allRight, ask);
  if (fix.correcting && fix.rest === '') return speak(say.takeYourTime, ask);
  // Words for a later question ("I have chest pain" at the name step): kept, and taken up there.
  if (worthKeeping(screen, said)) return speak(say.kept, ask);
  if (fix.correcting) return speak(say.cannotGoBack, ask);
  // An action of this step is on its way (a check-in being sent): its answer comes by itself.
  if (screen.running) return speak(say.oneMoment);
  return speak(waitingAnything(screen) ? say.yesOrNo : say.notCaught, ask);
}
