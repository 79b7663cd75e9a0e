// A visit as plain JSON, and back: what a runtime keeps so that a reload or a crash returns to
// the same state with the same values. Reading one back checks it against the flow (same flow,
// same version, same text; a state that exists; a shape that fits) and enters nothing: no
// on_enter hooks, no new epoch, no model turn, no action run. Pending values and a pending action
// stay pending; deadlines keep the time they had left.

import type { LoadedFlow } from '../language/loaded-flow.ts';
import { stateDef } from './error-state.ts';
import type { Flow } from '../language/flow.ts';
import type { GateStatus } from './messages.ts';
import { dict } from '../language/records.ts';
import type { PendingAction, RunningAction, Session } from './session.ts';

export const SNAPSHOT_FORMAT = 1;

/** Which flow a snapshot belongs to: a changed flow file never resumes an old visit. */
export interface FlowIdentity {
  id: string;
  version: string | null;
  /** a hash of the whole flow as loaded: any change to the file changes it */
  fingerprint: string;
}

/** The session between steps: what the statechart's context holds, less the step's own notes. */
export type SessionData = Omit<Session, 'next' | 'from'>;

/** One visit, plain JSON data (JSON.stringify and JSON.parse give it back unchanged). */
export interface EngineSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  flow: FlowIdentity;
  /** the engine's clock when it was taken (ms) */
  takenAt: number;
  session: SessionData;
}

/** cyrb53: a fast 53-bit string hash, plenty to tell two versions of a flow apart. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** Fingerprints by flow object: a loaded flow never changes, and a snapshot is taken at every step. */
const fingerprints = new WeakMap<Flow, string>();

export function flowIdentity(flow: Flow): FlowIdentity {
  let fingerprint = fingerprints.get(flow);
  if (fingerprint === undefined) {
    fingerprint = hash(JSON.stringify(flow));
    fingerprints.set(flow, fingerprint);
  }
  return { id: flow.id, version: flow.version ?? null, fingerprint };
}

/** The session as plain JSON data, taken between steps. */
export function takeSnapshot(flow: Flow, session: Session, now: number): EngineSnapshot {
  if (session.next !== null || session.from !== null) throw new Error(`flow engine: a snapshot in the middle of a step (state "${session.state}")`);
  const { next: _next, from: _from, ...data } = session;
  return { format: SNAPSHOT_FORMAT, flow: flowIdentity(flow), takenAt: now, session: JSON.parse(JSON.stringify(data)) as SessionData };
}

export interface RestoreOptions {
  /**
   * How much of the time between the snapshot and now the visit's timers should count: the
   * kiosk gives the wall-clock time it was gone. Default 0: the timers carry on from where they
   * stood, as if no time had passed.
   */
  awayMs?: number;
}

/** A session read back, or why it cannot be (the runtime then starts afresh). */
export type Restored = { session: Session } | { problem: string };

const GATE_STATUSES: readonly GateStatus[] = ['empty', 'pending', 'confirmed'];

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isTime = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

/** A record of `check`ed entries as a record without a prototype, or null when one does not fit. */
function entries<T>(x: unknown, check: (k: string, v: unknown) => v is T): Record<string, T> | null {
  if (!isRecord(x)) return null;
  const out = dict<T>();
  for (const [k, v] of Object.entries(x)) {
    if (!check(k, v)) return null;
    out[k] = v;
  }
  return out;
}

function pendingAction(x: unknown): PendingAction | null | undefined {
  if (x === null) return null;
  if (!isRecord(x) || typeof x['id'] !== 'string' || typeof x['tool'] !== 'string' || typeof x['summary'] !== 'string') return undefined;
  if (!isRecord(x['args']) || !isTime(x['proposedAt']) || !isTime(x['expiresAt']) || typeof x['heard'] !== 'boolean') return undefined;
  return { id: x['id'], tool: x['tool'], args: x['args'], summary: x['summary'], proposedAt: x['proposedAt'], expiresAt: x['expiresAt'], heard: x['heard'] };
}

function runningActions(x: unknown): RunningAction[] | undefined {
  if (!Array.isArray(x)) return undefined;
  const out: RunningAction[] = [];
  for (const r of x as unknown[]) {
    if (!isRecord(r) || typeof r['id'] !== 'string' || typeof r['tool'] !== 'string' || typeof r['state'] !== 'string') return undefined;
    if (!isRecord(r['args']) || typeof r['left'] !== 'boolean') return undefined;
    out.push({ id: r['id'], tool: r['tool'], args: r['args'], state: r['state'], left: r['left'] });
  }
  return out;
}

