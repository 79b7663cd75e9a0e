// Reading the `steps` of a conversation test: what kind each step is, that its keys belong to that
// kind, and the step itself (a `together` holds steps of its own, an `expect` its expectations).

import { isMap, isSeq, type YAMLMap, type YAMLSeq } from 'yaml';
import { didYouMean } from '../engine/language/diagnostics.ts';
import { readExpectation } from './read-expectation.ts';
import type { EpochRef, ReadContext, Step } from './script-types.ts';

const STEP_KEYS: Record<string, readonly string[]> = {
  user: ['user'],
  tool: ['tool', 'args', 'epoch', 'call_id'],
  ui: ['ui', 'values', 'variable', 'variables', 'value', 'selected_id'],
  wait: ['wait'],
  language: ['language'],
  release: ['release'],
  together: ['together'],
  expect: ['expect'],
};

/** Reads a list of steps; `nested` inside a `together`, which holds only user, tool and ui steps. */
export function readSteps(seq: YAMLSeq, nested: boolean, ctx: ReadContext): Step[] {
  const steps: Step[] = [];
  for (const item of seq.items) {
    const kind = stepKind(item, nested, ctx);
    if (!kind) continue;
    const step = readStep(kind, item as YAMLMap, ctx);
    if (step) steps.push(step);
  }
  return steps;
}

/** The kind of a step, once its keys are checked against that kind; undefined (with the problem reported) when it has none. */
function stepKind(item: unknown, nested: boolean, ctx: ReadContext): string | undefined {
  const { problem } = ctx;
  if (!isMap(item)) {
    problem(item, 'a step is a mapping such as {user: "..."} or {tool: name, args: {...}}', 'wrong-type');
    return undefined;
  }
  const map = item as YAMLMap;
  const obj = map.toJSON() as Record<string, unknown>;
  const kind = Object.keys(STEP_KEYS).find((k) => Object.hasOwn(obj, k));
  if (!kind) {
    const first = Object.keys(obj)[0] ?? '';
    problem(item, `unknown step "${first}"${didYouMean(first, Object.keys(STEP_KEYS))}; a step is one of ${Object.keys(STEP_KEYS).join(', ')}`, 'unknown-key');
    return undefined;
  }
  for (const k of Object.keys(obj)) {
    if (!STEP_KEYS[kind]!.includes(k)) problem(map.get(k, true) ?? item, `"${k}" does not belong in a ${kind} step${didYouMean(k, STEP_KEYS[kind]!)}`, 'unknown-key');
  }
  if (nested && !['user', 'tool', 'ui'].includes(kind)) {
    problem(item, `a "together" step may hold only user, tool and ui steps, not ${kind}`);
    return undefined;
  }
  return kind;
}

/** A step of a known kind; undefined when a `together` or an `expect` is not the list or mapping it must be. */
function readStep(kind: string, map: YAMLMap, ctx: ReadContext): Step | undefined {
  const { problem } = ctx;
  const obj = map.toJSON() as Record<string, unknown>;
  const line = ctx.at(map).line;
  switch (kind) {
    case 'user':
      if (typeof obj['user'] !== 'string') problem(map, '"user" is the transcript, as text', 'wrong-type');
      return { kind, text: String(obj['user']), line };
    case 'tool': {
      const e = obj['epoch'];
      if (e !== undefined && e !== 'previous' && e !== 'current' && typeof e !== 'number') {
        problem(map.get('epoch', true), '"epoch" is previous, current or a number');
      }
      return {
        kind,
        name: String(obj['tool']),
        args: obj['args'] ?? {},
        epoch: (e as EpochRef | undefined) ?? 'current',
        ...(typeof obj['call_id'] === 'string' ? { callId: obj['call_id'] } : {}),
        line,
      };
    }
    case 'ui':
      return {
        kind,
        event: String(obj['ui']),
        ...(obj['values'] && typeof obj['values'] === 'object' ? { values: obj['values'] as Record<string, unknown> } : {}),
        ...(typeof obj['variable'] === 'string' ? { variable: obj['variable'] } : {}),
        ...(Array.isArray(obj['variables']) ? { variables: obj['variables'].map(String) } : {}),
        ...(Object.hasOwn(obj, 'value') ? { value: obj['value'] } : {}),
        ...(typeof obj['selected_id'] === 'string' ? { selectedId: obj['selected_id'] } : {}),
        line,
      };
    case 'wait':
      if (typeof obj['wait'] !== 'number' || obj['wait'] < 0) problem(map, '"wait" is a number of seconds', 'wrong-type');
      return { kind, seconds: Number(obj['wait']), line };
    case 'language':
      if (typeof obj['language'] !== 'string') problem(map, '"language" is a language tag of the flow, such as de-DE', 'wrong-type');
      return { kind, language: String(obj['language']), line };
    case 'release':
      if (typeof obj['release'] !== 'string') problem(map, '"release" names the tool whose held answer is given now (release: check_in)', 'wrong-type');
      return { kind, tool: String(obj['release']), line, col: ctx.at(map.get('release', true) ?? map).col };
    case 'together': {
      const inner = map.get('together', true);
      if (!isSeq(inner)) {
        problem(map, '"together" is a list of steps delivered in the same engine step', 'wrong-type');
        return undefined;
      }
      return { kind, steps: readSteps(inner, true, ctx), line };
    }
    case 'expect': {
      const node = map.get('expect', true);
      if (!isMap(node)) {
        problem(node ?? map, '"expect" is a mapping of expectations', 'wrong-type');
        return undefined;
      }
      return { kind, ...readExpectation(node, ctx), line };
    }
  }
  return undefined;
}
