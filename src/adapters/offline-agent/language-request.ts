// A visitor asking for another language, in any of the assistant's languages: "can we speak
// Spanish?", "auf Deutsch bitte", "en français s'il vous plaît", "¿podemos hablar en español?",
// "بالعربية", or a language's name on its own. Languages are known by their names in each of the
// assistant's languages and in themselves (the platform's Intl.DisplayNames), so a request for
// one the flow does not offer ("Italian, please") is heard too, and answered plainly.

import { SET_LANGUAGE } from '../../engine/language/flow.ts';
import type { ToolSpec } from '../../engine/runtime/messages.ts';
import { wordsOf } from '../../engine/runtime/words.ts';
import { LANGUAGES, type Language } from './languages/index.ts';
import { isNegated } from './negation.ts';
import type { Screen } from './screen.ts';

/** Languages a visitor may ask for, beyond those the assistant speaks: enough to answer "not here" by name. */
const ASKABLE = ['en', 'de', 'fr', 'es', 'ar', 'it', 'pt', 'nl', 'pl', 'tr', 'ru', 'uk', 'ro', 'el', 'sv', 'da', 'no', 'fi', 'cs', 'hu', 'he', 'fa', 'ur', 'hi', 'bn', 'zh', 'ja', 'ko', 'vi', 'th'];

/** Arabic words carry "the", "with the", "and the" in front: "بالعربية" is "العربية" is "عربية". */
const ARABIC_PREFIX = /^(?:و|ف)?(?:بال|كال|لل|ال)(?=\p{L}{2})/u;
/** "بـ" in front of a language's name: in it ("بالعربية", in Arabic). */
const IN_ARABIC = /^(?:و|ف)?بال/;

function bare(word: string): string {
  return word.replace(ARABIC_PREFIX, '');
}

function displayNames(inLanguage: string): Intl.DisplayNames | undefined {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language' });
  } catch {
    return undefined;
  }
}

interface RequestReader {
  /** a language's one-word name, folded and bare, to its primary subtag */
  names: ReadonlyMap<string, string>;
  speak: ReadonlySet<string>;
  inLanguage: ReadonlySet<string>;
  please: ReadonlySet<string>;
}

let made: RequestReader | undefined;

function reader(): RequestReader {
  if (made) return made;
  const names = new Map<string, string>();
  const add = (name: string | undefined, code: string) => {
    const words = name === undefined ? [] : wordsOf(name);
    if (words.length === 1 && !names.has(bare(words[0]!.text))) names.set(bare(words[0]!.text), code);
  };
  for (const code of ASKABLE) {
    add(displayNames(code)?.of(code), code);
    for (const lang of LANGUAGES) add(displayNames(lang.code)?.of(code), code);
  }
  for (const lang of LANGUAGES) for (const [name, code] of Object.entries(lang.requests.names ?? {})) add(name, code);
  const words = (pick: (l: Language) => readonly string[]) => new Set(LANGUAGES.flatMap((l) => pick(l).flatMap((p) => wordsOf(p).map((w) => w.text))));
  made = {
    names,
    speak: words((l) => l.requests.speak),
    inLanguage: words((l) => l.requests.inLanguage),
    please: words((l) => [...l.requests.please, ...l.bare.fillers]),
  };
  return made;
}

/** A request for a language: its primary subtag, and whether its name was all that was said. */
export interface LanguageAsked {
  code: string;
  /** only the name (and "please"): on a screen with a choice of that name, the choice wins */
  bare: boolean;
}

/** The language the visitor asks to be spoken to in, if they ask for one. */
export function askedLanguage(text: string, lang: Language): LanguageAsked | undefined {
  const r = reader();
  const words = wordsOf(text);
  const at = words.findIndex((w) => r.names.has(bare(w.text)));
  if (at < 0) return undefined;
  const named = words[at]!;
  if (isNegated(text, named.start, lang)) return undefined;
  const code = r.names.get(bare(named.text))!;
  const others = words.filter((_, i) => i !== at);
  const bareName = others.every((w) => r.please.has(w.text));
  const asked =
    bareName ||
    others.some((w) => r.speak.has(w.text)) ||
    (at > 0 && r.inLanguage.has(words[at - 1]!.text) && words.slice(at + 1).every((w) => r.please.has(w.text))) ||
    IN_ARABIC.test(named.text);
  return asked ? { code, bare: bareName } : undefined;
}

/** A language's name in the visit's language ("Spanisch" in German), for saying which ones there are. */
export function languageNameIn(code: string, tag: string): string {
  return displayNames(tag)?.of(code) ?? code;
}

/** The flow's tag for a language it offers ("es" → "es-ES"), from set_language's choices. */
function offeredTag(tools: readonly ToolSpec[], code: string): { offered: string[]; tag?: string } {
  const tool = tools.find((t) => t.function.name === SET_LANGUAGE);
  const choices = tool?.function.parameters.properties['language']?.['enum'];
  const offered = Array.isArray(choices) ? choices.map(String) : [];
  const tag = offered.find((t) => t.toLowerCase().split('-')[0] === code);
  return tag === undefined ? { offered } : { offered, tag };
}

/**
 * What to do when the visitor asks for a language: call set_language with the flow's tag for it;
 * say so when the visit is in it already; else name the languages the kiosk speaks here.
 */
export function answerLanguageRequest(screen: Screen, code: string): { call?: { tool: string; args: Record<string, unknown> }; say?: string } {
  const say = screen.lang.say;
  const current = screen.tag.toLowerCase().split('-')[0];
  const { offered, tag } = offeredTag(screen.tools, code);
  if (code === current) return { say: say.alreadySpeaking };
  if (tag !== undefined) return { call: { tool: SET_LANGUAGE, args: { language: tag } } };
  const here = (offered.length > 0 ? offered : [screen.tag]).map((t) => languageNameIn(t.split('-')[0]!, screen.tag));
  return { say: say.onlySpeak(say.orList([...new Set(here)])) };
}
