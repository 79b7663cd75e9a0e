// Field validation on the screen (issue 20): a value that breaks a rule of its field is stopped at
// the form, and the field's own message (in the visit's language) or the kiosk's words for the
// rule are shown beside it; the inputs carry the bounds, so a date picker offers no later day.

import { expect, test } from './support/test.ts';
import { TEST_FLOWS, serveFlow } from './support/flows.ts';
import { expectStep, fieldBlock, input, startVisit } from './support/kiosk.ts';

const FLOW = `
vfdl: 1
id: hotel_check_in
title: Hotel check-in
language: en-US
languages: [en-US, de-DE]
states:
  ask:
    ui:
      artifact_type: form
      title: { en: Check in, de: Einchecken }
      fields:
        - id: booking_ref
          label: { en: Booking reference, de: Buchungsnummer }
          required: true
          pattern: "^[A-Z0-9]{6,10}$"
          message: { en: "Your booking reference is 6 to 10 capital letters and digits.", de: "Ihre Buchungsnummer hat 6 bis 10 Großbuchstaben und Ziffern." }
        - { id: surname, label: { en: Surname, de: Nachname }, min_length: 2, max_length: 12 }
        - { id: date_of_birth, type: date, label: { en: Date of birth, de: Geburtsdatum }, max: today }
    agent: { prompt: Ask for the booking reference. }
    transitions:
      on_ui_event: { form_submit: welcome }
  welcome:
    ui: { artifact_type: card, title: { en: Welcome, de: Willkommen }, actions: [ { event: done, label: { en: Done, de: Fertig } } ] }
    transitions: { on_ui_event: { done: __end__ } }
`;

const file = `${TEST_FLOWS}/hotel-check-in.yaml`;

test('a value that breaks a rule of its field is stopped at the form, with the flow\'s message beside it', async ({ page }) => {
  await serveFlow(page, file, FLOW);
  await startVisit(page, { flow: file });
  await input(page, 'Booking reference').fill('hb10001');
  await input(page, 'Surname').fill('A');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(fieldBlock(page, 'booking_ref').getByRole('alert')).toHaveText('Your booking reference is 6 to 10 capital letters and digits.');
  await expect(fieldBlock(page, 'surname').getByRole('alert')).toHaveText('Please enter at least 2 characters.');
  await expect(input(page, 'Booking reference')).toHaveAttribute('aria-invalid', 'true');
  await expectStep(page, 'ask');

  await input(page, 'Booking reference').fill('HB10001');
  await input(page, 'Surname').fill('Ng');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'welcome');
});

test('leaving a field says at once what is wrong with it, in the visit language, and the inputs carry the bounds', async ({ page }) => {
  await serveFlow(page, file, FLOW);
  await startVisit(page, { flow: file });
  await expect(input(page, 'Surname')).toHaveAttribute('maxlength', '12');
  await expect(input(page, 'Date of birth')).toHaveAttribute('max', /^\d{4}-\d{2}-\d{2}$/);

  await page.getByRole('button', { name: 'Language: English' }).click();
  await page.getByRole('dialog', { name: 'Language' }).getByRole('button', { name: 'Deutsch' }).click();
  await expect(page.getByRole('heading', { name: 'Einchecken' })).toBeVisible();
  await input(page, 'Buchungsnummer').fill('hb1');
  await input(page, 'Buchungsnummer').press('Tab');
  await expect(fieldBlock(page, 'booking_ref').getByRole('alert')).toHaveText('Ihre Buchungsnummer hat 6 bis 10 Großbuchstaben und Ziffern.');
  await input(page, 'Buchungsnummer').fill('HB10001');
  await input(page, 'Buchungsnummer').press('Tab');
  await expect(fieldBlock(page, 'booking_ref').getByRole('alert')).toHaveCount(0);
});

const CONSENT = `
vfdl: 1
id: hotel_rules
title: Hotel check-in
language: en-US
languages: [en-US, de-DE]
states:
  rules:
    ui:
      artifact_type: form
      title: { en: Check in, de: Einchecken }
      fields:
        - { id: booking_ref, label: { en: Booking reference, de: Buchungsnummer }, required: true, case: upper, pattern: "^[A-Z]{2}[0-9]{4}$" }
        - { id: terms_accepted, type: checkbox, label: { en: I accept the house rules, de: Ich akzeptiere die Hausordnung }, required: true }
    agent: { prompt: Ask for the booking reference and the house rules. }
    transitions:
      on_ui_event: { form_submit: welcome }
  welcome:
    ui: { artifact_type: card, title: { en: Welcome, de: Willkommen }, actions: [ { event: done, label: { en: Done, de: Fertig } } ] }
    transitions: { on_ui_event: { done: __end__ } }
`;

test('a booking code is written in capitals as it is typed, and an unticked required box holds the step, said in the visit language (issue 30)', async ({ page }) => {
  const consent = `${TEST_FLOWS}/hotel-rules.yaml`;
  await serveFlow(page, consent, CONSENT);
  await startVisit(page, { flow: consent });
  await page.getByRole('button', { name: 'Language: English' }).click();
  await page.getByRole('dialog', { name: 'Language' }).getByRole('button', { name: 'Deutsch' }).click();
  await expect(page.getByRole('heading', { name: 'Einchecken' })).toBeVisible();
  await input(page, 'Buchungsnummer').pressSequentially('hv4821');
  await expect(input(page, 'Buchungsnummer')).toHaveValue('HV4821');
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(fieldBlock(page, 'terms_accepted').getByRole('alert')).toHaveText('Bitte kreuzen Sie „Ich akzeptiere die Hausordnung“ an, um fortzufahren.');
  await expectStep(page, 'rules');
  await page.getByRole('checkbox', { name: 'Ich akzeptiere die Hausordnung' }).check();
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expectStep(page, 'welcome');
});
