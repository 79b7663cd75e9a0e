// `npm run bench`: what the VFDL layer costs. On a generated 200-state flow it times
// parse+validate, building the engine, and the engine's cost per event, beside a hand-written
// XState machine of the same shape driven with the same events in the same run. The two are timed
// in turns (one run of each, then again), so a busy moment of the machine falls on both alike and
// their ratio holds where the absolute times do not. `npm run bench -- --check` also fails when a
// ratio passes its limit in bench/limits.json: the median ratio of this process and two more.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createActor } from 'xstate';
import { formatDiagnostic } from '../src/engine/language/diagnostics.ts';
import { FlowEngine } from '../src/engine/runtime/engine.ts';
import { loadFlow, type LoadedFlow } from '../src/engine/language/load-flow.ts';
import type { EngineInput, EngineMessage } from '../src/engine/runtime/messages.ts';
import { VirtualClock } from '../src/ports/clock.ts';
import { buildBaselineMachine, type BaselineEvent } from './baseline-machine.ts';
import { ADVANCE_TOOL, chainSteps, flowYaml, walk, type Step, type WalkEvent } from './generate-flow.ts';
import { worstCappedPattern } from './patterns.ts';
import { quantile, summarize } from './stats.ts';

const STATE_COUNT = 200;

// ------------------------------------------------------------------ harness

interface Plan {
  warmup: number;
  /** stop after this many timed runs... */
  maxRuns: number;
  /** ...or once the timed runs add up to this, whichever comes first (but never below minRuns) */
  budgetMs: number;
  minRuns: number;
}

interface Timing {
  median: number;
  p95: number;
  runs: number;
}

/** Times `run` (ms) on a fresh input from `prepare`, which is not timed. */
function measure<T>(plan: Plan, prepare: () => T, run: (input: T) => void): Timing {
  return measurePair(plan, { prepare, run }, null)[0];
}

interface Subject<T> {
  prepare: () => T;
  run: (input: T) => void;
}

function timeOnce<T>(subject: Subject<T>): number {
  const input = subject.prepare();
  const t0 = performance.now();
  subject.run(input);
  return performance.now() - t0;
}

function timing(samples: number[]): Timing {
  samples.sort((a, b) => a - b);
  return { median: quantile(samples, 0.5), p95: quantile(samples, 0.95), runs: samples.length };
}

/**
 * Times two subjects in turns (a, b, b, a, ...), so that whatever else the machine does in a
 * moment costs both alike; the second is optional.
 */
function measurePair<A, B>(plan: Plan, a: Subject<A>, b: Subject<B> | null): [Timing, Timing | null] {
  for (let i = 0; i < plan.warmup; i++) {
    timeOnce(a);
    if (b) timeOnce(b);
  }
  const as: number[] = [];
  const bs: number[] = [];
  let spent = 0;
  while (as.length < plan.maxRuns && (spent < plan.budgetMs || as.length < plan.minRuns)) {
    const first = as.length % 2 === 0;
    if (first || !b) as.push(timeOnce(a));
    if (b) bs.push(timeOnce(b));
    if (!first && b) as.push(timeOnce(a));
    spent += as[as.length - 1]! + (b ? bs[bs.length - 1]! : 0);
  }
  return [timing(as), b ? timing(bs) : null];
}

/** The same timing in another unit (e.g. per event). */
function scaled(t: Timing, factor: number): Timing {
  return { median: t.median * factor, p95: t.p95 * factor, runs: t.runs };
}

// ------------------------------------------------------------------ the two drivers

function engineInputs(events: readonly WalkEvent[]): EngineInput[] {
  // A fresh entry starts a new epoch: the engine starts in epoch 1, step i runs in epoch i + 1.
  return events.map((e, n): EngineInput => {
    const epoch = e.step.index + 1;
    const call_id = `call_${n}`;
    switch (e.kind) {
      case 'utterance':
        return { type: 'utterance', text: e.text };
      case 'save':
        return { type: 'tool_call', name: `save_${e.step.variable}`, args: { [e.step.variable]: e.step.answer }, epoch, call_id };
      case 'advance':
        return { type: 'tool_call', name: ADVANCE_TOOL, args: {}, epoch, call_id };
      case 'confirm':
        return { type: 'tool_call', name: `confirm_${e.step.variable}`, args: {}, epoch, call_id };
    }
  });
}

function baselineEvents(events: readonly WalkEvent[]): BaselineEvent[] {
  return events.map((e): BaselineEvent => {
    switch (e.kind) {
      case 'utterance':
        return { type: 'utterance', text: e.text };
      case 'save':
        return { type: 'save', value: e.step.answer };
      case 'advance':
        return { type: 'advance' };
      case 'confirm':
        return { type: 'confirm' };
    }
  });
}

function startEngine(loaded: LoadedFlow): FlowEngine {
  const engine = new FlowEngine(loaded, new VirtualClock());
  engine.start();
  return engine;
}

