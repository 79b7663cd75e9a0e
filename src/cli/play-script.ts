// Playing a conversation test against the engine: its steps sent one by one on a virtual clock,
// each action answered with the script's canned answer, each expect compared with what happened.
// No file is read here, so the same code runs in `vfdl test` (test-command.ts) and in the flow
// studio's page.

import { noonOf } from '../engine/language/dates.ts';
import type { LoadedFlow } from '../engine/language/load-flow.ts';
import { FlowEngine } from '../engine/runtime/engine.ts';
import type { ActionDoneInput, EngineErrorMessage, EngineInput, EngineMessage, FlowStateMessage } from '../engine/runtime/messages.ts';
import { VirtualClock } from '../ports/clock.ts';
import { formatDiagnostic } from '../engine/language/diagnostics.ts';
import { checkNames, parseScript } from './conversation-script.ts';
import { compare } from './expectations.ts';
import type { CannedAnswer, Script, Step } from './script-types.ts';

/** How a script came out: passed (with its number of steps), failed (what differed), or invalid (why it cannot run). */
export type Outcome = { status: 'passed'; steps: number } | { status: 'failed'; message: string } | { status: 'invalid'; message: string };

/** A canned answer as the kiosk's server would report it to the engine. */
export function cannedDone(actionId: string, answer: CannedAnswer): ActionDoneInput {
  if ('timeout' in answer) return { type: 'action_done', action_id: actionId, ok: false, error: 'timeout: the service did not answer in time' };
  if (answer.status >= 200 && answer.status < 300) return { type: 'action_done', action_id: actionId, ok: true, data: answer.body ?? null };
  return { type: 'action_done', action_id: actionId, ok: false, error: `http: the service answered ${answer.status}`, status: answer.status };
}

/** Plays a script's steps against a new engine on a virtual clock, checking each expect; passed, or failed at the first that does not hold. */
export function play(script: Script, loaded: LoadedFlow, heard?: (messages: readonly EngineMessage[]) => void): Outcome {
  const file = script.file;
  // A flow that compares with today runs on the script's day; a day's noon keeps a visit's waits within it.
  const clock = new VirtualClock(script.today === undefined ? 0 : noonOf(script.today));
  const engine = new FlowEngine(loaded, clock);
  let window: EngineMessage[] = [];
  let flowState: FlowStateMessage | null = null;
  const answers = new Map(Object.entries(script.answers).map(([tool, list]) => [tool, [...list]]));
  let failure: EngineErrorMessage | null = null;
  const record = (ms: EngineMessage[]) => {
    heard?.(ms);
    for (const m of ms) if (m.type === 'flow_state') flowState = m;
    failure ??= ms.find((m): m is EngineErrorMessage => m.type === 'engine_error') ?? null;
    window.push(...ms);
    // Each request gets its tool's next canned answer at once; without one it stays unanswered.
    for (const m of ms) {
      if (m.type !== 'action_run') continue;
      const answer = answers.get(m.tool)?.shift();
      if (answer) record(engine.send(cannedDone(m.action_id, answer)));
    }
  };
  /** A step the engine failed on fails the test, whatever its expectations say: it is a bug. */
  const failed = (where: string): Outcome | null =>
    failure && { status: 'failed', message: `${where}: the flow engine failed in state "${failure.state}": ${failure.message} (a bug in the engine; please report it)` };
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
      case 'together':
        record(engine.send(step.steps.map((inner) => toInput(inner, engine.view.epoch))));
        break;
      case 'expect': {
        const view = engine.view;
        const toolSpecs = view.ended ? [] : (engine.loaded.catalog.toolSpecs.get(view.state) ?? []);
        const differences = compare(step.expect, { view, window, flowState, toolSpecs });
        if (differences.length) {
          return { status: 'failed', message: differences.map((d) => `${file}:${step.line}: expect failed: ${d}`).join('\n') };
        }
        window = [];
        break;
      }
      default:
        record(engine.send(toInput(step, engine.view.epoch)));
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