/**
 * Reads a snapshot back for `loaded` (in its default language) at clock time `now`. Anything that does not fit (another
 * flow or version, a state that is gone, an ended visit, a damaged record) is a problem, never
 * a half-restored session. Times move by (now - takenAt - awayMs).
 */
export function restoreSession(loaded: LoadedFlow, data: unknown, now: number, options: RestoreOptions = {}): Restored {
  if (!isRecord(data) || data['format'] !== SNAPSHOT_FORMAT) return { problem: 'not a snapshot of this engine' };
  const want = flowIdentity(loaded.flow);
  const flow = data['flow'];
  if (!isRecord(flow) || flow['id'] !== want.id || flow['version'] !== want.version || flow['fingerprint'] !== want.fingerprint) {
    return { problem: 'the flow has changed since the snapshot' };
  }
  const s = data['session'];
  const takenAt = data['takenAt'];
  if (!isRecord(s) || !isTime(takenAt)) return { problem: 'the snapshot is damaged' };
  if (s['ended'] !== false) return { problem: 'the visit had ended' };
  const state = s['state'];
  const def = typeof state === 'string' ? stateDef(loaded.flow, state) : undefined;
  if (typeof state !== 'string' || !def || def.terminal) return { problem: `the flow has no state "${String(state)}" to resume in` };

  const gateVars = new Set(def.gate?.variables ?? []);
  const values = entries(s['values'], (_k, _v): _v is unknown => true);
  const gate = entries(s['gate'], (k, v): v is GateStatus => gateVars.has(k) && GATE_STATUSES.includes(v as GateStatus));
  const capturedAt = entries(s['capturedAt'], (_k, v): v is number => isTime(v));
  const heard = entries(s['heard'], (_k, v): v is boolean => typeof v === 'boolean');
  const history = Array.isArray(s['history']) && s['history'].every((h) => typeof h === 'string' && stateDef(loaded.flow, h)) ? (s['history'] as string[]) : null;
  const action = pendingAction(s['pendingAction']);
  const running = runningActions(s['running']);
  const deadline = s['deadline'];
  const times = [s['now'], s['startedAt']];
  if (gate && Object.keys(gate).length !== gateVars.size) return { problem: 'the snapshot is damaged' };
  if (!values || !gate || !capturedAt || !heard || !history || action === undefined || !running || !times.every(isTime)) {
    return { problem: 'the snapshot is damaged' };
  }
  if (!(deadline === null || isTime(deadline)) || !isCount(s['epoch']) || !isCount(s['retries']) || !isCount(s['seq'])) {
    return { problem: 'the snapshot is damaged' };
  }
  if (typeof s['lastUtterance'] !== 'string' || typeof s['durationCapped'] !== 'boolean') return { problem: 'the snapshot is damaged' };

  // Older snapshots have no language, and a flow may have dropped one: the flow's own language then.
  const language = loaded.flow.languages.find((tag) => tag === s['language']) ?? loaded.flow.defaultLanguage;

  const shift = now - takenAt - (options.awayMs ?? 0);
  const moved = (t: number) => t + shift;
  for (const v of Object.keys(capturedAt)) capturedAt[v] = moved(capturedAt[v]!);
  return {
    session: {
      state,
      language,
      values,
      gate,
      capturedAt,
      heard,
      epoch: s['epoch'] as number,
      now: moved(s['now'] as number),
      startedAt: moved(s['startedAt'] as number),
      deadline: deadline === null ? null : moved(deadline as number),
      retries: s['retries'] as number,
      // Older snapshots did not count answers that came to nothing: none so far.
      noMatch: isCount(s['noMatch']) ? s['noMatch'] : 0,
      history,
      lastUtterance: s['lastUtterance'],
      // Unknown: the safe side, so the model cannot confirm anything until the visitor's next turn.
      refused: typeof s['refused'] === 'boolean' ? s['refused'] : true,
      pendingAction: action && { ...action, proposedAt: moved(action.proposedAt), expiresAt: moved(action.expiresAt) },
      running,
      // Older snapshots kept no writes done in the step: none so far.
      done: Array.isArray(s['done']) && s['done'].every((d) => typeof d === 'string') ? (s['done'] as string[]) : [],
      seq: s['seq'] as number,
      next: null,
      from: null,
      durationCapped: s['durationCapped'],
      // Older snapshots had no more time on the visit's cap: none so far.
      capExtendedMs: isTime(s['capExtendedMs']) && s['capExtendedMs'] >= 0 ? s['capExtendedMs'] : 0,
      ended: false,
    },
  };
}
