// Flows from elsewhere: a flow on another site without CORS says so, an address that never
// answers times out with a message, and a flow without a title shows its id in words.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { serveFlow } from './support/flows.ts';
import { kiosk, openKiosk } from './support/kiosk.ts';

const FLOW = 'id: elsewhere\ntitle: From elsewhere\nstates:\n  only: { ui: { artifact_type: card, title: Hello }, transitions: { on_ui_event: { done: __end__ } } }\n';

/** A web server on another port (another origin), with or without the CORS header. */
async function otherSite(cors: boolean): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/yaml', ...(cors ? { 'access-control-allow-origin': '*' } : {}) });
    res.end(FLOW);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/flow.yaml`, server };
}

test('a flow on another site loads when the site allows it (CORS), and says why when it does not', async ({ page }) => {
  const allowing = await otherSite(true);
  const refusing = await otherSite(false);
  try {
    await openKiosk(page, { flow: allowing.url });
    await expect(page.getByRole('heading', { name: 'From elsewhere' })).toBeVisible();

    await page.goto(`/?flow=${encodeURIComponent(refusing.url)}`);
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
    await expect(page.locator('.diagnostics')).toContainText('Access-Control-Allow-Origin (CORS)');
  } finally {
    allowing.server.close();
    refusing.server.close();
  }
});

test('a flow address that never answers gives up with a message instead of "Getting ready…" for ever', async ({ page }) => {
  await page.route((url) => url.pathname === '/test-flows/silent.yaml', () => {
    // never answered
  });
  await page.goto('/?flow=/test-flows/silent.yaml&flow_timeout_seconds=1');
  await expect(page.getByText('Getting ready…')).toBeVisible();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
  await expect(page.locator('.diagnostics')).toContainText('the server did not answer within 1 second');
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
