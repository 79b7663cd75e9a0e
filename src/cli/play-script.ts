// Playing a conversation test against the engine: its steps sent one by one on a virtual clock,
// each action answered with the script's canned answer, each expect compared with what happened.
// No file is read here, so the same code runs in `vfdl test` (test-command.ts) and in the flow
// studio's page.

import { noonOf } from '../engine/language/dates.ts';
import type { LoadedFlow } from '../engine/language/loaded-flow.ts';
import { FlowEngine } from '../engine/runtime/engine.ts';
import type { EngineErrorMessage, EngineInput, EngineMessage, FlowStateMessage } from '../engine/runtime/messages.ts';
import { VirtualClock } from '../ports/clock.ts';
import { formatDiagnostic } from '../engine/language/diagnostics.ts';
import { checkNames, parseScript } from './conversation-script.ts';
import { compare } from './expectations.ts';
import { takeAwayLines } from '../engine/runtime/shown-values.ts';
import { CannedAnswers } from './canned-answers.ts';
import type { Script, Step } from './script-types.ts';
import { uiProblem } from './ui-offered.ts';

/** How a script came out: passed (with its number of steps), failed (what differed), or invalid (why it cannot run). */
export type Outcome = { status: 'passed'; steps: number } | { status: 'failed'; message: string } | { status: 'invalid'; message: string };

export { cannedDone } from './canned-answers.ts';

/** Plays a script's steps against a new engine on a virtual clock, checking each expect; passed, or failed at the first that does not hold. */
export function play(script: Script, loaded: LoadedFlow, heard?: (messages: readonly EngineMessage[]) => void): Outcome {
  const file = script.file;
  // A flow that compares with today runs on the script's day; a day's noon keeps a visit's waits within it.
  const clock = new VirtualClock(script.today === undefined ? 0 : noonOf(script.today));
  const engine = new FlowEngine(loaded, clock);
  let window: EngineMessage[] = [];
  let flowState: FlowStateMessage | null = null;
  const service = new CannedAnswers(script.answers);
  let failure: EngineErrorMessage | null = null;
  const record = (ms: EngineMessage[]) => {
    heard?.(ms);
    for (const m of ms) if (m.type === 'flow_state') flowState = m;
    failure ??= ms.find((m): m is EngineErrorMessage => m.type === 'engine_error') ?? null;
    window.push(...ms);
    // Each request gets its tool's next canned answer at once (or when a `release` step gives a
    // held one); without one it stays unanswered.
    for (const m of ms) {
      const done = m.type === 'action_run' ? service.answer(m) : undefined;
      if (done) record(engine.send(done));
    }
  };
  /** A step the engine failed on fails the test, whatever its expectations say: it is a bug. */
  const failed = (where: string): Outcome | null =>
    failure && { status: 'failed', message: `${where}: the flow engine failed in state "${failure.state}": ${failure.message} (a bug in the engine; please report it)` };
  /** A ui step the screen could not send now, said with the reason; the kiosk never sends it. */
  const refusedTap = (step: Step): string | undefined => {
    const problem = step.kind === 'ui' ? uiProblem(step, engine.view, flowState) : undefined;
    return problem && `ui ${step.kind === 'ui' ? step.event : ''} refused: ${problem}`;
  };
  record(engine.start());
  const atStart = failed(`${file}:1`);
  if (atStart) return atStart;
  let count = 0;

  for (const step of script.steps) {
    count++;
    switch (step.kind) {
      case 'wait':
        letTimePass(step.seconds, engine, clock, record);
        break;
      case 'language':
        // The visitor chose another language on the screen.
        record(engine.setLanguage(step.language));
        break;
      case 'together': {
        const refused = step.steps.map((inner) => refusedTap(inner)).find((r) => r !== undefined);
        if (refused) return { status: 'failed', message: `${file}:${step.line}: ${refused}` };
        record(engine.send(step.steps.map((inner) => toInput(inner, engine.view.epoch))));
        break;
      }
      case 'release': {
        const done = service.release(step.tool);
        if (!done) return { status: 'failed', message: `${file}:${step.line}: release failed: no request of ${step.tool} waits for its held answer (each held answer is given to one request, once)` };
        record(engine.send(done));
        break;
      }
      case 'expect': {
        const view = engine.view;
        const toolSpecs = view.ended ? [] : (engine.loaded.catalog.toolSpecs.get(view.state) ?? []).filter((t) => view.tools.includes(t.function.name));
        const given = takeAwayLines(engine.loaded.flow, engine.loaded.catalog, view.values);
        const differences = compare(step.expect, { view, window, flowState, toolSpecs, given });
        if (differences.length) {
          return { status: 'failed', message: differences.map((d) => `${file}:${step.line}: expect failed: ${d}`).join('\n') };
        }
        window = [];
        break;
      }
      default: {
        const refused = refusedTap(step);
        if (refused) return { status: 'failed', message: `${file}:${step.line}: ${refused}` };
        record(engine.send(toInput(step, engine.view.epoch)));
      }
    }
    const broke = failed(`${file}:${step.line}`);
    if (broke) return broke;
  }
  return { status: 'passed', steps: count };
}

/** A `wait` step: lets time pass as a kiosk would, every deadline on the way firing at its own moment. */
export function letTimePass(seconds: number, engine: FlowEngine, clock: VirtualClock, record: (ms: EngineMessage[]) => void): void {
  const until = clock.now() + seconds * 1000;
  for (let due = engine.view.nextDeadline; due !== null && due <= until; due = engine.view.nextDeadline) {
    if (due > clock.now()) clock.advance(due - clock.now());
    const before = engine.view.nextDeadline;
    record(engine.tick());
    if (engine.view.nextDeadline === before) break;
  }
  clock.advance(until - clock.now());
  record(engine.tick());
}

/** A user, tool or ui step as the one engine input it stands for; `epoch` is the engine's epoch now. */
function toInput(step: Step, epoch: number): EngineInput {
  switch (step.kind) {
    case 'user':
      return { type: 'utterance', text: step.text };
    case 'tool': {
      const at = step.epoch === 'current' ? epoch : step.epoch === 'previous' ? epoch - 1 : step.epoch;
      return { type: 'tool_call', name: step.name, args: step.args, epoch: at, call_id: step.callId ?? `call_line_${step.line}` };
    }
    case 'ui':
      return {
        type: 'ui_event',
        event: step.event,
        ...(step.values ? { values: step.values } : {}),
        ...(step.variable !== undefined ? { variable: step.variable } : {}),
        ...(step.variables !== undefined ? { variables: step.variables } : {}),
        ...(step.value !== undefined ? { value: step.value } : {}),
        ...(step.selectedId !== undefined ? { selected_id: step.selectedId } : {}),
      };
    default:
      throw new Error(`vfdl test: a ${step.kind} step cannot be sent as one input`);
  }
}

/**
 * Runs a script given as text against a flow already loaded (the flow its `flow:` names is not
 * read: the caller gives it). The studio runs the tests of the flow being edited this way.
 */
export function runScriptText(text: string, file: string, loaded: LoadedFlow): Outcome {
  const parsed = parseScript(text, file);
  if ('diagnostics' in parsed) return { status: 'invalid', message: parsed.diagnostics.map(formatDiagnostic).join('\n') };
  const unknownNames = checkNames(parsed.script, loaded);
  if (unknownNames.length) return { status: 'invalid', message: unknownNames.map(formatDiagnostic).join('\n') };
  return play(parsed.script, loaded);
}
