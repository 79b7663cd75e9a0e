// A state's screen (`ui`) in the Flow model: its artifact type, fields, options and buttons, with
// Prepatu's `prompt` folded into a title or text.

import type { Artifact, ChoiceOption, Field, SourcePath, UiAction } from './flow.ts';
import { asArr, asBool, asNum, asObj, asStr, isObj, oneOf } from './raw-values.ts';
import { dict } from './records.ts';
import { FIELD_TYPES, RENDERED_ARTIFACTS } from './syntax.ts';

/** The id an option entry stands for (a plain value, or `id`, `value` or `label`), if it has one. */
export function optionId(o: unknown): string | undefined {
  if (typeof o === 'string') return o;
  if (typeof o === 'number' || typeof o === 'boolean') return String(o);
  const x = asObj(o);
  return asStr(x['id']) ?? asStr(x['value']) ?? asStr(x['label']);
}

function normalizeOptions(raw: unknown): ChoiceOption[] {
  return asArr(raw).flatMap((o): ChoiceOption[] => {
    const id = optionId(o);
    if (id === undefined) return [];
    if (!isObj(o)) return [{ id, label: id }];
    const x = o;
    return [
      {
        id,
        label: asStr(x['label']) ?? id,
        ...(asStr(x['description']) !== undefined ? { description: asStr(x['description'])! } : {}),
      },
    ];
  });
}

/** A state's `ui`, or undefined where it has none. */
export function normalizeArtifact(raw: unknown, at: SourcePath): Artifact | undefined {
  if (!isObj(raw)) return undefined;
  const declared = asStr(raw['artifact_type']) ?? 'card';
  const type = (RENDERED_ARTIFACTS as readonly string[]).includes(declared) ? (declared as Artifact['type']) : 'other';
  const fields: Field[] = asArr(raw['fields']).flatMap((f, i): Field[] => {
    const o = asObj(f);
    const id = asStr(o['id']);
    if (!id) return [];
    const options = normalizeOptions(o['options']);
    return [
      {
        id,
        type: oneOf(o['type'], FIELD_TYPES) ?? 'text',
        label: asStr(o['label']) ?? id,
        required: asBool(o['required'], false),
        ...(asStr(o['placeholder']) !== undefined ? { placeholder: asStr(o['placeholder'])! } : {}),
        ...(options.length ? { options } : {}),
        ...(asStr(o['pattern']) !== undefined ? { pattern: asStr(o['pattern'])! } : {}),
        ...(asNum(o['min_length']) !== undefined ? { minLength: asNum(o['min_length'])! } : {}),
        ...(asNum(o['max_length']) !== undefined ? { maxLength: asNum(o['max_length'])! } : {}),
        ...(typeof o['min'] === 'number' || typeof o['min'] === 'string' ? { min: o['min'] } : {}),
        ...(typeof o['max'] === 'number' || typeof o['max'] === 'string' ? { max: o['max'] } : {}),
        ...(asStr(o['message']) !== undefined ? { message: asStr(o['message'])! } : {}),
        ...(o['case'] === 'upper' || o['case'] === 'lower' ? { case: o['case'] } : {}),
        at: [...at, 'fields', i],
      },
    ];
  });
  // Prepatu's `prompt` is the heading of a form or options screen and the body of a card.
  let title = asStr(raw['title']);
  let text = asStr(raw['text']) ?? asStr(raw['content']);
  const prompt = asStr(raw['prompt']);
  if (prompt !== undefined) {
    if (type === 'card' && text === undefined) text = prompt;
    else if (title === undefined) title = prompt;
    else if (text === undefined) text = prompt;
  }
  return {
    type,
    declaredType: declared,
    ...(title !== undefined ? { title } : {}),
    ...(text !== undefined ? { text } : {}),
    fields,
    ...(asStr(raw['submit_label']) !== undefined ? { submitLabel: asStr(raw['submit_label'])! } : {}),
    options: normalizeOptions(raw['options']),
    ...(asStr(raw['variable']) !== undefined ? { variable: asStr(raw['variable'])! } : {}),
    actions: normalizeActions(raw['actions']),
    ...paramsOf(raw['params']),
  };
}

/** A card's `params` as label -> value: a mapping as written, or a list of `{ label, value }` in its order. */
function paramsOf(raw: unknown): { params?: Record<string, unknown> } {
  if (isObj(raw)) return { params: raw };
  if (!Array.isArray(raw)) return {};
  const params = dict<unknown>();
  for (const line of raw) {
    const label = asStr(asObj(line)['label']);
    if (label !== undefined && !Object.hasOwn(params, label)) params[label] = asObj(line)['value'] ?? null;
  }
  return { params };
}

/** Buttons (`actions`): each sends its event, and one with `tool` proposes that tool's action. */
export function normalizeActions(raw: unknown): UiAction[] {
  return asArr(raw).flatMap((a) => {
    const o = asObj(a);
    const tool = asStr(o['tool']);
    const event = asStr(o['event']);
    return event ? [{ event, label: asStr(o['label']) ?? event, ...(tool !== undefined ? { tool } : {}) }] : [];
  });
}
