// The state of one visitor's run through a flow (the statechart's context), and the Turn: a
// working copy of it plus the messages one step produces. Handlers change the Turn; the machine
// commits it. Nothing here performs anything. Its records keyed by variable names have no
// prototype (records.ts), and every copy keeps it so. A session's records are read-only: a Turn
// copies one the first time it writes to it (`write`), so a step costs what it changes, not the
// size of everything the visitor has said so far.

import type { Catalog } from '../language/catalog.ts';
import { dayOf, isTodayText, resolveToday, TODAY } from '../language/dates.ts';
import { stateDef } from './error-state.ts';
import type { GuardContext } from './guards.ts';
import { shownValue } from './shown-values.ts';
import { variableValue } from './variable-values.ts';
import type { Converted } from '../language/values.ts';
import type { Flow, StateDef } from '../language/flow.ts';
import type { EngineMessage, GateStatus, VariableStatus, FlowVariableMessage } from './messages.ts';
import { copy, dict, own } from '../language/records.ts';

export interface PendingAction {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  summary: string;
  proposedAt: number;
  expiresAt: number;
  /** a user utterance or UI interaction has come in since it was proposed */
  heard: boolean;
}

export interface RunningAction {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  state: string;
  /** the visitor left the state before the answer came */
  left: boolean;
}

export interface Decision {
  target: string;
  cause: 'ui' | 'tool' | 'utterance' | 'timeout' | 'gate' | 'back' | 'max_duration' | 'error' | 'action' | 'no_match' | 'decide';
}

export interface Session {
  /** current state id (`__end__` once ended) */
  state: string;
  /** the visit's language: one of the flow's languages (its texts are shown and spoken in it) */
  language: string;
  values: Readonly<Record<string, unknown>>;
  /** gated variables of the current state */
  gate: Readonly<Record<string, GateStatus>>;
  /** when each pending value's wait for a yes counts from: its capture, moved on by more_time */
  capturedAt: Readonly<Record<string, number>>;
  /** per pending variable: a user turn has come in since it was captured */
  heard: Readonly<Record<string, boolean>>;
  epoch: number;
  now: number;
  startedAt: number;
  /** timeout deadline of the current state (ms), or null */
  deadline: number | null;
  retries: number;
  /** the visitor's answers in a row in this state that came to nothing (on_no_match) */
  noMatch: number;
  history: readonly string[];
  lastUtterance: string;
  /** the visitor's last turn was a plain refusal ("no", "that's wrong"); a tap is a turn too */
  refused: boolean;
  pendingAction: PendingAction | null;
  running: readonly RunningAction[];
  /** the writes (tools with `confirm`) done in this step: none is proposed again until the visitor moves on */
  done: readonly string[];
  seq: number;
  /** the transition decided in this step, taken by the statechart */
  next: Decision | null;
  /** the state being left, while a transition runs */
  from: string | null;
  durationCapped: boolean;
  /** what the visitor's more_time has added to the visit's cap (ms) */
  capExtendedMs: number;
  ended: boolean;
}

export function newSession(flow: Flow, now: number): Session {
  // A date's default of today (or a day counted from it) is the day the visit starts, on the kiosk's clock.
  const start = (v: Flow['variables'][string]) => (v.type === 'date' && isTodayText(v.default) ? (resolveToday(v.default.trim(), dayOf(now)) ?? v.default) : v.default);
  const values = dict(Object.values(flow.variables).flatMap((v) => (v.default !== undefined ? [[v.name, start(v)] as const] : [])));
  return {
    state: flow.initial,
    language: flow.language,
    values,
    gate: dict(),
    capturedAt: dict(),
    heard: dict(),
    epoch: 0,
    now,
    startedAt: now,
    deadline: null,
    retries: 0,
    noMatch: 0,
    history: [],
    lastUtterance: '',
    refused: false,
    pendingAction: null,
    running: [],
    done: [],
    seq: 0,
    next: null,
    from: null,
    durationCapped: false,
    capExtendedMs: 0,
    ended: false,
  };
}

/**
 * Whether a tool's action may not start again now, and why: its HTTP action is running for this
 * step (`running`), or it is a write already done in this step (`done`). Such a tool is not
 * proposed again, by the LLM, a tap or the built-in assistant, so nothing is sent twice.
 */
export function actionBusy(s: Session, tool: string): 'running' | 'done' | undefined {
  if (s.running.some((r) => r.tool === tool && r.state === s.state && !r.left)) return 'running';
  return s.done.includes(tool) ? 'done' : undefined;
}

/** The session's records keyed by variable name, which a step may change in place once copied. */
type Writable = 'values' | 'gate' | 'capturedAt' | 'heard';

/** A working copy of the session for one step, and what the step says. */
export class Turn {
  readonly out: EngineMessage[] = [];
  readonly s: Session;
  /** the records this Turn has copied, and so may change in place */
  private readonly copied = new Set<Writable>();

  constructor(
    readonly flow: Flow,
    readonly cat: Catalog,
    base: Session,
  ) {
    this.s = { ...base };
  }

  /** The session's record `key`, this Turn's own copy of it, to change in place. */
  write<K extends Writable>(key: K): Record<string, Session[K][string]> {
    if (!this.copied.has(key)) {
      this.s[key] = copy(this.s[key]) as Session[K];
      this.copied.add(key);
    }
    return this.s[key] as Record<string, Session[K][string]>;
  }

  /** Puts a record of its own in place of the session's `key` (a fresh gate on entering a state). */
  replace<K extends Writable>(key: K, record: Record<string, Session[K][string]>): void {
    this.s[key] = record as Session[K];
    this.copied.add(key);
  }

  get state(): StateDef | undefined {
    return stateDef(this.flow, this.s.state);
  }

