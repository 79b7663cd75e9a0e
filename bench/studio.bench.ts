// `npm run bench:studio`: how soon the flow studio shows the checker's verdict on what an author
// just typed, measured in the built studio (dist/) in headless Chromium from the studio's own
// performance marks: from the keystroke that changed the text (`vk:studio-edit`) to its
// diagnostics on screen (`vk:studio-diagnostics`), and the part of it the checker's worker took
// (`vk:studio-checked`). Each round breaks a line of the clinic example (one diagnostic at its line)
// and mends it again (none). Prints the figures; with --check, exits 1 when the median time to a
// typo's diagnostic is not under the studio's promise of 500 ms.
//
//   npm run bench:studio -- [--rounds N] [--check]

import { chromium, type Page } from '@playwright/test';
import { startServer } from '../server/app.ts';
import { readConfig } from '../server/config.ts';
import { CHECKED_MARK, DIAGNOSTICS_MARK, EDIT_MARK } from '../src/studio/marks.ts';
import { CHROMIUM_FLAGS, CHROMIUM_SHELL } from '../tests/e2e/support/chromium.ts';
import { emptyTestMemory } from '../tests/support/test-memory.ts';
import { summarize, textTable, type Summary } from './stats.ts';

/** What the studio promises an author: a typo's diagnostic on screen within this, at the median. */
const PROMISE_MS = 500;

interface Round {
  /** keystroke to the diagnostics on screen */
  shown: number;
  /** keystroke to the worker's answer */
  checked: number;
}

function parseArgs(argv: readonly string[]): { rounds: number; check: boolean } {
  let rounds = 10;
  let check = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--check') check = true;
    else if (argv[i] === '--rounds' && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0) rounds = Number(argv[++i]);
    else {
      console.error(`bench:studio: unknown argument ${JSON.stringify(argv[i])}\nusage: tsx bench/studio.bench.ts [--rounds N] [--check]`);
      process.exit(2);
    }
  }
  return { rounds, check };
}

/** The page globals the marks are read with (the bench is typed without the DOM library). */
interface MarksInPage {
  performance: { getEntriesByName(name: string): { startTime: number; detail?: { errors?: number } }[] };
}

/** The latest edit's times, once its diagnostics (with `errors` errors, or any number but 0) are on screen. */
async function timesOfLastEdit(page: Page, wantErrors: boolean): Promise<Round> {
  return page.evaluate(
    ({ edit, shown, checked, wantErrors }) => {
      const marks = (globalThis as unknown as MarksInPage).performance;
      const edited = marks.getEntriesByName(edit).at(-1)!.startTime;
      // (no named functions in here: tsx would wrap them in a helper the page does not have)
      const seen = marks.getEntriesByName(shown).find((m) => m.startTime > edited && ((m.detail?.errors ?? 0) > 0) === wantErrors);
      const answer = marks.getEntriesByName(checked).find((m) => m.startTime > edited);
      return { shown: seen ? seen.startTime - edited : Number.NaN, checked: answer ? answer.startTime - edited : Number.NaN };
    },
    { edit: EDIT_MARK, shown: DIAGNOSTICS_MARK, checked: CHECKED_MARK, wantErrors },
  );
}

async function measure(rounds: number): Promise<{ typo: Round[]; mended: Round[] }> {
  const server = await startServer({ root: 'dist', config: readConfig({}), host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
  const browser = await chromium.launch({ executablePath: CHROMIUM_SHELL, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${server.url}/studio/?example=clinic-checkin`);
    await page.locator('.studio[data-checked="true"]').waitFor({ timeout: 60_000 });
    // The editor draws only the lines in view: a click on the state in the diagram brings its text there.
    await page.locator('.node[data-state="identify"]').click();
    const line = page.getByRole('textbox', { name: 'The flow file, in YAML' }).locator('.cm-line').filter({ hasText: /^\s*artifact_type: form$/ }).first();
    const errors = page.locator('.problems li.error');
    const typo: Round[] = [];
    const mended: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      await line.click();
      await page.keyboard.press('End');
      await page.keyboard.type('x');
      await errors.first().waitFor();
      typo.push(await timesOfLastEdit(page, true));
      await page.keyboard.press('Backspace');
      await errors.first().waitFor({ state: 'detached' });
      mended.push(await timesOfLastEdit(page, false));
    }
    return { typo, mended };
  } finally {
    await browser.close();
    await server.close();
  }
}

const ms = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0));
const row = (label: string, s: Summary | null): string[] => [label, ms(s?.p50), ms(s?.p95), ms(s?.max)];

const { rounds, check } = parseArgs(process.argv.slice(2));
const { typo, mended } = await measure(rounds);
const typoShown = summarize(typo.map((r) => r.shown));
console.log(`bench:studio: the clinic example in the studio, ${rounds} rounds (ms from the keystroke)\n`);
console.log(
  textTable(
    ['', 'p50', 'p95', 'max'],
    [
      row("a typo's diagnostic on screen", typoShown),
      row('  of it, the checker (its worker)', summarize(typo.map((r) => r.checked))),
      row('the mended text shown clean', summarize(mended.map((r) => r.shown))),
    ],
  ),
);
if (check) {
  const p50 = typoShown?.p50 ?? Number.POSITIVE_INFINITY;
  console.log(`\n${p50 < PROMISE_MS ? 'ok' : 'FAILED'}: a typo's diagnostic on screen in ${ms(p50)} ms at the median (the studio promises under ${PROMISE_MS})`);
  process.exit(p50 < PROMISE_MS ? 0 : 1);
}
