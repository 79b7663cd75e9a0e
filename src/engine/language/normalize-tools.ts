// A flow's tools in the Flow model (top-level or a state's own): parameters, captures, the HTTP
// effect and auto_extract patterns, with their defaults filled in.

import type { ParamDef, SourcePath, ToolDef } from './flow.ts';
import { asBool, asNum, asObj, asStr, isObj, oneOf, strList, type Obj } from './raw-values.ts';
import { VALUE_TYPES } from './syntax.ts';
import { dict } from './records.ts';

/** The tools of a `tools` mapping, by name; `at` is where the mapping is. */
export function normalizeTools(raw: unknown, at: SourcePath): Record<string, ToolDef> {
  return dict(Object.entries(asObj(raw)).map(([name, t]) => [name, normalizeTool(name, asObj(t), [...at, name])]));
}

function normalizeTool(name: string, t: Obj, at: SourcePath): ToolDef {
  const parameters: ParamDef[] = Object.entries(asObj(t['parameters'])).map(([pname, raw]) => {
    const p = asObj(raw);
    return {
      name: pname,
      type: oneOf(p['type'], VALUE_TYPES) ?? (Array.isArray(p['enum']) ? 'enum' : 'string'),
      required: asBool(p['required'], false),
      ...(asStr(p['description']) !== undefined ? { description: asStr(p['description'])! } : {}),
      ...(Array.isArray(p['enum']) ? { enum: p['enum'] } : {}),
      ...(asStr(p['pattern']) !== undefined ? { pattern: asStr(p['pattern'])! } : {}),
      ...(asNum(p['min']) !== undefined ? { min: asNum(p['min'])! } : {}),
      ...(asNum(p['max']) !== undefined ? { max: asNum(p['max'])! } : {}),
      at: [...at, 'parameters', pname],
    };
  });
  const capture = dict(parameters.map((p) => [p.name, p.name]));
  for (const [pname, v] of Object.entries(asObj(t['capture']))) if (typeof v === 'string') capture[pname] = v;
  const autoExtract = dict(Object.entries(asObj(t['auto_extract'])).map(([pname, v]) => [pname, strList(asObj(v)['patterns'])]));
  const http = isObj(t['http']) ? t['http'] : undefined;
  return {
    name,
    description: asStr(t['description']) ?? '',
    parameters,
    capture,
    confirm: asBool(t['confirm'], false),
    ...(asStr(t['summary']) !== undefined ? { summary: asStr(t['summary'])! } : {}),
    ...(asNum(t['expires_after']) !== undefined ? { expiresAfter: asNum(t['expires_after'])! } : {}),
    ...(http
      ? {
          http: {
            method: asStr(http['method']) ?? 'POST',
            url: asStr(http['url']) ?? '',
            ...('body' in http ? { body: http['body'] } : {}),
            ...(isObj(http['headers']) ? { headers: http['headers'] as Record<string, string> } : {}),
            capture: dict(Object.entries(asObj(http['capture'])).filter((e): e is [string, string] => typeof e[1] === 'string')),
            ...(asNum(http['timeout_seconds']) !== undefined ? { timeoutSeconds: asNum(http['timeout_seconds'])! } : {}),
          },
        }
      : {}),
    ...(asStr(t['speech_cue']) !== undefined ? { speechCue: asStr(t['speech_cue'])! } : {}),
    autoExtract,
    at,
  };
}
