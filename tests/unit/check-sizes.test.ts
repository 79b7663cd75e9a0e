// npm run check:sizes (scripts/check-sizes.mjs) reports a file over 400 lines and a function over 80, and leaves alone
// one at the limit, in TypeScript, JavaScript and the <script> of a Svelte component.

import { describe, expect, it } from 'vitest';
import { describe as describeFinding, measure } from '../../scripts/check-sizes.mjs';

/** A function of exactly `lines` lines (its first and last included), starting on the file's first line. */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [`function ${name}() {`, ...body, '}'].join('\n') + '\n';
}

/** A file of exactly `lines` lines, none of them in a function. */
function fileOf(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';
}

describe('check:sizes', () => {
  it('reports an 81-line function with where it starts, its name and length', () => {
    const found = measure('src/a.ts', '// one line first\n' + functionOf('tooLong', 81));
    expect(found).toEqual([{ path: 'src/a.ts', line: 2, name: 'tooLong', lines: 81, limit: 80 }]);
    expect(describeFinding(found[0]!)).toBe('src/a.ts:2  function tooLong is 81 lines (limit 80)');
  });

  it('leaves an 80-line function alone', () => {
    expect(measure('src/a.ts', functionOf('justRight', 80))).toEqual([]);
  });

  it('reports a 401-line file and leaves a 400-line one alone', () => {
    const found = measure('server/b.ts', fileOf(401));
    expect(found).toEqual([{ path: 'server/b.ts', line: null, name: null, lines: 401, limit: 400 }]);
    expect(describeFinding(found[0]!)).toBe('server/b.ts  is 401 lines (limit 400)');
    expect(measure('server/b.ts', fileOf(400))).toEqual([]);
  });

  it('names an arrow function and a method by what holds them, and measures nested functions on their own', () => {
    const arrow = `export const handler = () => {\n${functionOf('inner', 81)}};\n`;
    const method = `class K {\n  run() {\n${'    x();\n'.repeat(79)}  }\n}\n`;
    expect(measure('bin/c.js', arrow).map((f) => [f.name, f.line, f.lines])).toEqual([
      ['handler', 1, 83],
      ['inner', 2, 81],
    ]);
    expect(measure('src/d.mjs', method).map((f) => [f.name, f.line, f.lines])).toEqual([['run', 2, 81]]);
  });

  it('measures the functions in a Svelte component\'s <script> with the component\'s line numbers', () => {
    const component = `<p>hello</p>\n<script lang="ts">\n${functionOf('onTap', 81)}</script>\n<div></div>\n`;
    expect(measure('src/ui/E.svelte', component)).toEqual([{ path: 'src/ui/E.svelte', line: 3, name: 'onTap', lines: 81, limit: 80 }]);
    expect(measure('src/ui/E.svelte', component.replace(functionOf('onTap', 81), functionOf('onTap', 80)))).toEqual([]);
  });
});
