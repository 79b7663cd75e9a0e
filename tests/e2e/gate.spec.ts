// The confirmation gate with typed answers and the offline agent: a heard value waits, "yes"
// moves on, "no" clears it and asks again, and moving on while it waits shows a notice by it.

import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { MOVE_ON_WHILE_PENDING, TEST_FLOWS, serveFlow } from './support/flows.ts';
import { agentLines, expectStep, fieldBlock, input, say, startVisit } from './support/kiosk.ts';

const NAME_LABEL = "What's your first name?";

/** Says the name and checks that it waits on screen, with the agent asking for confirmation. */
async function nameHeard(page: Page): Promise<void> {
  await say(page, 'My name is Alex');
  const block = fieldBlock(page, 'first_name');
  await expect(block).toHaveAttribute('data-status', 'pending');
  await expect(input(page, NAME_LABEL)).toHaveValue('Alex');
  await expect(page.getByRole('button', { name: `Confirm ${NAME_LABEL}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Change ${NAME_LABEL}` })).toBeVisible();
  await expect(agentLines(page).last()).toHaveText('Kiosk: I heard Alex. Is that right?');
}

test('a typed name waits for confirmation, and "yes" moves the flow on', async ({ page }) => {
  await startVisit(page);
  await nameHeard(page);
  await expectStep(page, 'ask_name');

  await say(page, 'yes');

  await expectStep(page, 'choose_color');
  await expect(page.getByRole('heading', { name: 'Nice to meet you, Alex! Pick a colour.' })).toBeVisible();
});

test('"no" clears the heard name and the agent asks again', async ({ page }) => {
  await startVisit(page);
  await nameHeard(page);
  const askedBefore = await agentLines(page).count();

  await say(page, 'no');

  const block = fieldBlock(page, 'first_name');
  await expect(block).toHaveAttribute('data-status', 'empty');
  await expect(input(page, NAME_LABEL)).toHaveValue('');
  await expect(page.getByRole('button', { name: `Confirm ${NAME_LABEL}` })).toHaveCount(0);
  await expect(agentLines(page)).toHaveCount(askedBefore + 1);
  await expect(agentLines(page).last()).toContainText(NAME_LABEL);
  await expectStep(page, 'ask_name');
});

test('moving on while the name waits is blocked with a notice beside the name', async ({ page }) => {
  await serveFlow(page, `${TEST_FLOWS}/move-on.yaml`, MOVE_ON_WHILE_PENDING);
  await startVisit(page, { flow: `${TEST_FLOWS}/move-on.yaml` });
  await nameHeard(page);

  await say(page, 'next');

  const block = fieldBlock(page, 'first_name');
  const notice = block.getByRole('alert');
  await expect(notice).toHaveText('Please check your first name first: tap Confirm if it is right, or Change if not.');
  await expect(input(page, NAME_LABEL)).toHaveAccessibleDescription(/Please check your first name first/);
  await expect(block).toHaveAttribute('data-status', 'pending');
  await expectStep(page, 'ask_name');
  await expectBeside(notice, input(page, NAME_LABEL));

  // Confirming the value the notice points at clears the notice and opens the gate.
  await page.getByRole('button', { name: `Confirm ${NAME_LABEL}` }).click();
  await expect(page.getByRole('heading', { name: 'All done. Thank you!' })).toBeVisible();
});

test('Continue with the date of birth empty while the name waits: "we still need" beside the date', async ({ page }) => {
  await startVisit(page, { flow: 'clinic-checkin' });
  await say(page, 'My name is Maria Garcia');
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending');

  await page.getByRole('button', { name: 'Continue' }).click();

  const notice = fieldBlock(page, 'date_of_birth').getByRole('alert');
  await expect(notice).toHaveText('We still need your date of birth.');
  await expect(input(page, 'Date of birth')).toHaveAccessibleDescription('We still need your date of birth.');
  await expectBeside(notice, input(page, 'Date of birth'));
  // Nothing moved and the heard name still waits for the visitor.
  await expectStep(page, 'identify');
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending');
  await expect(input(page, 'Full name')).toHaveValue('Maria Garcia');
});

/** The notice is right under the field: overlapping it sideways, and less than 120 px below it. */
async function expectBeside(notice: Locator, field: Locator): Promise<void> {
  const n = await notice.boundingBox();
  const f = await field.boundingBox();
  expect(n && f, 'notice and field are laid out').toBeTruthy();
  if (!n || !f) return;
  expect(n.y, 'the notice is below the field').toBeGreaterThanOrEqual(f.y + f.height);
  expect(n.y - (f.y + f.height), 'the notice is close to the field').toBeLessThan(120);
  expect(n.x < f.x + f.width && f.x < n.x + n.width, 'the notice lines up with the field').toBe(true);
}
