// Flows from elsewhere, through the kiosk's own server (a server of the test's own here, with
// FLOW_ALLOWED_ORIGINS set): a flow on an allowed site loads with no CORS header, one on any
// other site is refused with the setting named, an address that never answers times out with a
// message (and no "run vfdl check"), a name that is no bundled flow says so, and a flow without a
// title shows its id in words.

import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { startServer } from '../../server/app.ts';
import { testConfig } from '../support/test-config.ts';
import { startFlowHost } from '../support/flow-host.ts';
import { emptyTestMemory } from '../support/test-memory.ts';
import { serveFlow } from './support/flows.ts';
import { kiosk, openKiosk } from './support/kiosk.ts';

const FLOW = 'id: elsewhere\ntitle: From elsewhere\nstates:\n  only: { ui: { artifact_type: card, title: Hello }, transitions: { on_ui_event: { done: __end__ } } }\n';

const closers: (() => Promise<unknown>)[] = [];
test.afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** A web server on another port (another origin), sending no CORS header; `silent` never answers. */
async function otherSite(silent = false): Promise<{ url: string; origin: string; hits: () => number }> {
  const host = await startFlowHost();
  closers.push(host.close);
  host.files.set('/flow.yaml', silent ? () => {} : FLOW);
  return { url: `${host.origin}/flow.yaml`, origin: host.origin, hits: () => host.hits.length };
}

/** A page on a kiosk server of its own that loads flows from `origins`. */
async function kioskAllowing(browser: Browser, origins: string[]): Promise<Page> {
  const config = testConfig({ FLOW_ALLOWED_ORIGINS: origins.join(',') });
  const server = await startServer({ root: 'dist', config, host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
  closers.push(() => server.close());
  const context = await browser.newContext({ baseURL: server.url });
  closers.push(() => context.close());
  return context.newPage();
}

test('a flow on a site the operator allowed loads without CORS; any other site is refused, naming the setting', async ({ browser }) => {
  const allowed = await otherSite();
  const other = await otherSite();
  const page = await kioskAllowing(browser, [allowed.origin]);
  await openKiosk(page, { flow: allowed.url });
  await expect(page.getByRole('heading', { name: 'From elsewhere' })).toBeVisible();

  await page.goto(`/?flow=${encodeURIComponent(other.url)}`);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
  await expect(page.locator('.diagnostics')).toContainText(`FLOW_ALLOWED_ORIGINS; ${other.origin} is not among them`);
  expect(other.hits()).toBe(0);
});

test('a flow address that never answers gives up with a message instead of "Getting ready…" for ever', async ({ browser }) => {
  const silent = await otherSite(true);
  const page = await kioskAllowing(browser, [silent.origin]);
  await page.goto(`/?flow=${encodeURIComponent(silent.url)}&flow_timeout_seconds=1`);
  await expect(page.getByText('Getting ready…')).toBeVisible();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
  await expect(page.locator('.diagnostics')).toContainText(`${silent.origin} did not answer within 1 s`);
  // Nothing is wrong with a file that never came: staff are sent to the address and the network, not to vfdl check.
  await expect(page.locator('.lead')).toHaveText(`The flow ${silent.url} could not be loaded: its address did not answer in time or could not be reached. Check the address and the network, then reload this page.`);
});

test('a plain name that is no bundled flow says so, and lists the bundled ones', async ({ page }) => {
  await page.goto('/?flow=nope');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
  await expect(page.locator('.lead')).toHaveText('The flow nope could not be loaded. Check its name or address (the problem is below), then reload this page.');
  await expect(page.locator('.diagnostics')).toHaveText(
    'nope:1:1: error: could not load the flow: there is no bundled flow named "nope" (the bundled flows: clinic-checkin, onboarding, visitor-signin); give one of them, or the address of a flow file [not-a-flow]',
  );
});

test('a flow without a title shows its id in words on the idle screen', async ({ page }) => {
  await serveFlow(page, '/test-flows/untitled.yaml', 'id: booking_wizard\nstates:\n  only: { ui: { artifact_type: card, title: Hi }, transitions: { on_ui_event: { done: __end__ } } }\n');
  await openKiosk(page, { flow: '/test-flows/untitled.yaml' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Booking wizard');
});

test('a step without a screen shows the conversation only, not an empty card', async ({ page }) => {
  await serveFlow(
    page,
    '/test-flows/talk-only.yaml',
    'id: talk_only\ntitle: Just talk\nstates:\n  chat:\n    agent: { prompt: Chat with the visitor. }\n    transitions: { on_utterance: [ { pattern: "^bye$", target: __end__ } ] }\n',
  );
  await openKiosk(page, { flow: '/test-flows/talk-only.yaml' });
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'chat');
  await expect(page.locator('.step')).toHaveCount(0);
  await expect(page.getByLabel('Type your answer', { exact: true })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Conversation' })).toBeVisible();
});
