// `vfdl test SCRIPT...`: runs conversation tests headless on a virtual clock, the LLM's part
// scripted. Exit 0 when every expectation holds, 1 when one does not (naming the script, the
// step's line and what differed), 2 when a flow or script is invalid.

import { dirname, resolve, relative } from 'node:path';
import { formatDiagnostic } from '../engine/diagnostics.ts';
import { FlowEngine } from '../engine/engine.ts';
import { loadFlow } from '../engine/load-flow.ts';
import type { EngineInput, EngineMessage } from '../engine/messages.ts';
import { VirtualClock } from '../ports/clock.ts';
import { parseScript, type Expectation, type Step } from './conversation-script.ts';
import { expandFiles, readText, type Io } from './io.ts';

type Outcome = { status: 'passed'; steps: number } | { status: 'failed'; message: string } | { status: 'invalid'; message: string };

export function runTests(paths: readonly string[], io: Io): number {
  const files = expandFiles(paths);
  if (files.length === 0) {
    io.err('vfdl test: no conversation tests given');
    return 2;
  }
  let passed = 0;
  let failed = 0;
  let invalid = 0;
  for (const file of files) {
    const outcome = runScript(file, io);
    if (outcome.status === 'passed') {
      passed++;
      if (!io.json) io.out(`ok    ${file} (${outcome.steps} steps)`);
    } else if (outcome.status === 'failed') {
      failed++;
      io.out(`FAIL  ${file}\n${outcome.message}`);
    } else {
      invalid++;
      io.out(`ERROR ${file}\n${outcome.message}`);
    }
  }
  if (!io.json) io.out(`${passed} passed, ${failed + invalid} failed`);
  if (invalid) return 2;
  return failed ? 1 : 0;
}

function runScript(file: string, io: Io): Outcome {
  const read = readText(file);
  if ('problem' in read) return { status: 'invalid', message: `${file}: error: cannot read: ${read.problem}` };
  const parsed = parseScript(read.text, file);
  if ('diagnostics' in parsed) return { status: 'invalid', message: parsed.diagnostics.map(formatDiagnostic).join('\n') };
  const script = parsed.script;
  const flowPath = relative(process.cwd(), resolve(dirname(file), script.flow));
  const flowText = readText(flowPath);
  if ('problem' in flowText) return { status: 'invalid', message: `${flowPath}: error: cannot read: ${flowText.problem}` };
  const result = loadFlow(flowText.text, flowPath);
  if (!result.loaded) {
    return { status: 'invalid', message: result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic).join('\n') };
  }

  const clock = new VirtualClock(0);
  const engine = new FlowEngine(result.loaded, clock);
  let window: EngineMessage[] = [];
  const record = (ms: EngineMessage[]) => {
    if (io.json) for (const m of ms) io.out(JSON.stringify(m));
    window.push(...ms);
  };
  record(engine.start());
  let count = 0;

  const toInput = (step: Step): EngineInput => {
    switch (step.kind) {
      case 'user':
        return { type: 'utterance', text: step.text };
      case 'tool': {
        const now = engine.view.epoch;
        const epoch = step.epoch === 'current' ? now : step.epoch === 'previous' ? now - 1 : step.epoch;
        return { type: 'tool_call', name: step.name, args: step.args, epoch, call_id: step.callId ?? `call_line_${step.line}` };
      }
      case 'ui':
        return {
          type: 'ui_event',
          event: step.event,
          ...(step.values ? { values: step.values } : {}),
          ...(step.variable !== undefined ? { variable: step.variable } : {}),
          ...(step.value !== undefined ? { value: step.value } : {}),
          ...(step.selectedId !== undefined ? { selected_id: step.selectedId } : {}),
        };
      default:
        throw new Error(`vfdl test: a ${step.kind} step cannot be sent as one input`);
    }
  };

  for (const step of script.steps) {
    count++;
    switch (step.kind) {
      case 'wait': {
        // Let time pass as a kiosk would: every deadline on the way fires at its own moment.
        const until = clock.now() + step.seconds * 1000;
        for (let due = engine.view.nextDeadline; due !== null && due <= until; due = engine.view.nextDeadline) {
          if (due > clock.now()) clock.advance(due - clock.now());
          const before = engine.view.nextDeadline;
          record(engine.tick());
          if (engine.view.nextDeadline === before) break;
        }
        clock.advance(until - clock.now());
        record(engine.tick());
        break;
      }
      case 'together':
        record(engine.send(step.steps.map(toInput)));
        break;
      case 'expect': {
        const differences = compare(step.expect, engine, window);
        if (differences.length) {
          return { status: 'failed', message: differences.map((d) => `${file}:${step.line}: expect failed: ${d}`).join('\n') };
        }
        window = [];
        break;
      }
      default:
        record(engine.send(toInput(step)));
    }
  }
  return { status: 'passed', steps: count };
}

const show = (v: unknown) => (v === undefined ? 'unset' : JSON.stringify(v));
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === new Set(a).size;

function isSubsequence(wanted: readonly string[], seen: readonly string[]): boolean {
  let i = 0;
  for (const s of seen) if (i < wanted.length && s === wanted[i]) i++;
  return i === wanted.length;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function compare(ex: Expectation, engine: FlowEngine, window: readonly EngineMessage[]): string[] {
  const v = engine.view;
  const diffs: string[] = [];
  if (ex.state !== undefined && v.state !== ex.state) diffs.push(`state is "${v.state}", expected "${ex.state}"`);
  if (ex.ended !== undefined && v.ended !== ex.ended) diffs.push(`ended is ${v.ended}, expected ${ex.ended}`);
  for (const [k, want] of Object.entries(ex.variables ?? {})) {
    const got = v.values[k];
    if (want === null ? got !== undefined : !deepEqual(got, want)) diffs.push(`variable ${k} is ${show(got)}, expected ${want === null ? 'unset' : show(want)}`);
  }
  if (ex.pending && !sameSet(v.pending, ex.pending)) diffs.push(`pending is [${v.pending.join(', ')}], expected [${ex.pending.join(', ')}]`);
  if (ex.tools && !sameSet(v.tools, ex.tools)) diffs.push(`tools are [${v.tools.join(', ')}], expected [${ex.tools.join(', ')}]`);
  const types = window.map((m) => m.type);
  if (ex.emitted && !isSubsequence(ex.emitted, types)) diffs.push(`emitted [${types.join(', ')}], expected [${ex.emitted.join(', ')}] in this order`);
  for (const t of ex.not_emitted ?? []) if (types.includes(t as EngineMessage['type'])) diffs.push(`${t} was emitted, expected not`);
  const reasons = window.flatMap((m) => (m.type === 'tool_rejected' ? [m.reason] : []));
  if (ex.rejected && !isSubsequence(ex.rejected, reasons)) diffs.push(`rejections were [${reasons.join(', ')}], expected [${ex.rejected.join(', ')}] in this order`);
  return diffs;
}
