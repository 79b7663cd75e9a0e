// Property test of the flow engine: every flow of this project and every test flow in Prepatu's
// spelling (and Prepatu's real flows when scripts/check-prepatu.mjs runs this file), driven by
// thousands of random event sequences made from the flow itself, with the engine's invariants
// checked after every step (among them: after a plain "no", the LLM confirms nothing).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { FlowEngine, type EngineView } from '../../src/engine/runtime/engine.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineInput, EngineMessage, ToolCallInput } from '../../src/engine/runtime/messages.ts';
import { copy } from '../../src/engine/language/records.ts';
import { isRefusal } from '../../src/engine/runtime/yes-no.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { messageShapeProblems } from '../support/message-shape.ts';
import { resolveStep, stepsIn, type PlannedStep } from '../support/random-inputs.ts';
import { cases, WALK_CEILING_MS } from '../support/sample-sizes.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OWN_FLOWS = join(REPO, 'flows');
const PREPATU_DIALECT_FLOWS = join(REPO, 'tests/fixtures/prepatu-dialect');
/** The folder of Prepatu's real flows, set only by scripts/check-prepatu.mjs. */
const PREPATU_REAL_FLOWS = process.env['PREPATU_FLOWS'];
/** Random runs per flow: 1000 in a deep run (tests/support/sample-sizes.ts). */
const RUNS_PER_FLOW = cases(1000, 250);
const MAX_STEPS = 40;

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));
}

/** What the test keeps of a view from before a step (the engine's own objects move on). */
type ViewBefore = Pick<EngineView, 'state' | 'epoch' | 'ended' | 'values' | 'gate' | 'pending'>;

function keep(view: EngineView): ViewBefore {
  return {
    state: view.state,
    epoch: view.epoch,
    ended: view.ended,
    // Copies without a prototype, as the engine's own records are (src/engine/language/records.ts).
    values: copy(structuredClone(view.values)),
    gate: copy(view.gate),
    pending: [...view.pending],
  };
}

/** One run through a flow: sends planned steps, checks every invariant after each. */
class Run {
  private readonly clock = new VirtualClock();
  private readonly engine: FlowEngine;
  /** What was sent so far, for the failure message. */
  private readonly transcript: { advanceMs: number; delivered: EngineInput | EngineInput[] | 'start' }[] = [];
  private messages: EngineMessage[] = [];
  private endSeen = false;
  /** the visitor's last turn (an utterance or a tap) was a plain refusal */
  private refused = false;

  constructor(
    private readonly file: string,
    private readonly loaded: LoadedFlow,
  ) {
    this.engine = new FlowEngine(loaded, this.clock);
    this.transcript.push({ advanceMs: 0, delivered: 'start' });
    this.messages = this.engine.start();
    this.checkShapes();
    this.checkEnd();
  }

  /** The state the run is in now. */
  get state(): string {
    return this.engine.view.state;
  }

