// Every time limit of a flow is warned of (issue 18, WCAG 2.2.1), not only the step's timeout:
// a value waiting for its yes (the gate's expires_after), the action waiting for a yes (its
// expires_after) and the whole visit's cap (settings.max_duration_secs) are each shown and said
// 30 s before they act, and More time (the button, or "more time" said) puts each a minute on,
// more than once; left alone, each then acts as the flow says. Time passes on Playwright's clock.

import { expect, test } from './support/test.ts';
import { guidedKiosk, type Guided } from './support/guided.ts';
import { fakeClock, pass, startQuiet } from './support/held-clock.ts';
import { fieldBlock, kiosk, say, settled } from './support/kiosk.ts';

let g: Guided | null = null;
test.afterEach(async ({}, testInfo) => {
  await g?.close(testInfo);
  g = null;
});

/** A name that waits 40 s for its yes, then an action that waits 40 s, in a visit capped at 4 minutes. */
const LIMITS = `
id: limits
title: Limits
settings:
  max_duration_secs: 240
states:
  ask:
    ui: { artifact_type: form, title: Your name, fields: [ { id: full_name, type: text, label: Full name } ] }
    agent: { prompt: Ask for the name., tools: [save_name] }
    tools:
      save_name:
        description: Capture the visitor's name.
        parameters: { full_name: { type: string, required: true } }
    confirmation_gate: { variables: [full_name], on_confirm: book, expires_after: 40 }
  book:
    ui:
      artifact_type: card
      title: A room
      text: Shall we book a room?
      actions: [ { event: book, label: Book a room, tool: book_room } ]
    agent: { prompt: Offer the room., tools: [book_room] }
    tools:
      book_room: { description: Book the room., confirm: true, expires_after: 40, parameters: {} }
    transitions:
      on_tool_call: { book_room: booked }
  booked:
    ui: { artifact_type: card, title: Booked }
    agent: { prompt: Say it is booked. }
`;

const FILE = '/test-flows/limits.yaml';

/** The kiosk on the limits flow, its clock held from the visit's first words on; the walk-away question far off. */
async function limitsVisit(browser: import('@playwright/test').Browser): Promise<{ guided: Guided; gone: number }> {
  const guided = await guidedKiosk(browser, { query: { flow: FILE, idle_seconds: 900 }, flows: { [FILE]: LIMITS }, prepare: fakeClock });
  g = guided;
  return { guided, gone: await startQuiet(guided) };
}

test('a name waiting for its yes: warned of 30 s before it is cleared, kept by More time, then cleared', async ({ browser }) => {
  const { guided } = await limitsVisit(browser);
  const { page } = guided;
  const warning = page.locator('[data-limit="step"]');
  await say(page, 'My name is Sam Lee');
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending');
  await pass(guided, 9_000);
  await expect(warning).toHaveCount(0);
  await pass(guided, 1_000);
  await expect(warning.getByRole('timer')).toHaveText('Waiting for your yes: full name. Please confirm within 30 seconds, or it is cleared.');
  await expect.poll(guided.said).toContain('Please confirm within 30 seconds, or it is cleared.');

  await pass(guided, 10_000);
  await warning.getByRole('button', { name: 'More time' }).click();
  await expect(warning).toHaveCount(0);
  // A minute from then (twice the 20 s left, and more): warned of again 30 s before, and again More time.
  await pass(guided, 30_000);
  await expect(warning.getByRole('timer')).toContainText('within 30 seconds');
  await say(page, 'More time');
  await expect(warning).toHaveCount(0);
  await pass(guided, 59_000);
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending');
  await pass(guided, 1_000);
  await expect(fieldBlock(page, 'full_name')).not.toHaveAttribute('data-status', 'pending');
  await expect(warning).toHaveCount(0);
});

test('an action waiting for a yes: warned of and kept by More time, then cancelled when left alone', async ({ browser }) => {
  const { guided } = await limitsVisit(browser);
  const { page } = guided;
  const warning = page.locator('[data-limit="step"]');
  await page.getByLabel('Full name').fill('Sam Lee');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'book');
  // A new screen's buttons wait a moment before they take a tap (on the held clock too).
  await pass(guided, 1_000);
  await settled(page);
  await page.getByRole('button', { name: 'Book a room' }).click();
  const card = page.getByRole('region', { name: 'Please confirm' });
  await expect(card).toBeVisible();
  await pass(guided, 9_000);
  await expect(warning).toHaveCount(0);
  await pass(guided, 1_000);
  await expect(warning.getByRole('timer')).toHaveText('Waiting for your yes: please confirm within 30 seconds, or this request is cancelled.');
  await expect.poll(guided.said).toContain('Waiting for your yes: please confirm within 30 seconds, or this request is cancelled.');
  await warning.getByRole('button', { name: 'More time' }).click();
  await expect(warning).toHaveCount(0);
  await pass(guided, 59_000);
  await expect(card).toBeVisible();
  await pass(guided, 1_000);
  await expect(card).toHaveCount(0);
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'book');
});

test('the visit’s cap: warned of 30 s before, a minute more for each More time, then the visit ends', async ({ browser }) => {
  const { guided, gone } = await limitsVisit(browser);
  const { page } = guided;
  const warning = page.locator('[data-limit="step"]');
  await pass(guided, 210_000 - gone - 1_000);
  await expect(warning).toHaveCount(0);
  await pass(guided, 1_000);
  await expect(warning.getByRole('timer')).toHaveText('The time for this visit runs out in 30 seconds.');
  await expect.poll(guided.said).toContain('The time for this visit runs out in 30 seconds.');
  for (let asked = 0; asked < 10; asked++) {
    await warning.getByRole('button', { name: 'More time' }).click();
    await expect(warning).toHaveCount(0);
    await pass(guided, 30_000);
    await expect(warning.getByRole('timer')).toHaveText('The time for this visit runs out in 30 seconds.');
  }
  await pass(guided, 30_000);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
});
