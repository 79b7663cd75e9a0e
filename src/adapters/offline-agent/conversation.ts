// Reading the chat history: which kind of turn is asked for (the state was just entered, the
// visitor spoke, or the agent's tool calls came back), what the visitor said, and the results.

import { GO_BACK } from '../../engine/language/flow.ts';
import { MAX_TEXT_CHARS } from '../../engine/language/limits.ts';
import type { ChatMessage } from '../../ports/language-model.ts';

export type TurnKind = 'entry' | 'reply' | 'results';

/** One tool call of the agent and the engine's answer to it. */
export interface ToolOutcome {
  tool: string;
  content: Record<string, unknown>;
}

export interface Conversation {
  kind: TurnKind;
  /** the visitor's latest words (reply turns), else '' */
  utterance: string;
  /** what the visitor said earlier in this state, latest first */
  earlier: string[];
  /** in a reply turn: the engine's notes that came after the visitor's words (what it did with them) */
  notes: string[];
  /**
   * In an entry turn: the visitor's words that led straight into this step (the engine or the
   * agent's one round of tool calls acting on them), which may hold more than that step took.
   */
  carried: string | undefined;
  /** in an entry turn: the step was entered by the go_back the agent called at those words */
  tapped: boolean;
  /**
   * The answers to the agent's latest tool calls when nothing but them came since: in a results
   * turn, the ones just back; in an entry turn, the ones that led to this entry (a rejection).
   */
  outcomes: ToolOutcome[];
}

function parseContent(content: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(content);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The visitor's words as the agent reads them: no more than an utterance may have (the engine's
 * cap), so none of the agent's patterns ever runs on a longer text.
 */
function words(m: ChatMessage): string {
  return m.content.slice(0, MAX_TEXT_CHARS);
}

/**
 * Reads the history. `stepStart`, when the runtime gives it, is the index of the current step's
 * first message. Without it, a system message equal to `statePrompt` (the current state's system
 * prompt) marks the state entry; other system messages (engine notes) are skipped.
 */
export function readConversation(messages: readonly ChatMessage[], statePrompt: string | undefined, stepStart?: number): Conversation {
  let entry = stepStart === undefined ? -1 : stepStart - 1;
  for (let i = messages.length - 1; stepStart === undefined && i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'system' && (statePrompt === undefined || m.content === statePrompt)) {
      entry = i;
      break;
    }
  }
  let kind: TurnKind = 'entry';
  let replyAt = -1;
  for (let i = messages.length - 1; i > entry; i--) {
    const role = messages[i]!.role;
    if (role === 'system') continue;
    if (role === 'user') {
      kind = 'reply';
      replyAt = i;
    } else if (role === 'tool') kind = 'results';
    break;
  }
  const earlier: string[] = [];
  for (let i = replyAt - 1; i > entry; i--) {
    const m = messages[i]!;
    if (m.role === 'user') earlier.push(words(m));
  }
  const notes = replyAt < 0 ? [] : messages.slice(replyAt + 1).flatMap((m) => (m.role === 'system' ? [m.content] : []));
  return {
    kind,
    utterance: replyAt >= 0 ? words(messages[replyAt]!) : '',
    earlier,
    notes,
    ...(kind === 'entry' ? wordsThatLedHere(messages, stepStart === undefined ? entry - 1 : entry) : { carried: undefined, tapped: false }),
    outcomes: kind === 'reply' ? [] : outcomesBefore(messages, kind === 'entry' && entry >= 0 ? entry + 1 : messages.length),
  };
}

/**
 * The visitor's message that led straight to the step whose first message comes after `last`:
 * nothing but engine notes, tool results and at most one round of the agent's silent tool calls
 * between them, so the words never reach further than one step on; and whether that step was
 * entered by going back (the round called go_back).
 */
function wordsThatLedHere(messages: readonly ChatMessage[], last: number): { carried: string | undefined; tapped: boolean } {
  let rounds = 0;
  let tapped = false;
  for (let i = last; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user') return { carried: words(m), tapped };
    if (m.role !== 'assistant') continue;
    const silent = m.content.trim() === '' && m.tool_calls?.length;
    if (!silent || ++rounds > 1) break;
    tapped = m.tool_calls!.some((c) => c.name === GO_BACK);
  }
  return { carried: undefined, tapped: false };
}

/** The tool results just before `end` (engine notes aside) with the names of their calls. */
function outcomesBefore(messages: readonly ChatMessage[], end: number): ToolOutcome[] {
  const results: { id: string; content: string }[] = [];
  for (let i = end - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      results.unshift({ id: m.tool_call_id, content: m.content });
      continue;
    }
    if (m.role === 'user' || results.length === 0) return [];
    const calls = m.tool_calls ?? [];
    return results.map((r) => ({ tool: calls.find((c) => c.id === r.id)?.name ?? '', content: parseContent(r.content) }));
  }
  return [];
}
