// The flow's ways out of every step (the tools its `global` block offers: "ask_for_person") as
// the built-in assistant takes them. Never as the step's own way on: a yes, a bare answer or a
// lone free-text parameter never reaches one (screen.ts leaves them out of the step's tools). Only
// when the visitor asks for one: the label of a global button that names it, its name, or words of
// its description said ("I'd like to talk to a person"), and not where they say they do not want it.

import type { ToolSpec } from '../../engine/runtime/messages.ts';
import { foldWord } from '../../engine/runtime/words.ts';
import { hearChoice, type Choice } from './choices.ts';
import { planFill, type PlannedCall } from './fill.ts';
import { paramQuestion } from './replies.ts';
import { globalTools, parameterCount, readParams, type Screen } from './screen.ts';
import { humanize, wordsOf } from './text.ts';

/** What the visitor asked of a way out: its call, or the question for a value it still needs. */
export type WayOut = { call: PlannedCall } | { ask: string };

/**
 * The runs of words of a description that name its tool when said: within one clause, each
 * starts and ends on a word that is not a small one ("a", "to", "the") and holds two such words
 * ("talk to a person", "member of staff", "front desk"). A single word ("staff") is not enough.
 */
function descriptionPhrases(description: string, small: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const clause of description.split(/[.!?,;:()]/)) {
    const words = wordsOf(clause).map((w) => w.text);
    const counts = (w: string) => !small.has(foldWord(w));
    for (let i = 0; i < words.length; i++) {
      if (!counts(words[i]!)) continue;
      for (let j = i + 1; j < words.length; j++) if (counts(words[j]!)) out.push(words.slice(i, j + 1).join(' '));
    }
  }
  return out;
}

/** A way out as a choice the visitor may name: its buttons' labels, its name and its description's phrases, each said whole. */
function asChoice(screen: Screen, tool: ToolSpec, small: ReadonlySet<string>): Choice {
  const name = tool.function.name;
  const labels = screen.globalButtons.filter((b) => b.tool === name).map((b) => b.label);
  return { value: name, names: [], phrases: [...labels, humanize(name), ...descriptionPhrases(tool.function.description, small)] };
}

/**
 * The way out the visitor asks for in `said`, if any: called with the values its parameters take
 * from what they said (a lone free-text one takes the request itself), or the question for a
 * required value they did not give.
 */
export function askedWayOut(screen: Screen, said: string): WayOut | undefined {
  const tools = globalTools(screen);
  if (tools.length === 0) return undefined;
  const small = new Set(screen.lang.choices.smallWords.map(foldWord));
  const asked = hearChoice(said, tools.map((t) => asChoice(screen, t, small)), screen.lang).chosen?.value;
  const tool = tools.find((t) => t.function.name === asked);
  if (!tool) return undefined;
  if (parameterCount(tool) === 0) return { call: { tool: tool.function.name, args: {} } };
  const fill = planFill(screen, said, { tools: [tool] });
  const made = fill.calls[0];
  if (made) return { call: made };
  const missing = fill.missing[0] ?? readParams(screen, tool).find((p) => p.required);
  return missing ? { ask: paramQuestion(screen, missing) } : { call: { tool: tool.function.name, args: {} } };
}