  /** What guards read now: the values, their types and the kiosk's date. */
  get guards(): GuardContext {
    return { value: (name) => own(this.s.values, name), type: (name) => this.cat.variables.get(name)?.type, today: dayOf(this.s.now) };
  }

  /** The values as a visitor reads them (choice labels, dates in words), each worked out when a template asks for it; `today` among them. */
  get shown(): (name: string) => unknown {
    return (name) => shownValue(this.flow, this.cat, name, this.isToday(name) ? dayOf(this.s.now) : own(this.s.values, name));
  }

  /**
   * The values a template is filled in with (a prompt, a `set` text): the visit's, and `today`, the
   * kiosk's date (YYYY-MM-DD), unless the flow has a variable of that name; each worked out when asked.
   */
  get templateValues(): (name: string) => unknown {
    return (name) => (this.isToday(name) ? dayOf(this.s.now) : own(this.s.values, name));
  }

  /** The same values as a record with `args` over them, for what is filled in whole (an HTTP body, analytics data). */
  templateRecord(args: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
    return this.isToday(TODAY) ? copy(this.s.values, { [TODAY]: dayOf(this.s.now) }, args) : copy(this.s.values, args);
  }

  /** `{today}` names the kiosk's date here: the flow has no variable of that name. */
  private isToday(name: string): boolean {
    return name === TODAY && !this.cat.variables.has(TODAY);
  }

  emit(m: EngineMessage): void {
    this.out.push(m);
  }

  system(text: string): void {
    this.emit({ type: 'system_message', text });
  }

  id(prefix: string): string {
    this.s.seq += 1;
    return `${prefix}_${this.s.seq}`;
  }

  /** A raw value (a transcript's capture, a form's text) converted to the variable's type and held to its fields' rules (variable-values.ts). */
  convert(name: string, raw: unknown): Converted {
    return variableValue(this.flow, this.cat, name, raw, dayOf(this.s.now));
  }

  isGated(name: string): boolean {
    return Object.hasOwn(this.s.gate, name);
  }

  /** Sets a variable and reports it. A gated variable becomes pending unless `confirmed`. */
  setValue(name: string, value: unknown, source: FlowVariableMessage['source'], confirmed = false): void {
    if (source !== 'hook') this.s.noMatch = 0;
    if (!Object.hasOwn(this.s.values, name) || !Object.is(this.s.values[name], value)) this.write('values')[name] = value;
    let status: VariableStatus = 'set';
    if (this.isGated(name)) {
      status = confirmed ? 'confirmed' : 'pending';
      this.write('gate')[name] = status;
      if (status === 'pending') {
        this.write('capturedAt')[name] = this.s.now;
        this.write('heard')[name] = false;
      } else {
        this.forget(name);
      }
    }
    this.emit({ type: 'flow_variable', name, value, status, source });
  }

  /**
   * Sets a value the flow or a service gives (a `set`, an HTTP capture) converted to the
   * variable's type; null stores null, as before. One that does not convert is not stored, and
   * the LLM is told why. Returns whether it was stored.
   */
  setConverted(name: string, value: unknown, source: FlowVariableMessage['source'], confirmed = false): boolean {
    // A date set to today (or a day counted from it) is that day on the kiosk's clock.
    if ((this.cat.variables.get(name)?.type ?? 'string') === 'date' && isTodayText(value)) value = resolveToday(value.trim(), dayOf(this.s.now)) ?? value;
    // Text for a text variable is kept as written (its spaces too).
    if (value === null || value === undefined || (typeof value === 'string' && (this.cat.variables.get(name)?.type ?? 'string') === 'string')) {
      this.setValue(name, value, source, confirmed);
      return true;
    }
    // A service's answer put in a variable the flow does not declare keeps the service's own type
    // (a queue number stays a number): nothing says what it should be.
    if (source === 'action' && !Object.hasOwn(this.flow.variables, name) && ['number', 'boolean'].includes(typeof value)) {
      this.setValue(name, value, source, confirmed);
      return true;
    }
    const c = this.convert(name, value);
    if (!c.ok) {
      this.system(`[flow engine] ${name} was not set (${source}): ${c.problem}.`);
      return false;
    }
    this.setValue(name, c.value, source, confirmed);
    return true;
  }

  clearValue(name: string, source: FlowVariableMessage['source']): void {
    if (source !== 'hook') this.s.noMatch = 0;
    const had = Object.hasOwn(this.s.values, name);
    if (had) delete this.write('values')[name];
    if (this.isGated(name)) this.write('gate')[name] = 'empty';
    this.forget(name);
    if (had) this.emit({ type: 'flow_variable', name, value: null, status: 'cleared', source });
  }

  /** Drops what the gate kept about a capture of `name` (when, and whether the visitor has spoken since). */
  private forget(name: string): void {
    if (Object.hasOwn(this.s.capturedAt, name)) delete this.write('capturedAt')[name];
    if (Object.hasOwn(this.s.heard, name)) delete this.write('heard')[name];
  }

  pendingVars(): string[] {
    return Object.keys(this.s.gate).filter((v) => this.s.gate[v] === 'pending');
  }

  /** A user utterance or UI interaction: the visitor has had a say since every capture so far. */
  userActivity(): void {
    for (const v of this.pendingVars()) if (this.s.heard[v] !== true) this.write('heard')[v] = true;
    if (this.s.pendingAction) this.s.pendingAction = { ...this.s.pendingAction, heard: true };
    const to = this.state?.transitions.onTimeout;
    if (to && this.s.deadline !== null) this.s.deadline = this.s.now + to.seconds * 1000;
  }

  go(target: string, cause: Decision['cause']): void {
    this.s.next = { target, cause };
  }

  get decided(): boolean {
    return this.s.next !== null;
  }
}
