// Conversation test scripts (SPEC 8): reading and checking the YAML, with the line of every step
// so a failed expectation can say where it was written.

import { isMap, isSeq, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import { didYouMean, type Diagnostic } from '../engine/diagnostics.ts';
import { readFlowSource } from '../engine/source.ts';

export type EpochRef = 'current' | 'previous' | number;

export type Step =
  | { kind: 'user'; text: string; line: number }
  | { kind: 'tool'; name: string; args: unknown; epoch: EpochRef; callId?: string; line: number }
  | { kind: 'ui'; event: string; values?: Record<string, unknown>; variable?: string; value?: unknown; selectedId?: string; line: number }
  | { kind: 'wait'; seconds: number; line: number }
  | { kind: 'together'; steps: Step[]; line: number }
  | { kind: 'expect'; expect: Expectation; line: number };

export interface Expectation {
  state?: string;
  variables?: Record<string, unknown>;
  pending?: string[];
  tools?: string[];
  emitted?: string[];
  not_emitted?: string[];
  rejected?: string[];
  ended?: boolean;
}

export interface Script {
  file: string;
  flow: string;
  name?: string;
  steps: Step[];
}

const STEP_KEYS: Record<string, readonly string[]> = {
  user: ['user'],
  tool: ['tool', 'args', 'epoch', 'call_id'],
  ui: ['ui', 'values', 'variable', 'value', 'selected_id'],
  wait: ['wait'],
  together: ['together'],
  expect: ['expect'],
};
const EXPECT_KEYS = ['state', 'variables', 'pending', 'tools', 'emitted', 'not_emitted', 'rejected', 'ended'];

/** Parses a script; on any problem returns diagnostics in check's format. */
export function parseScript(text: string, file: string): { script: Script } | { diagnostics: Diagnostic[] } {
  const src = readFlowSource(text, file);
  if (src.diagnostics.length) return { diagnostics: src.diagnostics };
  const problems: Diagnostic[] = [];
  const at = (node: unknown) => {
    const range = (node as Node | undefined)?.range;
    return src.lines.linePos(range ? range[0] : 0);
  };
  const problem = (node: unknown, message: string) => {
    const { line, col } = at(node);
    problems.push({ file, line, col, severity: 'error', code: 'bad-value', message });
  };
  const root = src.doc.contents;
  const data = src.data as Record<string, unknown> | null;
  if (!isMap(root) || !data || typeof data !== 'object') {
    problem(root, 'a conversation test is a mapping with "flow" and "steps"');
    return { diagnostics: problems };
  }
  for (const k of Object.keys(data)) {
    if (!['flow', 'steps', 'name'].includes(k)) problem(root.get(k, true) ?? root, `unknown key "${k}"${didYouMean(k, ['flow', 'steps', 'name'])}`);
  }
  if (typeof data['flow'] !== 'string') problem(root.get('flow', true) ?? root, '"flow" must name the flow file, relative to this script');
  const stepsNode = root.get('steps', true);
  if (!isSeq(stepsNode)) {
    problem(stepsNode ?? root, '"steps" must be a list of steps');
    return { diagnostics: problems };
  }
  const steps = readSteps(stepsNode, false, problem, (n) => at(n).line);
  if (problems.length) return { diagnostics: problems };
  return {
    script: {
      file,
      flow: data['flow'] as string,
      ...(typeof data['name'] === 'string' ? { name: data['name'] } : {}),
      steps,
    },
  };
}

function readSteps(
  seq: YAMLSeq,
  nested: boolean,
  problem: (node: unknown, message: string) => void,
  lineOf: (node: unknown) => number,
): Step[] {
  const steps: Step[] = [];
  for (const item of seq.items) {
    if (!isMap(item)) {
      problem(item, 'a step is a mapping such as {user: "..."} or {tool: name, args: {...}}');
      continue;
    }
    const map = item as YAMLMap;
    const obj = map.toJSON() as Record<string, unknown>;
    const kind = Object.keys(STEP_KEYS).find((k) => k in obj);
    if (!kind) {
      const first = Object.keys(obj)[0] ?? '';
      problem(item, `unknown step "${first}"${didYouMean(first, Object.keys(STEP_KEYS))}; a step is one of ${Object.keys(STEP_KEYS).join(', ')}`);
      continue;
    }
    for (const k of Object.keys(obj)) {
      if (!STEP_KEYS[kind]!.includes(k)) problem(map.get(k, true) ?? item, `"${k}" does not belong in a ${kind} step${didYouMean(k, STEP_KEYS[kind]!)}`);
    }
    const line = lineOf(item);
    if (nested && !['user', 'tool', 'ui'].includes(kind)) {
      problem(item, `a "together" step may hold only user, tool and ui steps, not ${kind}`);
      continue;
    }
    switch (kind) {
      case 'user':
        if (typeof obj['user'] !== 'string') problem(item, '"user" is the transcript, as text');
        steps.push({ kind, text: String(obj['user']), line });
        break;
      case 'tool': {
        const e = obj['epoch'];
        if (e !== undefined && e !== 'previous' && e !== 'current' && typeof e !== 'number') {
          problem(map.get('epoch', true), '"epoch" is previous, current or a number');
        }
        steps.push({
          kind,
          name: String(obj['tool']),
          args: obj['args'] ?? {},
          epoch: (e as EpochRef | undefined) ?? 'current',
          ...(typeof obj['call_id'] === 'string' ? { callId: obj['call_id'] } : {}),
          line,
        });
        break;
      }
      case 'ui':
        steps.push({
          kind,
          event: String(obj['ui']),
          ...(obj['values'] && typeof obj['values'] === 'object' ? { values: obj['values'] as Record<string, unknown> } : {}),
          ...(typeof obj['variable'] === 'string' ? { variable: obj['variable'] } : {}),
          ...('value' in obj ? { value: obj['value'] } : {}),
          ...(typeof obj['selected_id'] === 'string' ? { selectedId: obj['selected_id'] } : {}),
          line,
        });
        break;
      case 'wait':
        if (typeof obj['wait'] !== 'number' || obj['wait'] < 0) problem(item, '"wait" is a number of seconds');
        steps.push({ kind, seconds: Number(obj['wait']), line });
        break;
      case 'together': {
        const inner = map.get('together', true);
        if (!isSeq(inner)) {
          problem(item, '"together" is a list of steps delivered in the same engine step');
          break;
        }
        steps.push({ kind, steps: readSteps(inner, true, problem, lineOf), line });
        break;
      }
      case 'expect': {
        const ex = obj['expect'];
        if (!ex || typeof ex !== 'object') {
          problem(item, '"expect" is a mapping of expectations');
          break;
        }
        const exNode = map.get('expect', true);
        for (const k of Object.keys(ex)) {
          if (!EXPECT_KEYS.includes(k)) problem(isMap(exNode) ? exNode.get(k, true) ?? exNode : item, `unknown expectation "${k}"${didYouMean(k, EXPECT_KEYS)}`);
        }
        steps.push({ kind, expect: ex as Expectation, line });
        break;
      }
    }
  }
  return steps;
}

