// Words the visitor says before the kiosk asks for them: "I have chest pain" at the name step, a
// date of birth while the name waits for its yes. The assistant says it keeps them ("Thank you,
// I'll keep that in mind."), takes them up at a later step that asks for them (the date for the
// date of birth, the words for a free-text reason, a choice they name), or says them back at the
// first later question they may answer. All read from the history, so the assistant keeps no
// state: kept words are a visitor's message it answered with its "kept" line, and they are used
// once a tool call made from them (its id names them) or a mention of them has come since.

import type { ChatMessage } from '../../ports/language-model.ts';
import { foldWord, wordsOf } from '../../engine/runtime/words.ts';
import { isBlank } from '../../engine/language/values.ts';
import { extractDate } from './dates.ts';
import { extractEmail, extractPhone } from './extract.ts';
import { LANGUAGES } from './languages/index.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { isGibberish, isQuestion } from './names.ts';
import { flowTools, parameterCount, readParams, type Screen } from './screen.ts';
import { extractTime } from './times.ts';

/** The longest words kept: a statement, not a story. */
const MAX_KEPT_CHARS = 200;

/** Words the visitor said earlier that the assistant kept, and where they stand in the history. */
export interface KeptWords {
  text: string;
  index: number;
}

/** The "kept" line of each language that understands statements (a visit may have changed language since). */
const KEPT_LINES = LANGUAGES.filter((l) => l.understands === 'all').map((l) => l.say.kept);

/** The call id's ending that says a call was made from the kept words at `index`. */
export function keptMark(index: number): string {
  return `_kept${index}`;
}

function assistantAfter(messages: readonly ChatMessage[], i: number): ChatMessage | undefined {
  for (let k = i + 1; k < messages.length; k++) {
    const m = messages[k]!;
    if (m.role === 'assistant') return m;
    if (m.role === 'user') return undefined;
  }
  return undefined;
}

/** Kept words not used yet, oldest first. */
export function keptWords(messages: readonly ChatMessage[]): KeptWords[] {
  const kept: KeptWords[] = [];
  messages.forEach((m, i) => {
    const reply = m.role === 'user' ? assistantAfter(messages, i) : undefined;
    if (reply && KEPT_LINES.some((line) => reply.content.startsWith(line))) kept.push({ text: m.content, index: i });
  });
  const used = (k: KeptWords) =>
    messages.slice(k.index + 2).some((m) => m.role === 'assistant' && (m.content.includes(k.text) || (m.tool_calls ?? []).some((c) => c.id.endsWith(keptMark(k.index)))));
  return kept.filter((k) => !used(k));
}

/** Words that say little on their own: a statement needs one word that is none of these. */
const slightWords = perLanguage((lang: Language) => new Set([...lang.names.notNames, ...lang.choices.smallWords, ...lang.bare.fillers, ...lang.statements].map(foldWord)));
const statementWords = perLanguage((lang: Language) => new Set(lang.statements.map(foldWord)));

/**
 * Whether words no tool here takes are worth keeping: a date, time, phone or email, or (when no
 * value waits for a yes) a statement about the visitor of three words or more with something in
 * it ("I have chest pain", "ich brauche einen Rollstuhl"); never a question or gibberish.
 */
export function worthKeeping(screen: Screen, said: string): boolean {
  const lang = screen.lang;
  if (lang.understands !== 'all' || said.length > MAX_KEPT_CHARS || isQuestion(said, lang)) return false;
  const shaped = extractDate(said, lang, { today: screen.today, monthFirst: screen.monthFirst }) ?? extractTime(said, lang) ?? extractEmail(said, lang) ?? extractPhone(said, lang);
  if (shaped) return true;
  if (screen.pending.length > 0 || screen.pendingAction !== undefined) return false;
  const words = wordsOf(said);
  if (words.length < 3 || words.some((w) => /\p{L}/u.test(w.text) && isGibberish(w.text))) return false;
  const slight = slightWords(lang);
  return words.some((w) => statementWords(lang).has(w.text)) && words.some((w) => !slight.has(w.text) && w.text.length > 2);
}

/** The step asks something kept words may answer: a choice or free text still open. */
export function asksOpenQuestion(screen: Screen): boolean {
  const a = screen.artifact;
  if (a?.type === 'options' && a.variable !== undefined && isBlank(screen.values[a.variable])) return true;
  return flowTools(screen)
    .filter((t) => parameterCount(t) > 0)
    .some((t) => readParams(screen, t).some((p) => (p.kind === 'choice' || p.kind === 'text') && isBlank(screen.values[p.name])));
}
