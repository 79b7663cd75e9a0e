// Small talk and help, answered in the visit's language and followed by what the step still
// asks: a greeting, thanks and "how are you?" get a word back; "help" and "what do I do?" get what
// the step needs and how to give it; "can you look it up?" calls the step's look-up (a tool that
// finds or looks something up), or says what it needs first; a question about what the step shows
// ("what are the rules?") has it read again.

import { foldPhrase, foldWord } from '../../engine/runtime/words.ts';
import { isBlank } from '../../engine/language/values.ts';
import type { PlannedCall } from './fill.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { isQuestion } from './names.ts';
import { flowTools, parameterCount, type Screen } from './screen.ts';
import { humanize } from './text.ts';

/** A tool whose name says it looks something up (find_appointment, lookup_booking, search_guest). */
const LOOK_UP_TOOL = /^(?:find|lookup|look|search|fetch|get|retrieve)(?:_|$)/;

interface TalkReader {
  greetings: ReadonlySet<string>;
  thanks: ReadonlySet<string>;
  howAreYou: readonly string[];
  help: readonly string[];
  lookUp: readonly string[];
  tails: ReadonlySet<string>;
  fillers: ReadonlySet<string>;
  small: ReadonlySet<string>;
}

const reader = perLanguage((lang: Language): TalkReader => {
  const phrases = (list: readonly string[]) => list.map(foldPhrase);
  return {
    greetings: new Set(phrases(lang.talk.greetings)),
    thanks: new Set(phrases(lang.talk.thanks)),
    howAreYou: phrases(lang.talk.howAreYou),
    help: phrases(lang.talk.help),
    lookUp: phrases(lang.talk.lookUp),
    tails: new Set(phrases([...lang.bare.tails, ...lang.bare.fillers, 'there', 'again'])),
    fillers: new Set(phrases(lang.bare.fillers)),
    small: new Set([...lang.choices.smallWords, ...lang.names.notNames].map(foldWord)),
  };
});

/** The words said, without fillers and "please" at either end. */
function core(said: string, r: TalkReader): string {
  const words = foldPhrase(said).split(' ').filter(Boolean);
  while (words.length > 1 && r.tails.has(words[words.length - 1]!)) words.pop();
  while (words.length > 1 && r.fillers.has(words[0]!)) words.shift();
  return words.join(' ');
}

const has = (said: string, phrase: string) => ` ${said} `.includes(` ${phrase} `);

/** True when the words are greetings and nothing else ("hello", "hola, buenos días"). */
function greetingsOnly(words: string, r: TalkReader): boolean {
  let left = ` ${words} `;
  for (let i = 0; i < 4 && left.trim() !== ''; i++) {
    const greeting = [...r.greetings].sort((a, b) => b.length - a.length).find((g) => left.startsWith(` ${g} `));
    if (greeting === undefined) return false;
    left = left.slice(greeting.length + 1);
  }
  return left.trim() === '';
}

/** The kinds of small talk and help the assistant answers. */
export type Talk = 'greeting' | 'thanks' | 'howAreYou' | 'help' | 'lookUp' | 'aboutStep';

/** What kind of small talk or request for help the words are, if they are one. */
export function talkOf(screen: Screen, said: string): Talk | undefined {
  const r = reader(screen.lang);
  const words = core(said, r);
  const all = foldPhrase(said);
  if (r.thanks.has(words) || r.thanks.has(all)) return 'thanks';
  if (greetingsOnly(words, r)) return 'greeting';
  if (r.howAreYou.some((p) => has(words, p))) return 'howAreYou';
  if (r.lookUp.some((p) => has(words, p))) return 'lookUp';
  if (r.help.some((p) => has(words, p))) return 'help';
  // A question about what the step shows: a word of its heading or text that says something.
  const shown = new Set(foldPhrase(`${screen.artifact?.title ?? ''} ${screen.artifact?.text ?? ''}`).split(' ').filter((w) => w.length > 3 && !r.small.has(w)));
  if (isQuestion(said, screen.lang) && words.split(' ').some((w) => shown.has(w) || (w.endsWith('s') && shown.has(w.slice(0, -1))))) return 'aboutStep';
  return undefined;
}

/** The step's look-up, a tool without parameters whose name says it finds something. */
export function lookUpTool(screen: Screen): PlannedCall | undefined {
  const tool = flowTools(screen).find((t) => parameterCount(t) === 0 && LOOK_UP_TOOL.test(t.function.name));
  return tool && { tool: tool.function.name, args: {} };
}

/** "First I need your full name and date of birth.": the required fields still empty, by their labels. */
export function needFirst(screen: Screen): string | undefined {
  const say = screen.lang.say;
  const empty = (screen.artifact?.fields ?? []).filter((f) => f.required && isBlank(screen.values[f.id]));
  if (empty.length === 0) return undefined;
  return say.needFirst(say.andList(empty.map((f) => say.label(f.label.trim() || humanize(f.id)))));
}

/** How to answer the step on screen, by its kind. */
export function howTo(screen: Screen): string | undefined {
  const a = screen.artifact;
  if (!a) return undefined;
  const how = screen.lang.say.howTo;
  if (a.type === 'form') return a.fields.length > 0 ? how.form : undefined;
  if (a.type === 'options') return how.options;
  return a.actions.length > 0 ? how.card : undefined;
}
