// Privacy on a shared kiosk: the end screen, "Start over" and walking away all wipe the visit,
// and the idle screen that follows holds nothing the visitor said or typed: not on the page, not
// in localStorage or sessionStorage (the copy kept for a resume included), IndexedDB or Cache
// Storage (the service worker's caches included).

import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { expectNothingPersonalLeft, findInStores, leaveEverywhere, leaveInStorage } from './support/privacy.ts';
import { expectStep, fieldBlock, input, kiosk, say, screenWhen, serviceWorkerControls, startVisit } from './support/kiosk.ts';

const NAME = 'Quillon';
const NAME_LABEL = "What's your first name?";

/** Onboarding up to the end screen, the name typed by hand and a colour tapped. */
async function completeOnboarding(page: Page): Promise<void> {
  await input(page, NAME_LABEL).fill(NAME);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'blue', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
}

async function expectIdle(page: Page, timeout?: number): Promise<void> {
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle', timeout === undefined ? {} : { timeout });
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
}

/** The next visitor's first step shows nothing of the last one (no old captions, no old value). */
async function expectFreshVisit(page: Page, personal: readonly string[]): Promise<void> {
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectStep(page, 'ask_name');
  await expect(input(page, NAME_LABEL)).toHaveValue('');
  await expectNothingPersonalLeft(page, personal);
}

test('the end screen shows none of the answers, then wipes itself and returns to idle', async ({ page }) => {
  await startVisit(page, { end_seconds: 1 });
  await say(page, `My name is ${NAME}`);
  await leaveInStorage(page, NAME);
  await page.getByRole('button', { name: `Confirm ${NAME_LABEL}` }).click();
  // The end screen lasts a second: what it shows is read by the page the moment it appears.
  const endScreen = screenWhen(page, 'data-phase', 'ended');
  await page.getByRole('button', { name: 'blue', exact: true }).click();

  // Left for whoever steps up next: nothing of the visitor's on it, and nothing to read, so the
  // operator's short end time holds (issue 31).
  const { text } = await endScreen;
  expect(text).not.toContain(NAME);
  expect(text).toContain('This screen clears itself in 1 second.');

  await expectIdle(page, 5_000);
  await expectNothingPersonalLeft(page, [NAME, 'blue', `My name is ${NAME}`]);
  await expectFreshVisit(page, [NAME]);
});

test('"Finish" on the end screen wipes at once', async ({ page }) => {
  await startVisit(page);
  await completeOnboarding(page);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expectIdle(page);
  await expectNothingPersonalLeft(page, [NAME]);
  await expectFreshVisit(page, [NAME]);
});

test('"Start over" mid-flow wipes at once, and the next visit starts empty', async ({ page }) => {
  await startVisit(page);
  await say(page, `My name is ${NAME}`);
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);
  await leaveInStorage(page, NAME);

  await page.getByRole('button', { name: 'Start over' }).click();
  // A name was entered: the kiosk asks once before it clears it.
  await page.getByRole('alertdialog', { name: 'Start over?' }).getByRole('button', { name: 'Yes, start over' }).click();

  await expectIdle(page);
  await expectNothingPersonalLeft(page, [NAME]);
  await expectFreshVisit(page, [NAME]);
});

test('walking away: "Are you still there?" appears, then the kiosk wipes back to idle', async ({ page }) => {
  // The page's clock is Playwright's: the idle time passes when the test says, however busy the machine.
  await page.clock.install();
  await startVisit(page, { idle_seconds: 60, idle_grace_seconds: 10 });
  await say(page, `My name is ${NAME}`);
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);

  await page.clock.runFor(60_000);
  const dialog = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: "I'm still here" })).toBeFocused();

  await page.clock.runFor(10_000);
  await expectIdle(page);
  await expectNothingPersonalLeft(page, [NAME]);
  await expectFreshVisit(page, [NAME]);
});

