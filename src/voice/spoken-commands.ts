// Reads what the visitor said for a request to the kiosk itself (command-phrases.ts): "say that
// again", "read it to me", "more time", "louder", "quieter", "stop", and an option's number. Only
// a whole answer counts ("please repeat that", not "repeat my email address"), in the visit's
// language, so these never reach the flow or the model, and nothing else is taken from them.

import { foldPhrase } from '../engine/runtime/words.ts';
import { COMMAND_PHRASES, type CommandPhrases, type SpokenCommand } from './command-phrases.ts';

export type { SpokenCommand } from './command-phrases.ts';

/** One language's phrases, read once into words as the engine compares them (foldPhrase). */
interface Reading {
  commands: Map<string, SpokenCommand>;
  polite: string[];
  numbers: Map<string, number>;
  fillers: Set<string>;
}

const readings = new Map<string, Reading>();

function reading(language: string): Reading | null {
  const primary = language.split(/[-_]/)[0]!.toLowerCase();
  const cached = readings.get(primary);
  if (cached) return cached;
  const phrases: CommandPhrases | undefined = Object.hasOwn(COMMAND_PHRASES, primary) ? COMMAND_PHRASES[primary] : undefined;
  if (!phrases) return null;
  const commands = new Map<string, SpokenCommand>();
  for (const [command, said] of Object.entries(phrases.commands) as [SpokenCommand, readonly string[]][]) {
    for (const phrase of said) commands.set(foldPhrase(phrase), command);
  }
  const numbers = new Map<string, number>();
  phrases.numbers.forEach((w, i) => numbers.set(foldPhrase(w), i + 1));
  phrases.ordinals.forEach((w, i) => numbers.set(foldPhrase(w), i + 1));
  const fillers = new Set(phrases.numberWords.flatMap((w) => foldPhrase(w).split(' ')));
  // Longest first, so that "could you" goes before "you" would.
  const polite = phrases.polite.map(foldPhrase).sort((a, b) => b.length - a.length);
  const made = { commands, polite, numbers, fillers };
  readings.set(primary, made);
  return made;
}

/** The words with the polite ones around them taken off ("could you repeat that please" → "repeat that"). */
function withoutPolite(words: string, polite: readonly string[]): string {
  let rest = words;
  for (let changed = true; changed && rest; ) {
    changed = false;
    for (const p of polite) {
      if (rest === p) return '';
      if (rest.startsWith(`${p} `)) rest = rest.slice(p.length + 1);
      else if (rest.endsWith(` ${p}`)) rest = rest.slice(0, -p.length - 1);
      else continue;
      changed = true;
    }
  }
  return rest;
}

/** The request to the kiosk that `text` is, said whole in `language`; null for anything else. */
export function spokenCommand(text: string, language: string): SpokenCommand | null {
  const r = reading(language);
  if (!r) return null;
  const words = foldPhrase(text);
  return r.commands.get(words) ?? r.commands.get(withoutPolite(words, r.polite)) ?? null;
}

/**
 * The option number that `text` is, said whole ("two", "2", "number two", "the second one"), from
 * 1; null for anything else.
 */
export function spokenNumber(text: string, language: string): number | null {
  const r = reading(language);
  const words = withoutPolite(foldPhrase(text), r?.polite ?? []);
  if (!words) return null;
  const tokens = words.split(' ');
  const valueOf = (t: string): number | undefined => (/^\d{1,2}$/.test(t) ? Number(t) : r?.numbers.get(t));
  if (tokens.some((t) => valueOf(t) === undefined && !r?.fillers.has(t))) return null;
  // "the second one": a last word that may be a filler ("one") is not the number when another comes before it.
  const numbers = (words: readonly string[]) => words.filter((t) => valueOf(t) !== undefined);
  const before = tokens.slice(0, -1);
  const meant = r?.fillers.has(tokens.at(-1)!) && numbers(before).length > 0 ? numbers(before) : numbers(tokens);
  if (meant.length !== 1) return null;
  const n = valueOf(meant[0]!)!;
  return n >= 1 ? n : null;
}
