// What a pattern can cost once vfdl check has let it through: the slowest of some accepted
// patterns of the shapes closest to the refused ones, each run on texts of the utterance cap
// (src/engine/language/limits.ts) built to make it backtrack most. Printed by `npm run bench`.

import { performance } from 'node:perf_hooks';
import { MAX_TEXT_CHARS } from '../src/engine/language/limits.ts';
import { slowPatternProblem } from '../src/engine/language/pattern-safety.ts';

/** Accepted, and each as close to a refused shape as the check allows. */
const PATTERNS = [
  '.*x',
  '^(\\w+)\\s*(\\w+)$',
  '(\\w+\\s){2}x',
  '(?:\\s*,\\s*\\w+)*x',
  '(\\d+\\.){3}\\d+x',
  '(\\+?[0-9][0-9 ]{6,}[0-9])x',
  '([a-z0-9._%+-]+@[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.[a-z]{2,})x',
  '\\b(?:my name is|call me)\\s+([a-z][a-z\'-]*)x',
];
const UNITS = ['a', 'a ', '1', '1.', '1 ', 'a@', 'a.', ' ,a', ', '];

export interface PatternFigure {
  pattern: string;
  text: string;
  ms: number;
}

/** The slowest accepted pattern on capped text, and its time (the best of three runs). */
export function worstCappedPattern(): PatternFigure {
  let worst: PatternFigure = { pattern: '', text: '', ms: 0 };
  for (const source of PATTERNS) {
    if (slowPatternProblem(source)) throw new Error(`bench: ${source} is refused by vfdl check; pick an accepted one`);
    const re = new RegExp(source, 'i');
    for (const unit of UNITS) {
      const text = unit.repeat(Math.ceil(MAX_TEXT_CHARS / unit.length)).slice(0, MAX_TEXT_CHARS);
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const t0 = performance.now();
        re.test(text);
        best = Math.min(best, performance.now() - t0);
      }
      if (best > worst.ms) worst = { pattern: source, text: `${JSON.stringify(unit)} repeated to ${MAX_TEXT_CHARS} characters`, ms: best };
    }
  }
  return worst;
}
