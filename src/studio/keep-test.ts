// "Keep this as a test": a visit the author made in the preview, turned into a conversation test
// (`*.test.yaml`, docs/vfdl.md) that `vfdl test` runs unchanged. Each input the preview's engine
// took becomes a step (a tap a `ui`, a typed or heard line a `user`, a tool the assistant called a
// `tool`, time that made something happen a `wait`, a change of language a `language`), each
// action's answer goes into `answers`, and after each step that moved the visit an `expect` says
// the state it reached and the values that changed. The steps are played as `vfdl test` plays
// them as they are written, and the test is kept only when it follows the visit to its end and
// then passes as a whole.

import { stringify } from 'yaml';
import type { LoadedFlow } from '../engine/language/loaded-flow.ts';
import { noonOf } from '../engine/language/dates.ts';
import { FlowEngine } from '../engine/runtime/engine.ts';
import type { ActionDoneInput, EngineInput, EngineMessage } from '../engine/runtime/messages.ts';
import { VirtualClock } from '../ports/clock.ts';
import { cannedDone, letTimePass, runScriptText } from '../cli/play-script.ts';
import type { CannedAnswer } from '../cli/script-types.ts';
import type { PreviewAnswer } from './preview-link.ts';
import type { PreviewInput } from './preview-link.ts';

/** A visit the preview showed, as the studio heard it. */
export interface RecordedVisit {
  /** the day it ran on (YYYY-MM-DD): the test runs on it */
  today: string;
  /** where the preview started, when not at the flow's start (such a visit cannot be a test) */
  startedAt: string | null;
  inputs: readonly PreviewInput[];
}

export type KeptTest = { text: string } | { problem: string };

type StepData = Record<string, unknown>;
type Answer = PreviewAnswer;

/** An action's answer as a test writes it (`answers:`), from what the engine was told. */
function answerOf(done: ActionDoneInput): Answer {
  if (done.ok) return { status: 200, body: done.data ?? null };
  if (done.status !== undefined) return { status: done.status };
  return /^timeout\b/.test(done.error ?? '') ? { timeout: true } : { status: 502 };
}

/** One input as a step of a test; null for what a test does not write (an action's answer, time). */
function stepOf(input: EngineInput, epoch: number): StepData | null | { problem: string } {
  switch (input.type) {
    case 'utterance':
      return { user: input.text };
    case 'tool_call': {
      const at = input.epoch === epoch ? {} : { epoch: input.epoch === epoch - 1 ? 'previous' : input.epoch };
      return { tool: input.name, args: input.args ?? {}, ...at };
    }
    case 'ui_event': {
      const { type: _type, event, selected_id, ...rest } = input;
      return { ui: event, ...rest, ...(selected_id !== undefined ? { selected_id } : {}) };
    }
    case 'action_done':
    case 'tick':
      return null;
    case 'fatal_error':
      return { problem: `the visit failed (${input.message}), which a test cannot play` };
  }
}