  step(planned: PlannedStep, index: number): void {
    const before = keep(this.engine.view);
    const { inputs, advanceMs } = resolveStep(planned, before.epoch, `call_${index}`);
    this.clock.advance(advanceMs);
    const delivered = inputs.length === 1 ? inputs[0]! : inputs;
    this.transcript.push({ advanceMs, delivered });
    try {
      this.messages = this.engine.send(delivered);
    } catch (error) {
      this.messages = [];
      this.fail(`send threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    this.checkShapes();
    if (before.ended) {
      this.check(this.messages.length === 0, 'a send after flow_end returned messages');
      this.check(this.engine.view.ended, 'view.ended went back to false after flow_end');
      return;
    }
    this.checkEnd();
    this.checkToolResults(inputs);
    this.checkRejectedCall(inputs, before);
    this.checkGateExit(inputs, before);
    this.checkNoMeansNo(inputs);
  }

  /** Every emitted message has a known type and matches it. */
  private checkShapes(): void {
    const problems = this.messages.flatMap((m) => messageShapeProblems(m));
    this.check(problems.length === 0, `messages do not match their types:\n  ${problems.join('\n  ')}`);
  }

  /** flow_end comes once, and view.ended is true exactly from then on. */
  private checkEnd(): void {
    const ends = this.messages.filter((m) => m.type === 'flow_end').length;
    this.check(ends === 0 || (ends === 1 && !this.endSeen), 'flow_end was emitted more than once');
    this.endSeen ||= ends === 1;
    const ended = this.engine.view.ended;
    this.check(ended === this.endSeen, `view.ended is ${ended}, but flow_end was ${this.endSeen ? '' : 'not '}emitted`);
  }

  /** Each tool call gets exactly one tool_result with its call_id; no result answers anything else. */
  private checkToolResults(inputs: readonly EngineInput[]): void {
    const calls = inputs.filter((i): i is ToolCallInput => i.type === 'tool_call');
    for (const call of calls) {
      const results = this.messages.filter((m) => m.type === 'tool_result' && m.call_id === call.call_id);
      this.check(results.length === 1, `tool call ${call.call_id} (${call.name}) got ${results.length} tool_result messages`);
      this.check(results[0]?.type === 'tool_result' && results[0].tool === call.name, `the tool_result of ${call.call_id} names another tool`);
    }
    const ids = new Set(calls.map((c) => c.call_id));
    for (const m of this.messages) {
      if ((m.type === 'tool_result' || m.type === 'tool_rejected') && !ids.has(m.call_id)) {
        this.fail(`${m.type} for call_id "${m.call_id}", which no tool call of this step has`);
      }
    }
  }

  /** A tool call the engine rejects changes no variable, no gate status and no state. */
  private checkRejectedCall(inputs: readonly EngineInput[], before: ViewBefore): void {
    const call = inputs.length === 1 && inputs[0]!.type === 'tool_call' ? inputs[0] : null;
    if (!call || !this.messages.some((m) => m.type === 'tool_rejected' && m.call_id === call.call_id)) return;
    const after = this.engine.view;
    const change = (what: string, from: unknown, to: unknown) => `rejected ${call.name} changed ${what} from ${JSON.stringify(from)} to ${JSON.stringify(to)}`;
    this.check(isDeepStrictEqual(after.values, before.values), change('values', before.values, after.values));
    this.check(isDeepStrictEqual(after.gate, before.gate), change('the gate', before.gate, after.gate));
    this.check(
      after.state === before.state && after.epoch === before.epoch,
      `rejected ${call.name} moved the flow from ${before.state}#${before.epoch} to ${after.state}#${after.epoch}`,
    );
  }

  /**
   * A pending value never leaves its gated state except by the visitor's own hands: when the
   * state changes in a step without a UI event, each value pending before is unset, or was
   * confirmed or cleared in the step.
   */
  private checkGateExit(inputs: readonly EngineInput[], before: ViewBefore): void {
    const after = this.engine.view;
    const gated = this.loaded.flow.states[before.state]?.gate !== undefined;
    if (!gated || before.pending.length === 0 || after.state === before.state) return;
    if (inputs.some((i) => i.type === 'ui_event')) return;
    const settledInStep = (v: string) => {
      const last = this.messages.filter((m) => m.type === 'flow_variable' && m.name === v).at(-1);
      return last?.type === 'flow_variable' && (last.status === 'confirmed' || last.status === 'cleared');
    };
    const carried = before.pending.filter((v) => after.values[v] !== undefined && !settledInStep(v));
    this.check(
      carried.length === 0,
      `left gated state "${before.state}" for "${after.state}" without a UI event, carrying pending ` +
        carried.map((v) => `${v} = ${JSON.stringify(after.values[v])}`).join(', '),
    );
  }

  /** After a plain "no", the LLM's confirm_* and confirm_action confirm nothing (seed 004). */
  private checkNoMeansNo(inputs: readonly EngineInput[]): void {
    // A step's inputs are taken by priority: its taps (a turn of the visitor's) come before the
    // model's calls, its utterances after them.
    if (inputs.some((i) => i.type === 'ui_event')) this.refused = false;
    for (const input of inputs) {
      if (input.type !== 'tool_call' || !this.refused || !input.name.startsWith('confirm_')) continue;
      const result = this.messages.find((m) => m.type === 'tool_result' && m.call_id === input.call_id);
      // A confirm that finds nothing pending (the visitor typed the value, or "no" cleared it) confirms nothing.
      const confirmed = result?.type === 'tool_result' && result.ok ? result.content : {};
      const took = (Array.isArray(confirmed['confirmed']) && confirmed['confirmed'].length > 0) || confirmed['status'] === 'confirmed';
      this.check(!took, `${input.name} confirmed something right after the visitor said no`);
    }
    const said = inputs.filter((i) => i.type === 'utterance');
    if (said.length > 0) this.refused = isRefusal(said.at(-1)!.text.trim(), this.loaded.flow.language);
  }

  private check(condition: boolean, what: string): void {
    if (!condition) this.fail(what);
  }

  private fail(what: string): never {
    const steps = this.transcript
      .map(({ advanceMs, delivered }, i) => {
        const clock = advanceMs ? `(clock +${advanceMs} ms) ` : '';
        return `  ${i}. ${clock}${delivered === 'start' ? 'start()' : JSON.stringify(delivered)}`;
      })
      .join('\n');
    const messages = this.messages.map((m) => `  ${JSON.stringify(m)}`).join('\n');
    throw new Error(`${this.file}: ${what}\ninputs:\n${steps}\nmessages of the last step:\n${messages || '  (none)'}`);
  }
}

const ownFlows = yamlFiles(OWN_FLOWS);
const prepatuDialectFlows = yamlFiles(PREPATU_DIALECT_FLOWS);
const flowFiles = [...ownFlows, ...prepatuDialectFlows, ...(PREPATU_REAL_FLOWS ? yamlFiles(PREPATU_REAL_FLOWS) : [])];

describe('the flow engine under random input', () => {
  it('finds the project’s own flows', () => {
    expect(ownFlows.length).toBeGreaterThan(0);
  });

  it('finds the test flows in Prepatu’s spelling', () => {
    expect(prepatuDialectFlows.length).toBeGreaterThan(0);
  });

  for (const path of flowFiles) {
    const file = relative(REPO, path);
    it(`${file}: every invariant holds after every step`, { timeout: WALK_CEILING_MS }, () => {
      const result = loadFlow(readFileSync(path, 'utf8'), file);
      expect(result.loaded, result.diagnostics.map(formatDiagnostic).join('\n')).toBeDefined();
      const loaded = result.loaded!;
      const stepsAt = stepsIn(loaded);
      // Each step is drawn for the state the run is in, so the inputs fit where the run has got to.
      // A step may come out as null (rarely) so that shrinking can drop steps from the middle.
      const stepOrSkip = (state: string) => fc.option(stepsAt(state), { nil: null, freq: 50 });
      fc.assert(
        fc.property(fc.gen(), (g) => {
          const run = new Run(file, loaded);
          const length = g(fc.integer, { min: 1, max: MAX_STEPS });
          for (let i = 1; i <= length; i++) {
            const step = g(stepOrSkip, run.state);
            if (step) run.step(step, i);
          }
        }),
        { numRuns: RUNS_PER_FLOW },
      );
    });
  }
});
