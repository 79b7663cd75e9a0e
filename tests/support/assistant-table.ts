// The built-in assistant's table of typed visitor lines (tests/fixtures/assistant/lines.yaml):
// reading it, bringing a visit of a bundled flow to the step a line is said at (through the
// kiosk's own conversation loop, src/voice/conversation.ts, with the built-in assistant as the
// model), saying the line, and telling what went wrong, if anything. The clinic's actions are
// answered as the local clinic service answers them (tests/servers/clinic-service.ts).

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import type { ActionRunMessage, EngineMessage, UiEventInput } from '../../src/engine/runtime/messages.ts';
import { isBlank } from '../../src/engine/language/values.ts';
import type { Clock } from '../../src/ports/clock.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { Conversation, type ConversationEvents } from '../../src/voice/conversation.ts';
import { ManualTimers } from './conversation-harness.ts';
import { appointmentOf } from '../servers/clinic-service.ts';

/** One thing the visitor does before the line: says or types words, taps, or picks a language on screen. */
export type Step = string | { tap: string; value?: string; values?: Record<string, string> } | { language: string };

/** Where a line is said: a visit of a bundled flow brought there by `before`. */
export interface Setup {
  flow: string;
  language: string;
  before: Step[];
  /** the step the line is said at (checked before the line) */
  step: string;
  /** the values waiting for the visitor's yes when it is said (checked before the line) */
  waiting?: string[];
  /** an action waiting for the visitor's yes */
  action?: boolean;
}

/** What must hold once the line has been answered. */
export interface Expected {
  /** the step the visit is at (`ended` once the flow has ended) */
  step?: string;
  /** values waiting for a yes, with what they hold; nothing else may wait */
  waiting?: Record<string, unknown>;
  /** values held (waiting or not) */
  values?: Record<string, unknown>;
  /** variables that hold nothing */
  empty?: string[];
  /** an action waiting for a yes (true), or none (false) */
  action?: boolean;
  /** words the kiosk's answer must contain (case and accents as written) */
  says?: string[];
  /** words it must not contain */
  not_says?: string[];
}

/** One line of the table. */
export interface Line {
  at: string;
  line: string;
  /** what kind of line it is, for the share by kind */
  kind: string;
  then: Expected;
  /** a known miss: why a rule-based assistant does not handle it (the line is still run and counted) */
  miss?: string;
}

export interface Table {
  setups: Record<string, Setup>;
  lines: Line[];
}

export function readTable(url: URL): Table {
  return parse(readFileSync(url, 'utf8')) as Table;
}

const flows = new Map<string, LoadedFlow>();