/** The values that differ from those last expected, as an `expect` writes them. */
function changedValues(now: Readonly<Record<string, unknown>>, before: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(now), ...Object.keys(before)])) {
    if (JSON.stringify(now[name]) !== JSON.stringify(before[name])) out[name] = now[name] ?? null;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Plays the recorded inputs on an engine of its own, as `vfdl test` will, writing the steps as it goes. */
class Replay {
  readonly steps: StepData[] = [];
  readonly answers: Record<string, Answer[]> = {};
  private readonly clock: VirtualClock;
  private readonly engine: FlowEngine;
  /** tool -> the answers not yet given, in order */
  private readonly pending = new Map<string, Answer[]>();
  private expected: Readonly<Record<string, unknown>> = {};
  private expectedState = '';

  constructor(loaded: LoadedFlow, today: string, inputs: readonly PreviewInput[]) {
    // The answers each tool's actions got, in order: given as soon as an action runs, as in a test.
    const tools = new Map(inputs.flatMap((r) => r.runs.map((run) => [run.action_id, run.tool] as const)));
    for (const r of inputs) {
      if (r.kind !== 'send' || Array.isArray(r.input) || (r.input as EngineInput).type !== 'action_done') continue;
      const done = r.input as ActionDoneInput;
      const tool = tools.get(done.action_id);
      if (!tool) continue;
      (this.answers[tool] ??= []).push(answerOf(done));
    }
    for (const [tool, list] of Object.entries(this.answers)) this.pending.set(tool, [...list]);
    this.clock = new VirtualClock(noonOf(today));
    this.engine = new FlowEngine(loaded, this.clock);
    this.record(this.engine.start());
    this.expected = { ...this.engine.view.values };
    this.expectedState = this.engine.view.state;
  }

  /** Answers each action a step asked for at once, with its tool's next answer. */
  private record(messages: readonly EngineMessage[]): void {
    for (const m of messages) {
      if (m.type !== 'action_run') continue;
      const answer = this.pending.get(m.tool)?.shift();
      if (answer) this.record(this.engine.send(cannedDone(m.action_id, { ...answer, line: 0 } as CannedAnswer)));
    }
  }

  /** Plays one recorded input; a problem when it cannot be written as a step. */
  play(r: PreviewInput): string | undefined {
    if (r.kind === 'language') {
      this.steps.push({ language: r.language });
      this.record(this.engine.setLanguage(r.language));
      return undefined;
    }
    const inputs: readonly EngineInput[] = Array.isArray(r.input) ? r.input : [r.input as EngineInput];
    if (inputs.length === 1 && inputs[0]!.type === 'tick') return r.changed ? this.wait() : undefined;
    const steps: StepData[] = [];
    for (const input of inputs) {
      const step = stepOf(input, this.engine.view.epoch);
      if (step && 'problem' in step) return step.problem as string;
      if (step) steps.push(step);
    }
    if (steps.length === 0) return undefined;
    this.steps.push(steps.length === 1 ? steps[0]! : { together: steps });
    const sent = inputs.filter((i) => i.type !== 'action_done' && i.type !== 'tick');
    this.record(this.engine.send(sent.length === 1 ? sent[0]! : sent));
    return undefined;
  }

  /** Time made something happen in the preview: the test waits until the engine's next deadline. */
  private wait(): string | undefined {
    const due = this.engine.view.nextDeadline;
    if (due === null) return 'time made something happen in the preview that the test has no deadline for';
    const seconds = Math.max(0, Math.ceil((due - this.clock.now()) / 1000));
    this.steps.push({ wait: seconds });
    letTimePass(seconds, this.engine, this.clock, (ms) => this.record(ms));
    return undefined;
  }

  /** Where the test's engine is now. */
  get where(): { state: string; ended: boolean } {
    return { state: this.engine.view.state, ended: this.engine.view.ended };
  }

  /** An `expect` of the state and the values changed, when the visit moved since the last one. */
  expect(final: boolean): void {
    const view = this.engine.view;
    const values = changedValues(view.values, this.expected);
    if (!final && view.state === this.expectedState && !view.ended) return;
    if (final && !values && view.state === this.expectedState && this.steps.at(-1)?.['expect']) return;
    this.steps.push({ expect: { ...(view.ended ? { ended: true } : { state: view.state }), ...(values ? { variables: values } : {}) } });
    this.expected = { ...view.values };
    this.expectedState = view.state;
  }
}

/**
 * The test for a visit, as YAML text, or why it cannot be kept. `flowPath` is the flow file as the
 * test names it (relative to where the test is kept); `name` what the test says it does.
 */
export function keepTest(loaded: LoadedFlow, visit: RecordedVisit, flowPath: string, name: string): KeptTest {
  if (visit.startedAt !== null) return { problem: `this visit started at "${visit.startedAt}", and a test starts where the flow starts: start over from the beginning to keep a test` };
  const replay = new Replay(loaded, visit.today, visit.inputs);
  for (const [i, r] of visit.inputs.entries()) {
    const problem = replay.play(r);
    if (problem) return { problem };
    // The actions this input ran are answered at once in a test, but after it in the preview: the
    // two meet again at the answers' inputs.
    if (r.runs.length > 0) continue;
    const where = replay.where;
    if (where.state !== r.state || where.ended !== r.ended) {
      return { problem: `the test would not follow the visit: after input ${i + 1} the preview was in "${r.state}" and the test in "${where.state}"` };
    }
    replay.expect(false);
  }
  replay.expect(true);
  if (!replay.steps.some((s) => !('expect' in s))) return { problem: 'nothing was done in this visit yet: tap, type or speak in the preview first' };
  const script = { flow: flowPath, name, today: visit.today, ...(Object.keys(replay.answers).length ? { answers: replay.answers } : {}), steps: replay.steps };
  const text = `# Kept in the flow studio from a visit in its preview: vfdl test plays it as it was.\n${stringify(script, { lineWidth: 0 })}`;
  const outcome = runScriptText(text, `${name}.test.yaml`, loaded);
  if (outcome.status !== 'passed') return { problem: `the test made from this visit does not pass: ${outcome.message}` };
  return { text };
}
