// A flow in assistant mode: after its end the kiosk stays a plain assistant the visitor can keep
// talking to, and walking away still wipes the visit.

import { expect, test } from './support/test.ts';
import { serveFlow, TEST_FLOWS } from './support/flows.ts';
import { agentLines, input, kiosk, say, startVisit, visitorLines } from './support/kiosk.ts';
import { expectNothingPersonalLeft } from './support/privacy.ts';

const ASSISTANT = `
id: concierge
title: Concierge
mode: assistant
states:
  ask:
    ui:
      artifact_type: form
      title: Where are you headed?
      fields: [ { id: room, type: text, label: Room or office, required: true } ]
    transitions:
      on_ui_event: { form_submit: __end__ }
`;

test('after the end, the visitor can keep talking, and walking away still wipes', async ({ page }) => {
  await serveFlow(page, `${TEST_FLOWS}/concierge.yaml`, ASSISTANT);
  await startVisit(page, { flow: `${TEST_FLOWS}/concierge.yaml`, idle_seconds: 6, idle_grace_seconds: 1 });
  await input(page, 'Room or office').fill('Orchid room');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByText('You can keep talking to me, or start over.')).toBeVisible();

  const before = await agentLines(page).count();
  await say(page, 'Thank you');
  await expect(visitorLines(page).last()).toContainText('Thank you');
  await expect(agentLines(page)).toHaveCount(before + 1);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');

  // Walking away: the question after 6 s without a word or a tap, the wipe 1 s later. (A shorter
  // idle time let a slow machine walk away before the test had typed its answer.)
  await expect(page.getByRole('alertdialog', { name: 'Are you still there?' })).toBeVisible({ timeout: 15_000 });
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expectNothingPersonalLeft(page, ['Orchid room', 'Thank you']);
});
