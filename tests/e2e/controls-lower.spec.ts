// Controls lower (ADA 308, EN 301 549 8.3): set for the kiosk in the operator panel, or by the
// visitor for their visit, every control a visitor touches is in the lower part of the screen,
// within reach from a wheelchair: the lower half of a tall kiosk screen, the lower 70 % of a wide
// one (a tablet on a stand). Read from the page's geometry on each screen of a visit.

import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { testConfig } from '../support/test-config.ts';
import { emptyTestMemory } from '../support/test-memory.ts';
import { expectStep, fieldBlock, kiosk, openKiosk, say, settled } from './support/kiosk.ts';
import { expectWhollyIn, inView } from './support/in-view.ts';

/** The controls above `top` (a share of the screen's height): none, or what they are. */
async function expectControlsBelow(page: Page, top: number, screen: string): Promise<void> {
  const high = await page.evaluate(`(() => {
    const line = innerHeight * ${top};
    const out = [];
    for (const el of document.querySelectorAll('button, input, select, textarea, a[href]')) {
      if (!el.checkVisibility() || el.closest('.operator-corner')) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      if (r.top < line || r.bottom > innerHeight) out.push(el.tagName + ' "' + (el.getAttribute('aria-label') || el.textContent || el.id).trim().slice(0, 30) + '" at ' + Math.round(r.top));
    }
    return out;
  })()`);
  expect(high, `controls out of reach on the ${screen} screen (above ${Math.round(top * 100)} % of the height, or off it)`).toEqual([]);
}

const SCREENS = [
  { width: 1080, height: 1920, top: 0.5, name: 'a tall kiosk screen' },
  { width: 1280, height: 800, top: 0.3, name: 'a wide tablet' },
];

for (const { width, height, top, name } of SCREENS) {
  test.describe(name, () => {
    test.use({ viewport: { width, height } });

    test('every control of a clinic visit is within reach, its dialogs and lists too', async ({ page }) => {
      const reach = (screen: string) => expectControlsBelow(page, top, screen);
      await openKiosk(page, { flow: 'clinic-checkin', layout: 'lower', idle_seconds: 8, idle_grace_seconds: 30 });
      await expect(kiosk(page)).toHaveAttribute('data-controls', 'lower');
      await reach('idle');

      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await say(page, 'I am Maria Garcia, born 15 March 1990');
      await expect(fieldBlock(page, 'date_of_birth')).toHaveAttribute('data-status', 'pending');
      await settled(page);
      await reach('form with two values waiting');

      await page.getByRole('button', { name: 'Accessibility' }).click();
      await reach("visitor's choices");
      await page.getByRole('button', { name: 'Close' }).click();

      await expect(page.getByRole('alertdialog', { name: 'Are you still there?' })).toBeVisible({ timeout: 15_000 });
      await reach('still there');
      await page.getByRole('button', { name: "I'm still here" }).click();

      // The date of birth is under the fold on the wide tablet: the first tap shows it, the second confirms (issue 31 point 10).
      const confirmAll = page.getByRole('button', { name: 'Confirm all 2 answers' });
      const born = fieldBlock(page, 'date_of_birth').locator('input');
      if (!(await inView(page, born))) {
        await confirmAll.click();
        await expectWhollyIn(born, page.locator('.step-body'), 'the date of birth, shown');
        await expect(fieldBlock(page, 'date_of_birth')).toHaveAttribute('data-status', 'pending');
      }
      await confirmAll.click();
      await expectStep(page, 'reason');
      await reach('options');
      await page.getByRole('button', { name: /^Walk-in visit/ }).click();
      await expectStep(page, 'summary');
      await say(page, 'Please check me in');
      await expect(page.getByRole('region', { name: 'Please confirm' })).toBeVisible();
      await settled(page);
      await reach('card with an action to confirm');

      await page.getByRole('button', { name: 'Start over' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Start over?' })).toBeVisible();
      await reach('start over?');
      await page.getByRole('button', { name: 'No, go on' }).click();
      await page.getByRole('button', { name: 'Yes, go ahead' }).click();
      await expectStep(page, 'checked_in');
      await reach('checked in, its time limit shown');
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
      await settled(page);
      await reach('end');
    });
  });
}

test.describe('set by the operator', () => {
  let server: RunningServer | null = null;
  test.afterEach(async () => {
    await server?.close();
    server = null;
  });

  test('the panel keeps the layout and the volume for this kiosk; a visitor may change the layout for their visit only', async ({ page }) => {
    server = await startServer({ root: 'dist', config: testConfig({ OPERATOR_PIN: '271828' }), host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
    await page.goto(`${server.url}/?flow=onboarding`);
    await expect(kiosk(page)).toHaveAttribute('data-controls', 'standard');
    // The corner, held with Enter as staff with a keyboard would.
    await page.getByRole('button', { name: 'Staff: hold for 3 seconds to open the operator panel' }).focus();
    await page.keyboard.down('Enter');
    await expect(page.getByLabel('PIN', { exact: true })).toBeVisible({ timeout: 10_000 });
    await page.keyboard.up('Enter');
    await page.getByLabel('PIN', { exact: true }).fill('271828');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByLabel('Controls', { exact: true }).selectOption('lower');
    await page.getByLabel('Volume', { exact: true }).selectOption('5');
    await page.getByRole('button', { name: 'Save and restart' }).click();

    await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
    await expect(kiosk(page)).toHaveAttribute('data-controls', 'lower');
    await expect(kiosk(page)).toHaveAttribute('data-volume', '5');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(kiosk(page)).toHaveAttribute('data-controls', 'lower');
    await page.getByRole('button', { name: 'Accessibility' }).click();
    await page.getByRole('button', { name: 'Controls lower' }).click();
    await expect(kiosk(page)).toHaveAttribute('data-controls', 'standard');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Start over' }).click();
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
    await expect(kiosk(page)).toHaveAttribute('data-controls', 'lower');
  });
});
