// Values waiting for the visitor's yes, on the screens kiosks really have: each Confirm, Change,
// "Confirm all" and the step's own button is inside the screen and is what a finger at its centre
// touches. Read from the page's geometry and tapped by coordinates, never scrolled into view by
// the test: a button a visitor cannot see fails here.

import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { expectStep, fieldBlock, say, settled, startVisit } from './support/kiosk.ts';
import { expectUnderFinger, reachOf, tapWithFinger } from './support/reach.ts';

/** Landscape and portrait tablets (10", iPad), and a phone held upright. */
const SCREENS = [
  { width: 1280, height: 800, tablet: true },
  { width: 800, height: 1280, tablet: true },
  { width: 1024, height: 768, tablet: true },
  { width: 768, height: 1024, tablet: true },
  { width: 390, height: 844, tablet: false },
] as const;

/** A form field as the visitor meets it: its variable and its label. */
interface Field {
  variable: string;
  label: string;
}

const confirmOf = (page: Page, f: Field) => page.getByRole('button', { name: `Confirm ${f.label}`, exact: true });
const changeOf = (page: Page, f: Field) => page.getByRole('button', { name: `Change ${f.label}`, exact: true });
const confirmAll = (page: Page) => page.getByRole('button', { name: /^Confirm all/ });

/** Waits until `fields` wait for a yes and the first of them has been brought into view. */
async function waitingShown(page: Page, fields: readonly Field[]): Promise<void> {
  for (const f of fields) await expect(fieldBlock(page, f.variable)).toHaveAttribute('data-status', 'pending');
  await expect(page.locator('.step-body')).toHaveAttribute('data-shown', fields[0]!.variable);
  await settled(page);
}

/**
 * The step scrolled back up by `distance` px, as a visitor on a phone swipes back to what they
 * paged past (the test turns the wheel over the step, which scrolls it alike), once it has moved.
 */
async function scrollBack(page: Page, distance: number): Promise<void> {
  const step = page.locator('.step-body');
  const box = (await step.boundingBox())!;
  const before = await step.evaluate((el) => el.scrollTop);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -distance);
  await expect.poll(() => step.evaluate((el) => el.scrollTop)).toBeLessThan(before);
}

/**
 * On a tablet every control is in view as it is. On a phone the step may be longer than the
 * screen: the visitor taps "More below" (itself within reach) until the control shows, or, for
 * one they paged past, scrolls the step back.
 */
async function bringUnderFinger(page: Page, target: Locator, what: string, tablet: boolean): Promise<void> {
  if (!tablet) {
    const more = page.getByRole('button', { name: /^More below/ });
    const step = page.locator('.step-body');
    for (let i = 0; i < 6; i++) {
      const reach = await reachOf(target);
      if (reach.inView && reach.onTop) break;
      const above = (await step.boundingBox())!.y - (await target.boundingBox())!.y;
      if (above > 0) await scrollBack(page, above + 60);
      else if (await more.count()) await tapWithFinger(page, more, `"More below", looking for ${what}`);
      else break;
    }
  }
  await expectUnderFinger(target, what);
}

/** Every control the visitor is asked to tap while `fields` wait: each value's own, and the step's. */
async function expectAllUnderFinger(page: Page, fields: readonly Field[], submit: string, tablet: boolean): Promise<void> {
  for (const f of fields) {
    await bringUnderFinger(page, confirmOf(page, f), `Confirm ${f.label}`, tablet);
    await bringUnderFinger(page, changeOf(page, f), `Change ${f.label}`, tablet);
  }
  if (fields.length >= 2) await expectUnderFinger(confirmAll(page), 'Confirm all');
  await expectUnderFinger(page.getByRole('button', { name: submit, exact: true }), submit);
  await expectUnderFinger(page.getByRole('button', { name: 'Start over', exact: true }), 'Start over');
}

/**
 * The top bar in one row, so that it takes no room from the step, while the light says the longest
 * thing it says here ("Voice off: tap or type", once the kiosk has found no microphone).
 */
async function barInOneRow(page: Page): Promise<void> {
  await expect(page.locator('header.bar .voice-light')).toHaveAttribute('data-voice', 'no-microphone');
  const { bar, button } = await page.locator('header.bar').evaluate((el) => ({
    bar: el.getBoundingClientRect().height,
    button: Math.max(...[...el.querySelectorAll('button')].map((b) => b.getBoundingClientRect().height)),
  }));
  expect(bar, 'the top bar is one row of buttons high').toBeLessThanOrEqual(button + 4);
}

