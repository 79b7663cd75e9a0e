// The built-in assistant measured on a table of typed visitor lines in five languages
// (tests/fixtures/assistant/lines.yaml): corrections, combined answers, changes of mind, help,
// small talk, refusals, polite forms and typos, each said at a step of a bundled flow with what
// must happen. Every line is run; a line marked as a known miss must still fail (so that one the
// assistant learns is taken off the list), every other line must be handled right. The share
// handled right is printed at the end, by language and by kind (the README gives it).

import { afterAll, describe, expect, it } from 'vitest';
import { readTable, runLine, type Line } from '../support/assistant-table.ts';

const table = readTable(new URL('../fixtures/assistant/lines.yaml', import.meta.url));

/** Each line's outcome: handled right or not, by its language and kind. */
const outcomes: { line: Line; language: string; right: boolean }[] = [];

function share(rows: readonly { right: boolean }[]): string {
  const right = rows.filter((r) => r.right).length;
  return `${right} of ${rows.length} (${((100 * right) / rows.length).toFixed(1)} %)`;
}

function by<K extends string>(key: (o: (typeof outcomes)[number]) => K): string {
  const groups = new Map<K, (typeof outcomes)[number][]>();
  for (const o of outcomes) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  return [...groups].map(([k, rows]) => `  ${k}: ${share(rows)}`).join('\n');
}

describe('the built-in assistant on the table of typed lines', () => {
  it('has at least 150 lines in all five languages', () => {
    expect(table.lines.length).toBeGreaterThanOrEqual(150);
    const languages = new Set(table.lines.map((l) => table.setups[l.at]?.language.slice(0, 2)));
    expect([...languages].sort()).toEqual(['ar', 'de', 'en', 'es', 'fr']);
  });

  for (const line of table.lines) {
    const setup = table.setups[line.at]!;
    const name = `${setup.language} ${setup.flow} ${setup.step}${setup.waiting?.length ? ` (${setup.waiting.join(', ')} waiting)` : ''}: «${line.line}»`;
    it(line.miss ? `${name} [known miss]` : name, async () => {
      const { answer, problems } = await runLine(table, line);
      outcomes.push({ line, language: setup.language.slice(0, 2), right: problems.length === 0 });
      if (line.miss) expect(problems, `now handled right (answer: «${answer}»): take off its known-miss mark`).not.toEqual([]);
      else expect(problems, `answer: «${answer}»`).toEqual([]);
    });
  }

  afterAll(() => {
    if (outcomes.length === 0) return;
    const misses = outcomes.filter((o) => o.line.miss).length;
    console.log(
      [
        `built-in assistant: ${share(outcomes)} typed lines handled right; ${misses} known misses`,
        'by language:',
        by((o) => o.language),
        'by kind:',
        by((o) => o.line.kind),
      ].join('\n'),
    );
  });
});
