// The kiosk in an engine lane, as a tablet's visitor meets it: every bundled flow by touch, a
// visit by typing, an Arabic screen.

import { describe, expect, test } from 'vitest';
import { waitFor } from './engine.ts';
import { button, endSummary, expectStep, field, fieldIs, kioskSays, openKiosk, settled, startVisit, texts, typeAnswer, valueOf } from './kiosk.ts';
import type { Lane } from './lane.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Gives a date of birth as a visitor on the engine can. Safari's engine: typed into the date box,
 * month, day and year, a separator moving on to the next part. Firefox: its date box takes no
 * keys from WebDriver BiDi (its window never has the focus), so the date is typed to the assistant
 * ("born 3 November 1992") and the value it shows is confirmed with a tap.
 */
async function giveDateOfBirth(lane: Lane, iso: string): Promise<void> {
  const [y, m, d] = iso.split('-') as [string, string, string];
  if (lane.engine === 'webkit') {
    await lane.page.type(field('Date of birth'), `${m}/${d}/${y}`);
  } else {
    await typeAnswer(lane.page, `I was born on ${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`);
    await fieldIs(lane.page, 'date_of_birth', 'pending');
    await settled(lane.page);
    await lane.page.tap(button('Confirm Date of birth'));
    await fieldIs(lane.page, 'date_of_birth', 'confirmed');
  }
  expect(await valueOf(lane.page, 'Date of birth')).toBe(iso);
}

/** Every bundled flow by touch, a visit by typing, an Arabic screen. */
export function touchTests(engine: string, current: () => Lane): void {
  describe(`${engine}: by touch`, () => {
    test('onboarding: the name typed in its box, Continue, a colour tapped, the answers shown', async () => {
      const { page, url } = current();
      await startVisit(page, url, { flow: 'onboarding' });
      await expectStep(page, 'ask_name');
      await page.type(field("What's your first name?"), 'Marguerite');
      await page.tap(button('Continue'));
      await expectStep(page, 'choose_color');
      expect(await texts(page, 'main h1, main h2')).toContain('Nice to meet you, Marguerite! Pick a colour.');
      await page.tap(button('green'));
      // The end screen shows none of the visitor's answers (issue 31): onboarding marks nothing to take away.
      expect(await endSummary(page)).toEqual([]);
    });

    test('clinic check-in: name and date of birth in their boxes, the appointment found, checked in for real', async () => {
      const { page, url, clinic } = current();
      await startVisit(page, url, { flow: 'clinic-checkin' });
      await expectStep(page, 'identify');
      await page.type(field('Full name'), 'Li Wei');
      await giveDateOfBirth(current(), '1992-11-03');
      await page.tap(button('Continue'));
      await expectStep(page, 'reason');
      await page.tap(button('Appointment', true));
      await expectStep(page, 'appointment');
      await page.tap(button('Find my appointment'));
      await expectStep(page, 'appointment_summary');
      expect((await texts(page, 'main')).join(' ')).toContain('Appointment: Dr. Okafor at 11:15');
      await page.tap(button('Check me in'));
      // The question is a new part of the screen: its buttons take taps once it has settled.
      await waitFor(page, 'the check-in to be asked', `() => [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Yes, go ahead')`);
      await settled(page);
      await page.tap(button('Yes, go ahead'));
      await expectStep(page, 'checked_in');
      await page.tap(button('Done'));
      const summary = await endSummary(page);
      // What the patient takes away, their queue number, and none of their details.
      expect(summary.map(([label]) => label)).toEqual(['Queue number']);
      expect(summary[0]![1]).toMatch(/^\d+$/);
      expect(clinic.checkIns.at(-1)).toMatchObject({ name: 'Li Wei', dob: '1992-11-03' });
    });

    test('visitor sign-in: name and email in their boxes, the host tapped, the rules agreed, the badge', async () => {
      const { page, url } = current();
      await startVisit(page, url, { flow: 'visitor-signin' });
      await expectStep(page, 'details');
      await page.type(field('Your name'), 'Sam Lee');
      await page.type(field('Email address'), 'sam.lee@example.com');
      await page.tap(button('Next'));
      await expectStep(page, 'host');
      await page.tap(button('Tom Becker'));
      await expectStep(page, 'rules');
      await page.tap(button('I agree'));
      await expectStep(page, 'badge');
      await page.tap(button('Done'));
      // The badge is in the tray: nothing of the visitor's is shown at the end (issue 31).
      expect(await endSummary(page)).toEqual([]);
    });
  });

  describe(`${engine}: by typing, and in Arabic`, () => {
    test('a clinic visit typed to the built-in assistant: two values heard wait for a yes, the doctor chosen from the list', async () => {
      const { page, url } = current();
      await startVisit(page, url, { flow: 'clinic-checkin' });
      await expectStep(page, 'identify');
      await typeAnswer(page, 'I am Maria Garcia, born 15 March 1990');
      await fieldIs(page, 'full_name', 'pending');
      await fieldIs(page, 'date_of_birth', 'pending');
      expect(await valueOf(page, 'Full name')).toBe('Maria Garcia');
      expect(await valueOf(page, 'Date of birth')).toBe('1990-03-15');
      await typeAnswer(page, 'yes');
      await expectStep(page, 'reason');
      await page.tap(button('Appointment', true));
      await expectStep(page, 'appointment');
      await page.choose(field('Which doctor are you seeing?'), 'Dr. Lindqvist');
      await page.type(field('Appointment time'), '10:30');
      await page.tap(button('Continue'));
      await expectStep(page, 'appointment_summary');
      expect((await texts(page, 'main')).join(' ')).toContain('Appointment: Dr. Lindqvist at 10:30');
      await page.tap(button('Start over'));
      await page.tap(button('Yes, start over'));
      await kioskSays(page, 'data-phase', 'idle');
    });

    test('visitor sign-in in Arabic: the page reads right to left, the step in Arabic, an Arabic answer taken', async () => {
      const { page, url } = current();
      await openKiosk(page, url, { flow: 'visitor-signin' });
      await page.tap(button('العربية'));
      await expectStep(page, 'details');
      const layout = await page.evaluate<{ dir: string; lang: string; heading: string; label: number; input: number }>(`() => {
        const input = document.getElementById('field-full_name');
        const label = document.querySelector('label[for="field-full_name"]');
        return { dir: document.documentElement.dir, lang: document.documentElement.lang, heading: document.querySelector('main h1, main h2').textContent.trim(),
          label: label.getBoundingClientRect().right, input: input.getBoundingClientRect().right };
      }`, null);
      expect(layout).toMatchObject({ dir: 'rtl', lang: 'ar', heading: 'أهلًا بكم في Northwind Studios' });
      // The label starts from the right, over its field.
      expect(Math.abs(layout.label - layout.input)).toBeLessThan(24);
      await page.type(field('الاسم'), 'سامي');
      await page.type(field('البريد الإلكتروني'), 'sami@example.com');
      await page.tap(button('التالي'));
      await expectStep(page, 'host');
      expect((await texts(page, 'main h1, main h2'))[0]).toBe('من الشخص المراد زيارته، سامي؟');
      await page.tap(button('قسم المرافق'));
      await expectStep(page, 'rules');
    });
  });
}
