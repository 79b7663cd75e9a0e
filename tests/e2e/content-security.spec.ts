// The kiosk under its own Content-Security-Policy (set by its server, server/app.ts): the built
// page, its service worker and a visit by touch, with a check-in at the local clinic service, run
// without one refusal; and no page of another site can frame the kiosk. (The voice tests check the
// detector's wasm and worklet the same way, in their fixture: tests/e2e/support/voice.ts.)

import { expect, test } from './support/test.ts';
import { expectStep, input, kiosk, pendingCard, say, serviceWorkerControls, settled, startVisit } from './support/kiosk.ts';

// The service worker must register: it runs under the policy too.
test.use({ serviceWorkers: 'allow' });

/** Records every `securitypolicyviolation` in the page, before the kiosk's own scripts run. */
const WATCH_POLICY = `(() => {
  const seen = (window.__policyViolations = []);
  document.addEventListener('securitypolicyviolation', (e) => seen.push(e.effectiveDirective + ' ' + e.blockedURI));
})()`;

test('the page, its service worker and a visit with a check-in run under the policy, with nothing refused', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) refused.push(m.text());
  });
  await page.addInitScript(WATCH_POLICY);

  const response = await page.goto('/?flow=onboarding');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
  await serviceWorkerControls(page);

  // Onboarding by typing and tapping.
  await startVisit(page, { flow: 'onboarding' });
  await say(page, 'My name is Alex');
  await page.getByRole('button', { name: "Confirm What's your first name?" }).click();
  await expectStep(page, 'choose_color');
  await page.getByRole('button', { name: 'green', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');

  // The clinic example: a check-in through /api/actions at the local clinic service, outcomes to /api/analytics.
  await startVisit(page, { flow: 'clinic-checkin' });
  await input(page, 'Full name').fill('Li Wei');
  await input(page, 'Date of birth').fill('1992-11-03');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'reason');
  await page.getByRole('button', { name: /Walk-in visit/ }).click();
  await expectStep(page, 'summary');
  await page.getByRole('button', { name: 'Check me in' }).click();
  await settled(page);
  await pendingCard(page).getByRole('button', { name: 'Yes, go ahead' }).click();
  await expectStep(page, 'checked_in');

  expect([...((await page.evaluate('window.__policyViolations')) as string[]), ...refused]).toEqual([]);
});

test('no page of another site can frame the kiosk', async ({ page, baseURL }) => {
  await page.setContent(`<iframe src="${baseURL}/?flow=onboarding" title="kiosk"></iframe>`);
  const frame = page.frames()[1]!;
  await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
  await expect(page.frameLocator('iframe').locator('.kiosk')).toHaveCount(0);
});
