// Actions that really happen, in Chromium: each test starts the local clinic service and the
// kiosk's own server (the production build) with ACTION_ORIGIN_CLINIC pointing at it, so the
// clinic example checks a patient in for real. By touch and by typing the service receives
// exactly one check-in; a double confirm is one; an expired, an edited, a refused and a failed
// action each end as the visitor is told, in plain words.

import { type Browser, type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { testConfig } from '../support/test-config.ts';
import { startClinicService, type ClinicService } from '../servers/clinic-service.ts';
import { emptyTestMemory } from '../support/test-memory.ts';
import { startFlowHost, type FlowHost } from '../support/flow-host.ts';
import { agentLines, doubleTap, expectStep, input, kiosk, pendingCard, say, settled } from './support/kiosk.ts';

const TOKEN = 'e2e-actions-clinic-token';

interface Setup {
  page: Page;
  clinic: ClinicService;
  server: RunningServer;
  /** outcome counts for a flow on /api/status */
  counts(flowId: string): Promise<Record<string, number>>;
}

const closers: (() => Promise<unknown>)[] = [];
/** The flow host of the test under way: the kiosk's server loads test flows from it. */
let flows: FlowHost;
test.afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** The clinic service, the kiosk server allowed to reach it, and a page on that server. */
async function setUp(browser: Browser, env: Record<string, string> = {}): Promise<Setup> {
  const clinic = await startClinicService({ token: TOKEN });
  closers.push(() => clinic.close());
  flows = await startFlowHost();
  closers.push(() => flows.close());
  const config = testConfig({
    ACTION_ORIGIN_CLINIC: clinic.url,
    ACTION_SECRET_CLINIC_TOKEN: TOKEN,
    ACTION_SECRET_CLINIC_TOKEN_ORIGINS: clinic.url,
    FLOW_ALLOWED_ORIGINS: flows.origin,
    ...env,
  });
  const server = await startServer({ root: 'dist', config, host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
  closers.push(() => server.close());
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
  closers.push(() => context.close());
  const page = await context.newPage();
  const counts = async (flowId: string) => {
    const status = (await (await fetch(`${server.url}/api/status`)).json()) as { actions: { counts: Record<string, Record<string, number>> } };
    return status.actions.counts[flowId] ?? {};
  };
  return { page, clinic, server, counts };
}

async function start(page: Page, flow: string): Promise<void> {
  await page.goto(`/?flow=${encodeURIComponent(flow)}`);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
}

/** The clinic example up to its summary, by touch: Li Wei, a walk-in. */
async function toSummary(page: Page): Promise<void> {
  await start(page, 'clinic-checkin');
  await input(page, 'Full name').fill('Li Wei');
  await input(page, 'Date of birth').fill('1992-11-03');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'reason');
  await page.getByRole('button', { name: /Walk-in visit/ }).click();
  await expectStep(page, 'summary');
}

test('a patient the clinic has no appointment for (its 404) hears and reads so, gives the doctor and time, and goes on', async ({ browser }) => {
  const { page, clinic } = await setUp(browser);
  await start(page, 'clinic-checkin');
  await input(page, 'Full name').fill('Ada Lovelace');
  await input(page, 'Date of birth').fill('1990-12-10');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'reason');
  await page.getByRole('button', { name: /^Appointment/ }).click();
  await expectStep(page, 'appointment');
  // Two taps 80 ms apart on "Find my appointment", the clinic slow to answer: one look-up (issue 30 point 2).
  await settled(page);
  clinic.delayMs = 1000;
  await doubleTap(page, page.getByRole('button', { name: 'Find my appointment' }), 80);

  await expectStep(page, 'no_appointment');
  clinic.delayMs = 0;
  expect(clinic.lookups).toEqual([{ name: 'Ada Lovelace', dob: '1990-12-10', found: false }]);
  await expect(page.getByRole('heading', { name: 'We could not find an appointment for you today' })).toBeVisible();
  await expect(agentLines(page).last()).toContainText('We could not find an appointment for you today');
  // An answer the flow expected, not a failure: no "did not go through".
  await expect(page.getByRole('main')).not.toContainText('did not go through');
  await expect(page.getByRole('button', { name: 'Ask at the front desk' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Which doctor are you seeing?', exact: true }).selectOption('Dr. Okafor');
  await input(page, 'Appointment time').fill('9:15');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'appointment_summary');
  await expect(page.getByRole('main')).toContainText('Appointment: Dr. Okafor at 9:15');
});

test('without ACTION_ORIGIN_CLINIC, "Find my appointment" fails plainly and sends the patient to the front desk', async ({ browser }) => {
  const { page, clinic } = await setUp(browser, { ACTION_ORIGIN_CLINIC: '', ACTION_SECRET_CLINIC_TOKEN: '', ACTION_SECRET_CLINIC_TOKEN_ORIGINS: '' });
  await start(page, 'clinic-checkin');
  await input(page, 'Full name').fill('Maria Garcia');
  await input(page, 'Date of birth').fill('1984-03-05');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: /^Appointment/ }).click();
  await expectStep(page, 'appointment');
  await page.getByRole('button', { name: 'Find my appointment' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByRole('heading', { name: 'Please see the front desk' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Sorry, that did not go through. Nothing was done.');
  expect(clinic.requests).toEqual([]);
});

test('by touch: "Check me in", then a double tap on Yes, checks the patient in exactly once', async ({ browser }) => {
  const { page, clinic, counts } = await setUp(browser);
  await toSummary(page);
  await page.getByRole('button', { name: 'Check me in' }).click();
  await expect(pendingCard(page)).toContainText('Check in Li Wei for: Walk-in visit');
  expect(clinic.checkIns).toHaveLength(0);
  await settled(page);
  await doubleTap(page, pendingCard(page).getByRole('button', { name: 'Yes, go ahead' }), 120);

  await expectStep(page, 'checked_in');
  await expect(page.getByRole('heading', { name: "You're checked in, Li Wei" })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Your number is 1.');
  expect(clinic.checkIns).toEqual([
    { check_in_id: 'chk-1', queue_number: 1, name: 'Li Wei', dob: '1992-11-03', reason: 'walk_in', idempotency_key: expect.stringMatching(/^v[0-9a-f]{32}\.action_\d+$/) },
  ]);
  expect(clinic.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  await expect.poll(() => counts('clinic_checkin')).toMatchObject({ proposed: 1, confirmed: 1, done: 1, failed: 0 });
});

test('a reload while the check-in is under way sends nothing again: the page asks how it ended, and the patient is checked in once', async ({ browser }) => {
  const { page, clinic } = await setUp(browser);
  await toSummary(page);
  await page.getByRole('button', { name: 'Check me in' }).click();
  await settled(page);
  // The clinic takes its time: the page is reloaded after the request left, before the answer.
  clinic.delayMs = 3000;
  await pendingCard(page).getByRole('button', { name: 'Yes, go ahead' }).click();
  await expect.poll(() => clinic.requests.filter((r) => r.method === 'POST').length).toBe(1);
  await page.reload();

  // The visit comes back at the summary, and the answer the server got reaches it.
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'checked_in', { timeout: 15_000 });
  expect(clinic.checkIns).toHaveLength(1);
  expect(clinic.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
});

test('by typing: the appointment is looked up, "check me in" and "yes" check the patient in once', async ({ browser }) => {
  const { page, clinic } = await setUp(browser);
  await start(page, 'clinic-checkin');
  await say(page, 'I am Maria Garcia, born 5 March 1984');
  await say(page, 'yes');
  await expectStep(page, 'reason');
  await page.getByRole('button', { name: /^Appointment/ }).click();
  await expectStep(page, 'appointment');
  await page.getByRole('button', { name: 'Find my appointment' }).click();
  await expectStep(page, 'appointment_summary');
  expect(clinic.lookups).toEqual([{ name: 'Maria Garcia', dob: '1984-03-05', found: true }]);
  // The doctor and the time the clinic has are there to check before checking in.
  await expect(page.getByRole('main')).toContainText('Appointment: Dr. Lindqvist at 10:30');

  await say(page, 'Please check me in');
  await expect(pendingCard(page)).toContainText('Check in Maria Garcia for: Appointment');
  await expect(agentLines(page).last()).toContainText('Shall I go ahead?');
  await say(page, 'yes');
  await expectStep(page, 'checked_in');
  expect(clinic.checkIns).toEqual([expect.objectContaining({ name: 'Maria Garcia', dob: '1984-03-05', reason: 'appointment', appointment_id: 'apt-1001' })]);
  await page.getByRole('button', { name: 'Done' }).click();
  // The end screen shows the queue number the clinic gave, never the clinic's own id for the appointment.
  const remember = page.getByRole('region', { name: 'Please remember' });
  await expect(remember.locator('dt')).toHaveText(['Queue number']);
  await expect(page.locator('body')).not.toContainText('apt-1001');
});

test('the clinic is down: a plain sentence, the front desk, and nothing reported as done', async ({ browser }) => {
  const { page, clinic, counts } = await setUp(browser);
  await toSummary(page);
  clinic.fail('http_500');
  await page.getByRole('button', { name: 'Check me in' }).click();
  await settled(page);
  await pendingCard(page).getByRole('button', { name: 'Yes, go ahead' }).click();

  await expectStep(page, 'front_desk');
  await expect(page.getByRole('alert')).toHaveText('Sorry, that did not go through. Nothing was done.');
  // The front desk ends the visit: its screen, left for whoever comes next, shows no captions (issue 31).
  await expect(page.getByRole('log')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('500');
  await expect(page.locator('body')).not.toContainText("You're checked in");
  expect(clinic.checkIns).toHaveLength(0);
  await expect.poll(() => counts('clinic_checkin')).toMatchObject({ confirmed: 1, failed: 1, done: 0 });
});

/** A booking flow of the tests' own: a time the visitor may change on the card, a short expiry. */
const BOOKING = (url: string, expiresAfter = 300) => `
id: booking_test
variables:
  full_name: { type: string, default: Ana Lima }
  slot: { type: string, default: "10:00" }
states:
  confirm:
    ui:
      artifact_type: card
      title: Book your visit
      actions: [ { event: book, label: Book it, tool: book } ]
    agent: { prompt: Offer to book., tools: [book] }
    tools:
      book:
        description: Book a visit.
        confirm: true
        expires_after: ${expiresAfter}
        summary: "Book {full_name} at {slot}"
        parameters:
          slot: { type: string, required: true, pattern: "^[0-9]{1,2}:[0-9]{2}$" }
        http:
          method: POST
          url: "${url}"
          headers: { Authorization: "Bearer {secret:CLINIC_TOKEN}" }
          body: { name: "{full_name}", dob: "1990-01-01", reason: "booking at {slot}" }
    transitions:
      on_tool_call: { book: booked }
      on_action_failed: { book: sorry }
  booked: { ui: { artifact_type: card, title: "Booked for {slot}" } }
  sorry: { ui: { artifact_type: card, title: Please ask at the desk } }
`;

async function startBooking(page: Page, url: string, expiresAfter?: number): Promise<void> {
  flows.files.set('/booking.yaml', BOOKING(url, expiresAfter));
  await start(page, `${flows.origin}/booking.yaml`);
  await expectStep(page, 'confirm');
}

test('an edit by touch: "Change" replaces the pending action, which needs its own yes; one check-in, the new time', async ({ browser }) => {
  const { page, clinic, counts } = await setUp(browser);
  await startBooking(page, '{origin:CLINIC}/check-ins');
  await page.getByRole('button', { name: 'Book it' }).click();
  await expect(pendingCard(page)).toContainText('Book Ana Lima at 10:00');
  await settled(page);
  await pendingCard(page).getByRole('button', { name: 'Change' }).click();
  await pendingCard(page).getByLabel('Slot').fill('15:30');
  await pendingCard(page).getByRole('button', { name: 'Save changes' }).click();
  await expect(pendingCard(page)).toContainText('Book Ana Lima at 15:30');
  expect(clinic.requests).toHaveLength(0);
  await settled(page);
  await pendingCard(page).getByRole('button', { name: 'Yes, go ahead' }).click();
  await expectStep(page, 'booked');
  await expect(page.getByRole('heading', { name: 'Booked for 15:30' })).toBeVisible();
  expect(clinic.checkIns.map((c) => c.reason)).toEqual(['booking at 15:30']);
  await expect.poll(() => counts('booking_test')).toMatchObject({ proposed: 2, edited: 1, confirmed: 1, done: 1 });
});

test('an action left unconfirmed expires: the card goes and nothing is sent', async ({ browser }) => {
  const { page, clinic, counts } = await setUp(browser);
  await startBooking(page, '{origin:CLINIC}/check-ins', 4);
  await page.getByRole('button', { name: 'Book it' }).click();
  // Proposed, then (4 s later, on a busy machine maybe before the test looks) expired.
  await expect.poll(() => counts('booking_test'), { timeout: 15_000 }).toMatchObject({ proposed: 1, expired: 1, confirmed: 0 });
  await expect(pendingCard(page)).toBeHidden();
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'confirm');
  await expect(agentLines(page).filter({ hasText: 'Book Ana Lima at 10:00. Shall I go ahead?' })).toHaveCount(1);
  expect(clinic.requests).toHaveLength(0);
});

test('a host the operator did not allow is refused: nothing leaves the server, the visitor is told plainly', async ({ browser }) => {
  const { page, clinic } = await setUp(browser);
  const elsewhere = await startClinicService();
  closers.push(() => elsewhere.close());
  await startBooking(page, `${elsewhere.url}/check-ins`);
  await page.getByRole('button', { name: 'Book it' }).click();
  await settled(page);
  await pendingCard(page).getByRole('button', { name: 'Yes, go ahead' }).click();
  await expectStep(page, 'sorry');
  await expect(page.getByRole('alert')).toHaveText('Sorry, that did not go through. Nothing was done.');
  await expect(page.locator('body')).not.toContainText('allowed origins');
  expect(elsewhere.requests).toHaveLength(0);
  expect(clinic.requests).toHaveLength(0);
});
