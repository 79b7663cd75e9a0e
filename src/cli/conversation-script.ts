// Conversation test scripts (docs/vfdl.md, "Conversation tests"): reading and checking the YAML,
// with the line of every step so a failed expectation can say where it was written. Every key is checked: a script with an
// unknown key, a value of the wrong kind or a name its flow does not have is invalid. This file
// reads the top level (flow, name, answers) and checks the names; read-steps.ts reads the steps.

import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { didYouMean, type Diagnostic, type DiagnosticCode } from '../engine/language/diagnostics.ts';
import { todayUse } from '../engine/language/check-guards.ts';
import { END, ERROR } from '../engine/language/flow.ts';
import { own } from '../engine/language/records.ts';
import type { LoadedFlow } from '../engine/language/loaded-flow.ts';
import { readFlowSource } from '../engine/language/source.ts';
import { isRealDate } from '../engine/language/values.ts';
import { readSteps } from './read-steps.ts';
import type { CannedAnswer, FlowRef, ReadContext, Script } from './script-types.ts';

const SCRIPT_KEYS = ['flow', 'name', 'today', 'answers', 'steps'];

/** Parses a script; on any problem returns diagnostics in check's format. */
export function parseScript(text: string, file: string): { script: Script } | { diagnostics: Diagnostic[] } {
  const src = readFlowSource(text, file);
  if (src.diagnostics.length) return { diagnostics: src.diagnostics };
  const problems: Diagnostic[] = [];
  const at = (node: unknown) => {
    const range = (node as Node | undefined)?.range;
    return src.lines.linePos(range ? range[0] : 0);
  };
  const problem = (node: unknown, message: string, code: DiagnosticCode = 'bad-value') => {
    const { line, col } = at(node);
    problems.push({ file, line, col, severity: 'error', code, message });
  };
  const ctx: ReadContext = { doc: src.doc, problem, at };
  const root = src.doc.contents;
  const data = src.data as Record<string, unknown> | null;
  if (!isMap(root) || !data || typeof data !== 'object') {
    problem(root, 'a conversation test is a mapping with "flow" and "steps"');
    return { diagnostics: problems };
  }
  for (const k of Object.keys(data)) {
    if (!SCRIPT_KEYS.includes(k)) problem(root.get(k, true) ?? root, `unknown key "${k}"${didYouMean(k, SCRIPT_KEYS)}`, 'unknown-key');
  }
  const { answers, refs: answerRefs } = readAnswers(root.get('answers', true), ctx);
  if (typeof data['flow'] !== 'string') problem(root.get('flow', true) ?? root, '"flow" must name the flow file, relative to this script');
  const today = data['today'];
  if (today !== undefined && !(typeof today === 'string' && isRealDate(today))) {
    problem(root.get('today', true) ?? root, '"today" is the day the test runs on, as YYYY-MM-DD (today: 2025-06-14); quote it if YAML reads it otherwise');
  }
  const stepsNode = root.get('steps', true);
  if (!isSeq(stepsNode)) {
    problem(stepsNode ?? root, '"steps" must be a list of steps');
    return { diagnostics: problems };
  }
  const steps = readSteps(stepsNode, false, ctx);
  const releaseRefs = steps.flatMap((s): FlowRef[] => (s.kind === 'release' ? [{ kind: 'tool', name: s.tool, line: s.line, col: s.col }] : []));
  if (problems.length) return { diagnostics: problems };
  return {
    script: {
      file,
      flow: data['flow'] as string,
      ...(typeof data['name'] === 'string' ? { name: data['name'] } : {}),
      ...(typeof today === 'string' ? { today } : {}),
      answers,
      answerRefs,
      releaseRefs,
      steps,
    },
  };
}

const REF_PROBLEM: Record<FlowRef['kind'], { code: DiagnosticCode; what: string }> = {
  state: { code: 'unknown-target', what: 'is not a state of the flow' },
  variable: { code: 'unknown-variable', what: 'is not a variable of the flow' },
  tool: { code: 'unknown-tool', what: 'is not a tool the flow offers in any state' },
};

