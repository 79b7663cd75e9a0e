// The visit in progress, kept on the device so that a reload, a crashed tab or a kiosk browser
// restarted by the operating system comes back to it without a tap. It is kept in localStorage:
// sessionStorage would survive a reload and a crashed tab, but not a browser that was closed and
// started again, which is how a kiosk recovers from most crashes. The copy is personal data, so it
// lives only as long as the visit (the visitor's accessibility choices with it): the wipe (end,
// "Start over", walk-away) deletes it, and a copy found after the visit's idle time has run out
// is deleted unread.

import type { EngineSnapshot } from '../engine/runtime/snapshot.ts';
import type { ChatMessage } from '../ports/language-model.ts';
import type { ConversationContext } from '../voice/conversation.ts';

/** The localStorage key of the kept visit. */
export const VISIT_KEY = 'kiosk-visit';

const FORMAT = 1;

export interface KeptCaption {
  id: string;
  who: 'visitor' | 'agent';
  text: string;
  final: boolean;
}

export interface KeptField {
  value: string;
  status: 'empty' | 'pending' | 'confirmed' | 'set';
  editing: boolean;
}

/** The visitor's accessibility choices for the visit, kept with it (src/ui/access.svelte.ts holds them to their ranges). */
export interface KeptChoices {
  guidance: boolean;
  /** in per cent */
  textSize: number;
  contrast: boolean;
  lower: boolean;
  /** 1 to 10 */
  volume: number;
}

export interface KeptVisit {
  format: typeof FORMAT;
  /** the flow as the kiosk loaded it (a bundled file or an address): another flow never resumes */
  source: string;
  /** wall-clock time (ms) of the copy, and of the visitor's last sign of life */
  savedAt: number;
  lastActivity: number;
  engine: EngineSnapshot;
  conversation: ConversationContext;
  captions: KeptCaption[];
  captionSeq: number;
  /** the form as shown, with what was typed and not yet sent */
  fields: Record<string, KeptField>;
  /** the visit's part of its action ids, to ask the server after the actions sent before a reload */
  actionNonce?: string;
  /** the visitor's accessibility choices (none in a copy from before they were kept: the defaults) */
  choices?: KeptChoices;
}

export interface VisitStore {
  save(visit: KeptVisit): void;
  /** the kept visit, or null when there is none or it is not one this kiosk wrote */
  load(): KeptVisit | null;
  clear(): void;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isTime = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function isCaption(x: unknown): x is KeptCaption {
  return isRecord(x) && typeof x['id'] === 'string' && (x['who'] === 'visitor' || x['who'] === 'agent') && typeof x['text'] === 'string' && typeof x['final'] === 'boolean';
}

function isField(x: unknown): x is KeptField {
  return isRecord(x) && typeof x['value'] === 'string' && ['empty', 'pending', 'confirmed', 'set'].includes(x['status'] as string) && typeof x['editing'] === 'boolean';
}

function isChoices(x: unknown): x is KeptChoices {
  if (!isRecord(x) || !isTime(x['textSize']) || !isTime(x['volume'])) return false;
  return typeof x['guidance'] === 'boolean' && typeof x['contrast'] === 'boolean' && typeof x['lower'] === 'boolean';
}

function isChatMessage(x: unknown): x is ChatMessage {
  return isRecord(x) && ['system', 'user', 'assistant', 'tool'].includes(x['role'] as string) && typeof x['content'] === 'string';
}

/** The kept visit's own parts checked (the engine's snapshot is checked by FlowEngine.restore). */
export function readKeptVisit(x: unknown): KeptVisit | null {
  if (!isRecord(x) || x['format'] !== FORMAT || typeof x['source'] !== 'string' || !isTime(x['savedAt']) || !isTime(x['lastActivity'])) return null;
  const conversation = x['conversation'];
  if (!isRecord(conversation) || !Array.isArray(conversation['history']) || !conversation['history'].every(isChatMessage)) return null;
  if (!Number.isSafeInteger(conversation['stepStart']) || !Number.isSafeInteger(x['captionSeq'])) return null;
  if (!Array.isArray(x['captions']) || !x['captions'].every(isCaption)) return null;
  if (!isRecord(x['fields']) || !Object.values(x['fields']).every(isField) || !isRecord(x['engine'])) return null;
  if (x['actionNonce'] !== undefined && typeof x['actionNonce'] !== 'string') return null;
  // Damaged choices lose the choices only: the visit itself goes on, from the defaults.
  if (x['choices'] !== undefined && !isChoices(x['choices'])) {
    const { choices: _damaged, ...visit } = x;
    return visit as unknown as KeptVisit;
  }
  return x as unknown as KeptVisit;
}

/** The part of the Web Storage API used here (so the module also type-checks, and runs, outside a browser). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The kept visit in the page's localStorage; a storage that fails (private mode, full) keeps nothing. */
export function localVisitStore(): VisitStore {
  const storage = (): StorageLike | null => {
    try {
      return (globalThis as { localStorage?: StorageLike }).localStorage ?? null;
    } catch {
      return null;
    }
  };
  return {
    save(visit) {
      try {
        storage()?.setItem(VISIT_KEY, JSON.stringify(visit));
      } catch (error) {
        console.warn(`kiosk: could not keep the visit for a reload (${(error as Error).message})`);
      }
    },
    load() {
      try {
        const text = storage()?.getItem(VISIT_KEY);
        return text ? readKeptVisit(JSON.parse(text)) : null;
      } catch {
        return null;
      }
    },
    clear() {
      try {
        storage()?.removeItem(VISIT_KEY);
      } catch {
        // nothing kept where there is no storage
      }
    },
  };
}
