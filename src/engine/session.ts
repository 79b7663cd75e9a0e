// The state of one visitor's run through a flow (the statechart's context), and the Turn: a
// working copy of it plus the messages one step produces. Handlers change the Turn; the machine
// commits it. Nothing here performs anything. Its records keyed by variable names have no
// prototype (records.ts), and every copy keeps it so.

import type { Catalog } from './catalog.ts';
import { stateDef } from './error-state.ts';
import { shownValues } from './shown-values.ts';
import { convertValue, type Converted } from './values.ts';
import type { Flow, StateDef } from './flow.ts';
import type { EngineMessage, GateStatus, VariableStatus, FlowVariableMessage } from './messages.ts';
import { MAX_TEXT_CHARS } from './limits.ts';
import { copy, dict } from './records.ts';

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
  cause: 'ui' | 'tool' | 'utterance' | 'timeout' | 'gate' | 'back' | 'max_duration' | 'error' | 'action';
}

export interface Session {
  /** current state id (`__end__` once ended) */
  state: string;
  values: Record<string, unknown>;
  /** gated variables of the current state */
  gate: Record<string, GateStatus>;
  capturedAt: Record<string, number>;
  /** per pending variable: a user turn has come in since it was captured */
  heard: Record<string, boolean>;
  epoch: number;
  now: number;
  startedAt: number;
  /** timeout deadline of the current state (ms), or null */
  deadline: number | null;
  retries: number;
  history: string[];
  lastUtterance: string;
  /** the visitor's last turn was a plain refusal ("no", "that's wrong"); a tap is a turn too */
  refused: boolean;
  pendingAction: PendingAction | null;
  running: RunningAction[];
  seq: number;
  /** the transition decided in this step, taken by the statechart */
  next: Decision | null;
  /** the state being left, while a transition runs */
  from: string | null;
  durationCapped: boolean;
  ended: boolean;
}

export function newSession(flow: Flow, now: number): Session {
  const values = dict(Object.values(flow.variables).flatMap((v) => (v.default !== undefined ? [[v.name, v.default] as const] : [])));
  return {
    state: flow.initial,
    values,
    gate: dict(),
    capturedAt: dict(),
    heard: dict(),
    epoch: 0,
    now,
    startedAt: now,
    deadline: null,
    retries: 0,
    history: [],
    lastUtterance: '',
    refused: false,
    pendingAction: null,
    running: [],
    seq: 0,
    next: null,
    from: null,
    durationCapped: false,
    ended: false,
  };
}

/** A working copy of the session for one step, and what the step says. */
export class Turn {
  readonly out: EngineMessage[] = [];
  readonly s: Session;

  constructor(
    readonly flow: Flow,
    readonly cat: Catalog,
    base: Session,
  ) {
    this.s = {
      ...base,
      values: copy(base.values),
      gate: copy(base.gate),
      capturedAt: copy(base.capturedAt),
      heard: copy(base.heard),
      history: [...base.history],
      running: [...base.running],
    };
  }

  get state(): StateDef | undefined {
    return stateDef(this.flow, this.s.state);
  }

  /** The values as a visitor reads them (choice labels, dates in words). */
  get shown(): Record<string, unknown> {
    return shownValues(this.flow, this.cat, this.s.values);
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

  /**
   * A raw value (a transcript's capture, a form's text) converted to the variable's type. A text
   * longer than MAX_TEXT_CHARS is refused, as an utterance or a tool's argument would be, so no
   * guard pattern ever runs on a longer one.
   */
  convert(name: string, raw: unknown): Converted {
    if (typeof raw === 'string' && raw.length > MAX_TEXT_CHARS) {
      return { ok: false, problem: `${raw.length} characters, more than the ${MAX_TEXT_CHARS} a text may have` };
    }
    const info = this.cat.variables.get(name);
    return convertValue(info?.type ?? 'string', raw, info?.enum);
  }

  isGated(name: string): boolean {
    return Object.hasOwn(this.s.gate, name);
  }

  /** Sets a variable and reports it. A gated variable becomes pending unless `confirmed`. */
  setValue(name: string, value: unknown, source: FlowVariableMessage['source'], confirmed = false): void {
    this.s.values[name] = value;
    let status: VariableStatus = 'set';
    if (this.isGated(name)) {
      status = confirmed ? 'confirmed' : 'pending';
      this.s.gate[name] = status;
      if (status === 'pending') {
        this.s.capturedAt[name] = this.s.now;
        this.s.heard[name] = false;
      } else {
        delete this.s.capturedAt[name];
        delete this.s.heard[name];
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
    const had = Object.hasOwn(this.s.values, name);
    delete this.s.values[name];
    if (this.isGated(name)) this.s.gate[name] = 'empty';
    delete this.s.capturedAt[name];
    delete this.s.heard[name];
    if (had) this.emit({ type: 'flow_variable', name, value: null, status: 'cleared', source });
  }

  pendingVars(): string[] {
    return Object.keys(this.s.gate).filter((v) => this.s.gate[v] === 'pending');
  }

  /** A user utterance or UI interaction: the visitor has had a say since every capture so far. */
  userActivity(): void {
    for (const v of this.pendingVars()) this.s.heard[v] = true;
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