/** Checks the names a script's expectations use against its loaded flow, and that it says which day it is when the flow asks. */
export function checkNames(script: Script, loaded: LoadedFlow): Diagnostic[] {
  const known: Record<FlowRef['kind'], readonly string[]> = {
    state: [...loaded.flow.stateOrder, END, ERROR],
    variable: [...loaded.catalog.variables.keys()],
    tool: [...new Set([...loaded.catalog.offered.values()].flat())],
  };
  const out: Diagnostic[] = [];
  const withHttp = new Set<string>();
  for (const t of Object.values(loaded.flow.tools)) if (t.http) withHttp.add(t.name);
  for (const s of Object.values(loaded.flow.states)) for (const t of Object.values(s.tools)) if (t.http) withHttp.add(t.name);
  for (const { name, line, col } of script.answerRefs) {
    if (!withHttp.has(name)) {
      out.push({ file: script.file, line, col, severity: 'error', code: 'unknown-tool', message: `"${name}" is not a tool of the flow with an http effect${didYouMean(name, [...withHttp])}` });
    }
  }
  for (const { name, line, col } of script.releaseRefs) {
    const held = (own(script.answers, name) ?? []).some((a) => a.hold);
    if (!held) {
      const holding = Object.keys(script.answers).filter((tool) => script.answers[tool]!.some((a) => a.hold));
      out.push({ file: script.file, line, col, severity: 'error', code: 'unknown-tool', message: `"${name}" has no answer held (hold: true) in answers, so there is nothing to release${didYouMean(name, holding)}` });
    }
  }
  const asksToday = script.today === undefined ? todayUse(loaded.flow) : undefined;
  if (asksToday) {
    const message = `the flow reads today's date (${asksToday}), so the test must say which day it runs on: add today: 2025-06-14 (any YYYY-MM-DD) at the top`;
    out.push({ file: script.file, line: 1, col: 1, severity: 'error', code: 'missing-key', message });
  }
  for (const step of script.steps) {
    if (step.kind !== 'expect') continue;
    for (const { kind, name, line, col } of step.refs) {
      if (known[kind].includes(name)) continue;
      const { code, what } = REF_PROBLEM[kind];
      out.push({ file: script.file, line, col, severity: 'error', code, message: `"${name}" ${what}${didYouMean(name, known[kind])}` });
    }
  }
  return out;
}

/** `answers`: tool -> a list of `{status, body}` or `{timeout: true}`. */
function readAnswers(node: unknown, ctx: ReadContext): { answers: Record<string, CannedAnswer[]>; refs: FlowRef[] } {
  const answers: Record<string, CannedAnswer[]> = Object.create(null);
  const refs: FlowRef[] = [];
  if (node === undefined) return { answers, refs };
  const shape = 'a canned answer is {status: 200, body: {...}} or {timeout: true}';
  if (!isMap(node)) {
    ctx.problem(node, '"answers" maps tools to lists of canned answers, such as check_in: [{status: 201, body: {queue_number: 4}}]', 'wrong-type');
    return { answers, refs };
  }
  for (const pair of node.items) {
    const tool = isScalar(pair.key) ? String(pair.key.value) : '';
    refs.push({ kind: 'tool', name: tool, ...ctx.at(pair.key) });
    if (!isSeq(pair.value)) {
      ctx.problem(pair.value ?? pair.key, `the answers of ${tool} are a list; ${shape}`, 'wrong-type');
      continue;
    }
    const list: CannedAnswer[] = [];
    for (const item of pair.value.items) {
      const value = isMap(item) ? (item.toJSON() as Record<string, unknown>) : null;
      const line = ctx.at(item).line;
      const keys = ['status', 'body', 'timeout', 'hold'];
      const extra = value ? Object.keys(value).filter((k) => !keys.includes(k)) : [];
      const hold = value?.['hold'] === true ? { hold: true as const } : {};
      const rest = value ? Object.keys(value).filter((k) => k !== 'hold') : [];
      if (value && extra.length) ctx.problem(item, `unknown key "${extra[0]}"${didYouMean(extra[0]!, keys)}; ${shape}`, 'unknown-key');
      else if (value && value['hold'] !== undefined && value['hold'] !== true) ctx.problem(item, 'hold: true holds the answer until a release step gives it; leave hold out to answer at once', 'wrong-type');
      else if (value && value['timeout'] === true && rest.length === 1) list.push({ timeout: true, line, ...hold });
      else if (value && Number.isInteger(value['status']) && (value['status'] as number) >= 100 && (value['status'] as number) <= 599 && value['timeout'] === undefined) {
        list.push({ status: value['status'] as number, ...(Object.hasOwn(value, 'body') ? { body: value['body'] } : {}), line, ...hold });
      } else ctx.problem(item, `${shape} (a status is 100 to 599)`, 'wrong-type');
    }
    answers[tool] = list;
  }
  return { answers, refs };
}
