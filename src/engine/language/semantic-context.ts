// What the meaning checks of one flow share: the reporter, the flow and its catalog, and the checks
// of a name where it is used (a target, a variable, a template's names, a guard, a pattern).

import type { Catalog } from './catalog.ts';
import { didYouMean } from './diagnostics.ts';
import { checkBranchGuards } from './check-guards.ts';
import { TODAY } from './dates.ts';
import { END, ERROR, SELF, type Branch, type Flow, type SourcePath } from './flow.ts';
import { templateNames } from './interpolate.ts';
import { slowPatternProblem } from './pattern-safety.ts';
import type { Reporter } from './source.ts';

export interface SemanticContext {
  r: Reporter;
  flow: Flow;
  cat: Catalog;
  /** a target must be a state of the flow, END or ERROR */
  checkTarget(target: string, path: SourcePath): void;
  /** a variable must be declared; `what` names where it is used */
  checkVar(name: string, path: SourcePath, what: string): void;
  /** every {name} of a text must be a variable */
  checkTemplate(text: string | undefined, path: SourcePath, what: string): void;
  /** each branch's target and guard; a `status` only where `statuses` (on_action_failed); a `decision` always decides */
  checkBranches(bs: readonly Branch[], statuses?: boolean, decision?: boolean): void;
  /** The compiled pattern; a pattern that does not compile, or could hang the kiosk, is an error. */
  compiles(pattern: string, path: SourcePath, flags?: string, what?: string): RegExp | undefined;
}

/** The context of the checks of `flow`, which report to `r`. */
export function semanticContext(r: Reporter, flow: Flow, cat: Catalog): SemanticContext {
  const stateIds = new Set(flow.stateOrder);
  const targets = [...stateIds, END];
  const knownVars = [...cat.variables.keys(), TODAY];

  const checkTarget = (target: string, path: SourcePath) => {
    // In a state, self was read as that state already (normalize-transitions.ts).
    if (target === SELF) return r.error('unknown-target', path, `"${SELF}" names the state it is written in, and this is written in no state: name the state to go to`);
    if (!stateIds.has(target) && target !== END && target !== ERROR) {
      r.error('unknown-target', path, `"${target}" is not a state of this flow or ${END}${didYouMean(target, targets)}`);
    }
  };
  const checkVar = (name: string, path: SourcePath, what: string) => {
    if (!cat.variables.has(name)) {
      r.error('unknown-variable', path, `${what} refers to unknown variable "${name}"${didYouMean(name, knownVars)}`);
    }
  };
  const checkTemplate = (text: string | undefined, path: SourcePath, what: string) => {
    if (text === undefined) return;
    // {today} is the kiosk's date, in every template.
    for (const name of new Set(templateNames(text))) if (name !== TODAY) checkVar(name, path, what);
  };
  const checkBranches = (bs: readonly Branch[], statuses = false, decision = false) => {
    for (const b of bs) {
      checkTarget(b.target, b.at);
      if (b.status && !statuses) {
        r.error('bad-value', [...b.at.slice(0, -1), 'status'], 'status is for on_action_failed only: the HTTP status of an answer that did not go through');
      }
    }
    checkBranchGuards({ r, cat, checkVar, compiles }, bs, decision);
  };
  function compiles(pattern: string, path: SourcePath, flags = 'i', what = 'pattern'): RegExp | undefined {
    let re: RegExp;
    try {
      re = new RegExp(pattern, flags);
    } catch (e) {
      r.error('bad-pattern', path, `${what} does not compile: ${regExpProblem(e)}`);
      return undefined;
    }
    const slow = slowPatternProblem(pattern);
    if (slow) r.error('slow-pattern', path, `${what} can take seconds on some input: ${slow}`);
    return re;
  }
  return { r, flow, cat, checkTarget, checkVar, checkTemplate, checkBranches, compiles };
}

/** What is wrong with a pattern, without the "Invalid regular expression: /…/i: " prefix that repeats it. */
function regExpProblem(e: unknown): string {
  return (e as Error).message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '');
}