function startBaseline(steps: readonly Step[]) {
  return createActor(buildBaselineMachine(steps, new VirtualClock())).start();
}

/** Walks both once with every event checked, so the timed walks are known to do the real work. */
function checkWalks(loaded: LoadedFlow, steps: readonly Step[], events: readonly WalkEvent[]): void {
  const fail = (what: string): never => {
    throw new Error(`bench: ${what}`);
  };
  const inputs = engineInputs(events);
  const engine = startEngine(loaded);
  const out: EngineMessage[] = [];
  events.forEach((e, i) => {
    if (engine.view.state !== e.step.state) fail(`engine in ${engine.view.state}, expected ${e.step.state}`);
    out.push(...engine.send(inputs[i]!));
  });
  const rejected = out.filter((m) => m.type === 'tool_rejected');
  if (rejected.length) fail(`engine rejected a tool call: ${JSON.stringify(rejected[0])}`);
  const blocked = out.filter((m) => m.type === 'transition_blocked').length;
  const gated = steps.filter((s) => s.gated).length;
  if (blocked !== gated) fail(`engine blocked ${blocked} advances, expected ${gated} (one per gated step)`);
  if (!engine.view.ended || Object.keys(engine.view.values).length !== steps.length) fail('engine walk did not end with every value');

  const actor = startBaseline(steps);
  baselineEvents(events).forEach((ev, i) => {
    const at = actor.getSnapshot().value;
    if (at !== events[i]!.step.state) fail(`baseline in ${String(at)}, expected ${events[i]!.step.state}`);
    actor.send(ev);
  });
  const end = actor.getSnapshot();
  if (end.status !== 'done' || Object.keys(end.context.values).length !== steps.length) fail('baseline walk did not end with every value');
}

// ------------------------------------------------------------------ report

interface Row {
  figure: string;
  unit: string;
  ours: Timing;
  baseline?: Timing;
  /** what one "op" is for ops/s: a run, or an event */
  perSecond: (median: number) => number;
}