function flowNamed(name: string): LoadedFlow {
  let loaded = flows.get(name);
  if (!loaded) {
    const r = loadFlow(readFileSync(new URL(`../../flows/${name}.yaml`, import.meta.url), 'utf8'), `${name}.yaml`);
    if (!r.loaded) throw new Error(`${name}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
    loaded = r.loaded;
    flows.set(name, loaded);
  }
  return loaded;
}

/** Midday on 15 June 2025: the kiosk's today in the table. */
const TODAY: Clock = { now: () => new Date(2025, 5, 15, 12).getTime() };

/** The clinic's answer to an action, as tests/servers/clinic-service.ts gives it. */
function clinicAnswer(run: ActionRunMessage): { ok: boolean; data?: unknown; status?: number; error?: string } {
  if (run.tool === 'check_in') return { ok: true, data: { check_in_id: 'c-1', queue_number: 7 } };
  const found = appointmentOf(String(run.values['full_name'] ?? ''), String(run.values['date_of_birth'] ?? ''));
  if (found) return { ok: true, data: { appointment_id: found.appointment_id, doctor: found.doctor, time: found.time } };
  return { ok: false, status: 404, error: 'http: the service answered 404' };
}

/** A visit run by the kiosk's conversation loop, with what the kiosk said. */
export class TableVisit {
  readonly engine: FlowEngine;
  readonly conversation: Conversation;
  readonly said: string[] = [];
  private readonly runs: ActionRunMessage[] = [];

  constructor(setup: Setup) {
    const loaded = flowNamed(setup.flow);
    this.engine = new FlowEngine(loaded.inLanguage(setup.language), new VirtualClock(0));
    const events: ConversationEvents = {
      engine: (ms: readonly EngineMessage[]) => this.runs.push(...ms.filter((m): m is ActionRunMessage => m.type === 'action_run')),
      agentSpeech: (_reply, text, final) => {
        if (final) this.said.push(text);
      },
      visitorSpeech: () => undefined,
      notice: () => undefined,
      busy: () => undefined,
    };
    const agent = new OfflineAgent(TODAY);
    this.conversation = new Conversation(this.engine, agent, agent, new VirtualClock(0), new ManualTimers(), events);
  }

  async start(): Promise<void> {
    this.conversation.start();
    await this.settle();
  }

  async do(step: Step): Promise<void> {
    if (typeof step === 'string') this.conversation.say(step);
    else if ('language' in step) this.conversation.setLanguage(step.language);
    else this.conversation.ui({ type: 'ui_event', event: step.tap, ...(step.value === undefined ? {} : { value: step.value }), ...(step.values ? { values: step.values } : {}) } as UiEventInput);
    await this.settle();
  }

  /** Waits for the turns, answering every action the engine asks for, until nothing more happens. */
  private async settle(): Promise<void> {
    for (let i = 0; i < 10; i++) {
      await this.conversation.settled();
      const run = this.runs.shift();
      if (!run) return;
      this.conversation.actionDone({ type: 'action_done', action_id: run.action_id, ...clinicAnswer(run) });
    }
  }

  /** What does not hold of `then` now, in words (empty when all of it holds). */
  problems(then: Expected, answer: string): string[] {
    const view = this.engine.view;
    const out: string[] = [];
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const at = view.ended ? 'ended' : view.state;
    if (then.step !== undefined && at !== then.step) out.push(`at ${at}, not ${then.step}`);
    if (then.waiting !== undefined) {
      const waiting = Object.fromEntries(view.pending.map((v) => [v, view.values[v]]));
      if (!same(waiting, then.waiting)) out.push(`waiting ${JSON.stringify(waiting)}, not ${JSON.stringify(then.waiting)}`);
    }
    for (const [name, value] of Object.entries(then.values ?? {})) {
      if (!same(view.values[name], value)) out.push(`${name} is ${JSON.stringify(view.values[name])}, not ${JSON.stringify(value)}`);
    }
    for (const name of then.empty ?? []) if (!isBlank(view.values[name])) out.push(`${name} holds ${JSON.stringify(view.values[name])}`);
    if (then.action !== undefined && (view.pendingAction !== null) !== then.action) out.push(then.action ? 'no action waits' : `an action waits: ${view.pendingAction?.summary}`);
    for (const words of then.says ?? []) if (!answer.includes(words)) out.push(`the answer lacks «${words}»`);
    for (const words of then.not_says ?? []) if (answer.includes(words)) out.push(`the answer has «${words}»`);
    return out;
  }
}

/** The outcome of one line: what the kiosk answered and what went wrong. */
export interface Outcome {
  answer: string;
  problems: string[];
}

/** Runs one line of the table: the visit to its step, the line, the check. */
export async function runLine(table: Table, line: Line): Promise<Outcome> {
  const setup = table.setups[line.at];
  if (!setup) throw new Error(`no setup named ${line.at}`);
  const visit = new TableVisit(setup);
  await visit.start();
  for (const step of setup.before) await visit.do(step);
  const there = visit.problems({ step: setup.step, waiting: Object.fromEntries((setup.waiting ?? []).map((v) => [v, visit.engine.view.values[v]])), action: setup.action ?? false }, '');
  if (there.length > 0) throw new Error(`setup ${line.at} does not reach its step: ${there.join('; ')}`);
  const before = visit.said.length;
  await visit.do(line.line);
  const answer = visit.said.slice(before).join(' ');
  return { answer, problems: visit.problems(line.then, answer) };
}
