// Meaning checks on tools: the texts and patterns of each tool, the tools a state lists for the LLM
// being defined, and the names the engine generates for a state colliding with none.

import { generatedToolNames } from './catalog.ts';
import { didYouMean } from './diagnostics.ts';
import { headerProblem, secretProblem, urlProblem } from './http-texts.ts';
import { resolveTool, toolOfAnotherState, type SourcePath, type StateDef, type ToolDef } from './flow.ts';
import { own } from './records.ts';
import type { SemanticContext } from './semantic-context.ts';

/** A tool's summary and speech cue name variables; its parameter and auto_extract patterns compile. */
export function checkTool(c: SemanticContext, name: string, t: ToolDef): void {
  const { checkTemplate, compiles } = c;
  checkTemplate(t.summary, [...t.at, 'summary'], `the summary of ${name}`);
  checkTemplate(t.speechCue, [...t.at, 'speech_cue'], `the speech cue of ${name}`);
  for (const p of t.parameters) if (p.pattern !== undefined) compiles(p.pattern, [...p.at, 'pattern'], '', 'parameter pattern');
  if (t.http) checkHttp(c, name, t);
  for (const [param, patterns] of Object.entries(t.autoExtract)) {
    patterns.forEach((p, i) => compiles(p, [...t.at, 'auto_extract', param, 'patterns', i]));
  }
}

/**
 * An HTTP effect: a name filled into the url or the body must exist (a typo would send an empty
 * path segment or null), and what the server could never fill in or would refuse is said.
 */
function checkHttp({ r, checkTemplate }: SemanticContext, name: string, t: ToolDef): void {
  const http = t.http!;
  const at = [...t.at, 'http'];
  checkTemplate(http.url, [...at, 'url'], `the url of ${name}`);
  const url = urlProblem(http.url);
  if (url) r.warn('bad-value', [...at, 'url'], url);
  forEachText(http.body, [...at, 'body'], (text, path) => {
    checkTemplate(text, path, `the body of ${name}`);
    const secret = secretProblem(text);
    if (secret) r.warn('bad-value', path, secret);
  });
  for (const [header, value] of Object.entries(http.headers ?? {})) {
    const problem = typeof value === 'string' ? headerProblem(value) : undefined;
    if (problem) r.warn('bad-value', [...at, 'headers', header], problem);
  }
}

/** A state's tools: those listed for the LLM are defined, its own are checked, generated names collide with none. */
export function checkStateTools(c: SemanticContext, s: StateDef): void {
  const { r, flow } = c;
  const at = s.at;
  // Tools listed for the LLM must be defined.
  s.agent.tools.forEach((name, i) => {
    const elsewhere = own(s.tools, name) || own(flow.tools, name) ? undefined : toolOfAnotherState(flow, name);
    if (elsewhere) {
      r.warn('tool-from-other-state', [...at, 'agent', 'tools', i], `tool "${name}" is defined in the tools of state "${elsewhere.state}", not in this state's or the flow's; it is used from there, but move it to the flow's tools (top-level "tools:") so every state shares one definition`);
    } else if (!resolveTool(flow, s, name)) {
      const defined = [...Object.keys(s.tools), ...Object.keys(flow.tools)];
      r.error('unknown-tool', [...at, 'agent', 'tools', i], `tool "${name}" is not defined in this state's tools or the flow's tools${didYouMean(name, defined)}`);
    }
  });
  for (const [name, t] of Object.entries(s.tools)) checkTool(c, name, t);
  // Generated names must not collide with defined tools or each other.
  s.gate?.variables.forEach((v, i, vars) => {
    const why = v === s.id ? `has the same name as the state "${s.id}"` : vars.indexOf(v) < i ? 'is listed twice' : undefined;
    if (why) {
      r.error('tool-name-collision', [...s.gate!.at, 'variables', i], `gated variable "${v}" ${why}, so the tools confirm_${v} and reject_${v} would be generated twice`);
    }
  });
  for (const g of generatedToolNames(flow, s)) {
    const i = s.agent.tools.indexOf(g);
    if (i >= 0 || own(s.tools, g) || own(flow.tools, g)) {
      const path = i >= 0 ? [...at, 'agent', 'tools', i] : own(s.tools, g) ? [...at, 'tools', g] : ['tools', g];
      r.error('tool-name-collision', path, `tool "${g}" collides with a tool the engine generates for state "${s.id}"; rename it`, i < 0);
    }
  }
}

/** Calls `visit` with each text inside a JSON value and where it is. */
function forEachText(value: unknown, at: SourcePath, visit: (text: string, at: SourcePath) => void): void {
  if (typeof value === 'string') visit(value, at);
  else if (Array.isArray(value)) value.forEach((v, i) => forEachText(v, [...at, i], visit));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) forEachText(v, [...at, k], visit);
}