test('"I\'m still here" keeps the visit past the time it would have been wiped', async ({ page }) => {
  await page.clock.install();
  await startVisit(page, { idle_seconds: 60, idle_grace_seconds: 10 });
  await say(page, `My name is ${NAME}`);
  await page.clock.runFor(60_000);
  const dialog = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(dialog).toBeVisible();

  await dialog.getByRole('button', { name: "I'm still here" }).click();
  await expect(dialog).toBeHidden();
  // Past the moment the first question's wipe was due: the visit is still there.
  await page.clock.runFor(15_000);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
  await expect(dialog).toBeHidden();
  // The question comes back after a whole new idle period.
  await page.clock.runFor(45_000);
  await expect(dialog).toBeVisible();
  await expectStep(page, 'ask_name');
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);
});

// ------------------------------------------------------------------ every store, three ways out

const TYPED_NAME = 'Zebulon Quarkwright';
const SAID_EMAIL = 'zq.marlinspike@example.com';
/** The values and recognisable parts of them: none may be left anywhere. */
const PERSONAL = [TYPED_NAME, 'Quarkwright', SAID_EMAIL, 'marlinspike'];

/** Waits until a service worker controls the page, so its caches are there to be searched. */
async function controlled(page: Page): Promise<void> {
  await serviceWorkerControls(page);
}

/** Visitor sign-in with the name typed into its field and the email said to the offline assistant. */
async function signInDetails(page: Page, params: Parameters<typeof startVisit>[1] = {}): Promise<void> {
  await startVisit(page, { flow: 'visitor-signin', ...params });
  await controlled(page);
  await expectStep(page, 'details');
  await input(page, 'Your name').fill(TYPED_NAME);
  await say(page, `my email is ${SAID_EMAIL}`);
  await expect(fieldBlock(page, 'email')).toHaveAttribute('data-status', 'pending');
  await expect(input(page, 'Email address')).toHaveValue(SAID_EMAIL);
}

/** The copy kept for a resume holds the visit, and every store holds a careless copy too. */
async function everythingStored(page: Page): Promise<void> {
  const kept = await page.evaluate<string | null>(`localStorage.getItem('kiosk-visit')`);
  expect(kept).toContain(TYPED_NAME);
  expect(kept).toContain(SAID_EMAIL);
  await leaveEverywhere(page, TYPED_NAME);
  const found = await findInStores(page, [TYPED_NAME]);
  for (const where of ['localStorage kiosk-visit', 'localStorage draft', 'sessionStorage draft', 'IndexedDB careless/drafts', 'cache careless url', 'cache workbox-precache']) {
    expect(found.some((f) => f.startsWith(where)), `the search finds the name in ${where}`).toBe(true);
  }
}

async function expectSweptClean(page: Page): Promise<void> {
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  // IndexedDB and Cache Storage are cleared a moment after the screen.
  await expect.poll(() => findInStores(page, PERSONAL), { timeout: 10_000 }).toEqual([]);
  await expectNothingPersonalLeft(page, PERSONAL);
}

// One test, three ways out, in one page: a service worker's first install (it precaches the app)
// is the dearest part of a browser test, and it is what these need.
test.describe('with the service worker and its caches', () => {
  // These are about the service worker and what it keeps too: it may register (the suite blocks it elsewhere).
  test.use({ serviceWorkers: 'allow' });

  test('"Start over", walking away and the end of the visit each leave nothing in any store', async ({ page }) => {
    test.setTimeout(90_000);
    // The page's clock is Playwright's, so the walk-away and the end screen's second come when the test says.
    await page.clock.install();
    const timings = { idle_seconds: 60, idle_grace_seconds: 10, end_seconds: 1 };

    await signInDetails(page, timings);
    await everythingStored(page);
    await page.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('alertdialog', { name: 'Start over?' }).getByRole('button', { name: 'Yes, start over' }).click();
    await expectSweptClean(page);

    await signInDetails(page, timings);
    await everythingStored(page);
    await page.clock.runFor(60_000);
    await expect(page.getByRole('alertdialog', { name: 'Are you still there?' })).toBeVisible();
    await page.clock.runFor(10_000);
    await expectSweptClean(page);

    await signInDetails(page, timings);
    await page.getByRole('button', { name: 'Next' }).click();
    await expectStep(page, 'host');
    await page.getByRole('button', { name: 'Tom Becker' }).click();
    await expectStep(page, 'rules');
    await page.getByRole('button', { name: 'I agree' }).click();
    await expectStep(page, 'badge');
    await everythingStored(page);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
    await page.clock.runFor(1_000);
    await expectSweptClean(page);
  });
});