for (const screen of SCREENS) {
  const { width, height, tablet } = screen;
  test.describe(`${width}×${height}`, () => {
    test.use({ viewport: { width, height }, hasTouch: true });

    test('clinic: name and date of birth wait; each Confirm is under the finger, and tapping them moves on', async ({ page }) => {
      const name = { variable: 'full_name', label: 'Full name' };
      const born = { variable: 'date_of_birth', label: 'Date of birth' };
      await startVisit(page, { flow: 'clinic-checkin' });
      await say(page, 'My name is Maria Garcia, born 5 March 1984');
      await waitingShown(page, [name, born]);
      if (tablet) await barInOneRow(page);
      await expectAllUnderFinger(page, [name, born], 'Continue', tablet);
      // The first value's own Confirm: it is confirmed, the other still waits, and "Confirm all" goes.
      if (!tablet) await bringUnderFinger(page, confirmOf(page, name), 'Confirm Full name', tablet);
      await tapWithFinger(page, confirmOf(page, name), 'Confirm Full name');
      await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'confirmed');
      await expect(confirmAll(page)).toHaveCount(0);
      await bringUnderFinger(page, confirmOf(page, born), 'Confirm Date of birth', tablet);
      await tapWithFinger(page, confirmOf(page, born), 'Confirm Date of birth');
      await expectStep(page, 'reason');
    });

    test('visitor sign-in: name and email wait; "Confirm all" confirms both with one tap', async ({ page }) => {
      const name = { variable: 'full_name', label: 'Your name' };
      const email = { variable: 'email', label: 'Email address' };
      await startVisit(page, { flow: 'visitor-signin' });
      await say(page, 'My name is Sam Lee');
      await say(page, 'my email is sam.lee@example.com');
      await waitingShown(page, [name, email]);
      await expectAllUnderFinger(page, [name, email], 'Next', tablet);
      await tapWithFinger(page, confirmAll(page), 'Confirm all');
      await expectStep(page, 'host');
    });

    test('onboarding: the one name waiting is under the finger, and its Confirm moves on', async ({ page }) => {
      const first = { variable: 'first_name', label: "What's your first name?" };
      await startVisit(page, { flow: 'onboarding' });
      await say(page, 'My name is Alex');
      await waitingShown(page, [first]);
      await expectAllUnderFinger(page, [first], 'Continue', tablet);
      await tapWithFinger(page, confirmOf(page, first), "Confirm What's your first name?");
      await expectStep(page, 'choose_color');
    });
  });
}

test.describe('a small phone (375×667): "More below"', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true });

  test('pages through two waiting values without passing a control half shown', async ({ page }) => {
    await startVisit(page, { flow: 'clinic-checkin' });
    await say(page, 'My name is Maria Garcia, born 5 March 1984');
    await waitingShown(page, [{ variable: 'full_name', label: 'Full name' }, { variable: 'date_of_birth', label: 'Date of birth' }]);
    await page.locator('.step-body').evaluate((body) => body.scrollTo({ top: 0 }));
    const total = await page.locator('.step-body').locator(STEP_CONTROLS).count();
    const more = page.getByRole('button', { name: /^More below/ });
    const seen = new Set<number>();
    for (let taps = 0; ; taps++) {
      for (const i of await wholeInStep(page)) seen.add(i);
      if (!(await more.count())) break;
      expect(taps, 'the step ends within ten pages').toBeLessThan(10);
      // The step's panel says whether more is below at its scroll event, a frame after the tap:
      // read it again only once that has come.
      const scrolled = page.locator('.step-body').evaluate(
        (body) => new Promise<void>((done) => body.addEventListener('scroll', () => body.ownerDocument.defaultView!.requestAnimationFrame(() => done()), { once: true })),
      );
      await tapWithFinger(page, more, '"More below"');
      await scrolled;
    }
    expect([...seen].sort((a, b) => a - b), 'each control of the step was once wholly in view').toEqual([...Array(total).keys()]);
  });
});

/** What a visitor taps in a step. */
const STEP_CONTROLS = 'input, select, button';

/** The controls of the step (by their order) that its panel shows whole now. */
function wholeInStep(page: Page): Promise<number[]> {
  return page.locator('.step-body').evaluate((body, selector) => {
    const panel = body.getBoundingClientRect();
    return [...body.querySelectorAll(selector)].flatMap((c, i) => {
      const r = c.getBoundingClientRect();
      return r.top >= panel.top && r.bottom <= panel.bottom ? [i] : [];
    });
  }, STEP_CONTROLS);
}