function fmt(x: number): string {
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

function table(rows: readonly Row[]): string {
  const header = ['figure', 'unit', 'VFDL median', 'VFDL p95', 'VFDL ops/s', 'XState median', 'XState p95', 'XState ops/s', 'VFDL/XState', 'runs'];
  const body = rows.map((r) => {
    const b = r.baseline;
    return [
      r.figure,
      r.unit,
      fmt(r.ours.median),
      fmt(r.ours.p95),
      r.perSecond(r.ours.median).toFixed(0),
      b ? fmt(b.median) : '-',
      b ? fmt(b.p95) : '-',
      b ? r.perSecond(b.median).toFixed(0) : '-',
      b ? `${(r.ours.median / b.median).toFixed(1)}x` : '-',
      b ? `${r.ours.runs}/${b.runs}` : String(r.ours.runs),
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((row) => row[c]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

// ------------------------------------------------------------------ run

/** The generated flow and its walk, loaded and checked once. */
interface Bench {
  steps: Step[];
  yaml: string;
  events: WalkEvent[];
  loaded: LoadedFlow;
}

function prepareBench(): Bench {
  const steps = chainSteps(STATE_COUNT);
  const yaml = flowYaml(steps);
  const events = walk(steps);
  const result = loadFlow(yaml, 'bench_chain.yaml');
  if (!result.loaded || result.diagnostics.length > 0) {
    throw new Error(`bench: the generated flow does not load cleanly:\n${result.diagnostics.map(formatDiagnostic).join('\n')}`);
  }
  checkWalks(result.loaded, steps, events);
  return { steps, yaml, events, loaded: result.loaded };
}

/** The figures timed beside the XState baseline: building, and the walk per event. */
function pairedRows({ steps, yaml, events, loaded }: Bench): Row[] {
  // Few runs: each loads the 200-state flow afresh first (untimed, a third of a second).
  const buildPlan: Plan = { warmup: 5, maxRuns: 40, budgetMs: 8000, minRuns: 30 };
  // A flow loaded afresh for each run: the engine makes a flow's statechart once and every later
  // visit of that flow shares it, so the build is timed only on a flow it has not seen.
  const fresh = () => loadFlow(yaml, 'bench_chain.yaml').loaded!;
  const [buildOurs, buildBaseline] = measurePair(buildPlan, { prepare: fresh, run: startEngine }, { prepare: () => steps, run: startBaseline });

  const walkPlan: Plan = { warmup: 10, maxRuns: 300, budgetMs: 16000, minRuns: 30 };
  const inputs = engineInputs(events);
  const baselineInputs = baselineEvents(events);
  const [walkOurs, walkBaseline] = measurePair(
    walkPlan,
    {
      prepare: () => startEngine(loaded),
      run: (engine) => {
        for (const input of inputs) engine.send(input);
      },
    },
    {
      prepare: () => startBaseline(steps),
      run: (actor) => {
        for (const ev of baselineInputs) actor.send(ev);
      },
    },
  );
  const perEvent = 1000 / events.length; // ms per walk -> µs per event
  return [
    { figure: 'build (engine / machine + actor, start)', unit: 'ms/run', ours: buildOurs, baseline: buildBaseline!, perSecond: (ms) => 1000 / ms },
    {
      figure: `send, full walk (${events.length} events)`,
      unit: 'µs/event',
      ours: scaled(walkOurs, perEvent),
      baseline: scaled(walkBaseline!, perEvent),
      perSecond: (us) => 1e6 / us,
    },
  ];
}

/** Each paired figure's VFDL/XState ratio of the medians. */
function ratiosOf(rows: readonly Row[]): Record<string, number> {
  return Object.fromEntries(rows.filter((r) => r.baseline).map((r) => [r.figure, r.ours.median / r.baseline!.median]));
}

function main(): void {
  const bench = prepareBench();
  // A process of the check's (see checkLimits): the paired figures' ratios only, as JSON.
  if (process.argv.includes(RATIOS_ONLY)) {
    console.log(JSON.stringify(ratiosOf(pairedRows(bench))));
    return;
  }
  const { steps, yaml, events } = bench;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`Node ${process.version} | ${cpu} | ${os.cpus().length} cores`);
  console.log(
    `flow: ${steps.length} states (${steps.filter((s) => s.gated).length} gated, ${steps.filter((s) => s.form).length} with a form), ` +
      `${yaml.split('\n').length} lines / ${(yaml.length / 1024).toFixed(0)} KiB of YAML; walk: ${events.length} events`,
  );
  console.log('');

  const parse = measure({ warmup: 5, maxRuns: 200, budgetMs: 6000, minRuns: 20 }, () => yaml, (text) => {
    if (!loadFlow(text, 'bench_chain.yaml').loaded) throw new Error('bench: load failed');
  });
  const rows: Row[] = [{ figure: 'parse+validate (loadFlow on the YAML)', unit: 'ms/run', ours: parse, perSecond: (ms) => 1000 / ms }, ...pairedRows(bench)];
  console.log(table(rows));
  console.log('');
  console.log('XState = the same chain hand-written with setup().createMachine(), see bench/baseline-machine.ts.');
  console.log('ops/s = runs per second, or events per second for the walk; VFDL/XState = ratio of the medians.');
  console.log('');
  const worst = worstCappedPattern();
  console.log(`slowest accepted pattern on a capped utterance: ${worst.ms.toFixed(1)} ms (/${worst.pattern}/i on ${worst.text}); see bench/patterns.ts`);
  if (process.argv.includes('--check')) checkLimits(ratiosOf(rows));
}

/** bench/limits.json: the most each VFDL/XState ratio may be, by figure, and the margin for a busy machine. */
interface Limits {
  margin: number;
  ratios: Record<string, number>;
}

/** The flag that makes a process time the paired figures only and print their ratios. */
const RATIOS_ONLY = '--ratios-only';

/**
 * How many processes the check's ratios come from (this one among them). A process's ratio of the
 * walk moves by a tenth and more from one process to the next (where V8's compilers happened to
 * land), more than within one: the median of three is the figure checked.
 */
const CHECK_PROCESSES = 3;

/** The paired ratios of a fresh process of this bench. */
function ratiosOfAnotherProcess(): Record<string, number> {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), RATIOS_ONLY], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
}

/** Fails (exit 1) when the median ratio of CHECK_PROCESSES processes is above its limit and margin; says what each was. */
function checkLimits(own: Record<string, number>): void {
  const limits = JSON.parse(readFileSync(new URL('./limits.json', import.meta.url), 'utf8')) as Limits;
  const runs = [own, ...Array.from({ length: CHECK_PROCESSES - 1 }, ratiosOfAnotherProcess)];
  let failed = false;
  console.log('');
  for (const [prefix, limit] of Object.entries(limits.ratios)) {
    const figure = Object.keys(own).find((f) => f.startsWith(prefix));
    const seen = figure ? runs.map((r) => r[figure]).filter((x): x is number => typeof x === 'number') : [];
    if (!figure || seen.length !== runs.length) {
      console.log(`check: no figure "${prefix}" with a baseline in every process`);
      failed = true;
      continue;
    }
    const ratio = summarize(seen)!.p50;
    const most = limit * (1 + limits.margin);
    const verdict = ratio <= limit ? 'ok' : ratio <= most ? `over the limit, within the ${limits.margin * 100}% margin for a busy machine` : 'TOO SLOW';
    failed ||= ratio > most;
    console.log(`check: ${figure}: VFDL/XState ${ratio.toFixed(2)}x, the median of ${runs.length} processes (${seen.map((x) => `${x.toFixed(2)}x`).join(', ')}), limit ${limit}x: ${verdict}`);
  }
  if (failed) process.exit(1);
}

main();
