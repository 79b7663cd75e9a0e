// What the conversation loop (conversation.ts) tells the kiosk around it, the options it takes,
// and the model's side of a visit that is kept with the engine's snapshot.

import type { EngineMessage } from '../engine/runtime/messages.ts';
import type { ChatMessage } from '../ports/language-model.ts';

export interface ConversationEvents {
  /** every engine message, in order, for the screen */
  engine(messages: readonly EngineMessage[]): void;
  /** the agent's words for one reply (one model round): growing while streamed, then final */
  agentSpeech(reply: number, text: string, final: boolean): void;
  /** the visitor's words (spoken or typed) as they were sent */
  visitorSpeech(text: string): void;
  /**
   * Something the visitor should know about the assistant itself, as a plain sentence; `detail`
   * (the service's own words, which could hold anything) is for the operator's log only.
   */
  notice(kind: 'model_fallback' | 'model_failed', text: string, detail?: string): void;
  /** a model turn is running (true) or finished (false) */
  busy(busy: boolean): void;
  /** a reply prepared at a pause was asked for, taken by the turn, or dropped (for measuring) */
  prepared?(outcome: 'asked' | 'taken' | 'dropped'): void;
}

export interface ConversationOptions {
  /** model rounds in one turn (each round may call tools) before the turn gives up */
  maxRounds?: number;
}

/** The model's side of a visit, kept with the engine's snapshot so a resumed visit has its context. */
export interface ConversationContext {
  history: ChatMessage[];
  /** index in `history` where the current step began */
  stepStart: number;
}
