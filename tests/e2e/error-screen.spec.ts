// The error screen: when a flow ends up in __error__ (where the engine takes a run whose step
// failed, tests/unit/engine-errors.test.ts), the kiosk says so and offers Start over, which wipes
// the visit at once: on a failed visit there is nothing to go on with, so it does not ask first.

import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { TEST_FLOWS, serveFlow } from './support/flows.ts';
import { agentLines, expectStep, input, kiosk, say, startVisit } from './support/kiosk.ts';
import { expectNothingPersonalLeft } from './support/privacy.ts';

const NAME = 'Marisol';
const NAME_LABEL = "What's your first name?";

/** A name step with a button that leads to the error state, as a failed step would. */
const GOES_WRONG = `
vfdl: 1
id: goes_wrong
title: Welcome
language: en-US
mode: kiosk
states:
  ask_name:
    ui:
      artifact_type: form
      title: Welcome!
      fields:
        - { id: first_name, type: text, label: "${NAME_LABEL}" }
      actions: [ { event: break_down, label: Break down } ]
    agent: { prompt: Ask the visitor for their first name. }
    transitions:
      on_ui_event: { form_submit: __end__, break_down: __error__ }
      on_utterance: [ { pattern: "my name is\\\\s+([A-Za-z]+)", capture_to: first_name } ]
`;

/** Starts a visit, says a name (so there are answers to lose), and lands on the error screen. */
async function failedVisit(page: Page): Promise<void> {
  await serveFlow(page, `${TEST_FLOWS}/goes-wrong.yaml`, GOES_WRONG);
  await startVisit(page, { flow: `${TEST_FLOWS}/goes-wrong.yaml` });
  await say(page, `My name is ${NAME}`);
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);
  const spoken = await agentLines(page).count();
  await page.getByRole('button', { name: 'Break down' }).click();
  await expectStep(page, '__error__');
  await expect(page.getByRole('heading', { name: 'Sorry, something went wrong' })).toBeVisible();
  // The kiosk says so, not only shows it (here the built-in assistant reads the card out).
  await expect(agentLines(page)).toHaveCount(spoken + 1);
  await expect(agentLines(page).last()).toHaveText(/^Kiosk: Sorry, something went wrong\./);
}

test('the error screen says what happened, and its Start over wipes the visit at once', async ({ page }) => {
  await failedVisit(page);
  await expect(page.locator('.card-text')).toHaveText('Nothing you entered has been kept. Please start over, or ask a member of staff for help.');

  await page.locator('.step-footer').getByRole('button', { name: 'Start over' }).click();

  await expect(page.getByRole('alertdialog', { name: 'Start over?' })).toHaveCount(0);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expectNothingPersonalLeft(page, [NAME]);
});

test('on the error screen the top bar’s Start over does not ask either', async ({ page }) => {
  await failedVisit(page);

  await page.locator('header.bar').getByRole('button', { name: 'Start over' }).click();

  await expect(page.getByRole('alertdialog', { name: 'Start over?' })).toHaveCount(0);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expectNothingPersonalLeft(page, [NAME]);
});
