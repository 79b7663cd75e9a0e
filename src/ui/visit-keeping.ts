// The visit in progress as it is kept on the device for a reload or a crash (src/pwa/visit-store.ts
// keeps it), with the visitor's accessibility choices, and the rule for taking it up again: only
// for the same flow, as the same version, and only while the visitor could still be standing there.

import type { LoadedFlow } from '../engine/language/loaded-flow.ts';
import { copy } from '../engine/language/records.ts';
import { FlowEngine } from '../engine/runtime/engine.ts';
import type { EngineMessage } from '../engine/runtime/messages.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeptCaption, KeptChoices, KeptField, KeptVisit, VisitStore } from '../pwa/visit-store.ts';
import type { Conversation } from '../voice/conversation.ts';
import type { KioskSettings } from './kiosk-settings.ts';

/** What the kiosk holds of a visit, to be kept. */
export interface VisitNow {
  source: string;
  savedAt: number;
  lastActivity: number;
  engine: FlowEngine;
  conversation: Conversation;
  captions: readonly KeptCaption[];
  captionSeq: number;
  fields: Readonly<Record<string, KeptField>>;
  actionNonce: string | undefined;
  /** the visitor's accessibility choices */
  choices: KeptChoices;
}

export function keptVisit(v: VisitNow): KeptVisit {
  return {
    format: 1,
    source: v.source,
    savedAt: v.savedAt,
    lastActivity: v.lastActivity,
    engine: v.engine.snapshot(),
    conversation: v.conversation.context(),
    captions: v.captions.map((c) => ({ ...c })),
    captionSeq: v.captionSeq,
    fields: copy(v.fields),
    ...(v.actionNonce ? { actionNonce: v.actionNonce } : {}),
    choices: { ...v.choices },
  };
}

/** A kept visit taken up: its copy, the engine restored, and how long the visitor has been quiet. */
export interface TakenUpVisit {
  kept: KeptVisit;
  restored: { engine: FlowEngine; messages: readonly EngineMessage[] };
  quietMs: number;
}

/**
 * The visit kept before a reload or a crash, unless it is for another flow (or another version of
 * this one), or the visitor has been quiet longer than the kiosk waits before it wipes (idle time
 * and the grace of "Are you still there?"). The copy is deleted either way: it is taken up once.
 */
export function takeUpVisit(visits: VisitStore | null, loaded: LoadedFlow, source: string, clock: Clock, settings: KioskSettings): TakenUpVisit | null {
  const kept = visits?.load() ?? null;
  visits?.clear();
  if (!kept || kept.source !== source) return null;
  const now = clock.now();
  const quietMs = now - kept.lastActivity;
  if (quietMs < 0 || quietMs >= (settings.idleSeconds + settings.idleGraceSeconds) * 1000) return null;
  const restored = FlowEngine.restore(loaded, clock, kept.engine, { awayMs: Math.max(0, now - kept.savedAt) });
  if ('problem' in restored) {
    console.warn(`kiosk: the visit before the reload is not taken up (${restored.problem}); starting afresh`);
    return null;
  }
  return { kept, restored, quietMs };
}
