// When voice fails the kiosk says so and goes on: speech recognition down, the model down, a
// blocked or missing microphone. And the services' keys stay on the server.

import { TEST_KEYS, transcriptsFor } from '../support/voice-kiosk.ts';
import { showingAnswers } from './support/flows.ts';
import { expectStep, expectVisitorSaid, fieldBlock, kiosk, say } from './support/kiosk.ts';
import type { Page } from '@playwright/test';
import { FULL_BROWSER } from './support/chromium.ts';
import { expect, test } from './support/voice.ts';

test.describe.configure({ timeout: 60_000 });

test('speech recognition down: a plain notice, typing goes on, and listening comes back with the service', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say: speak } = await voiceKiosk({ fixture: 'onboarding', query: { flow: 'onboarding' } });
  // The first spoken line meets an outage (the request and its one retry of the proxy fail);
  // the service is back for the next ones.
  fakes.stt.fail('http_500', 1);
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']).slice(1));
  fakes.llm.script([
    { when: { user: /^yes/i }, reply: { tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
    { when: { last: 'system' }, reply: { text: 'Hi! What is your first name?' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();

  await speak(0);
  const notice = page.locator('.voice-note');
  await expect(notice).toHaveText("I can't make out speech right now. Please tap or type your answer.", { timeout: 15_000 });
  // Nothing of the service's own error reaches the visitor.
  await expect(page.locator('.talk')).not.toContainText('500');
  await say(page, 'My name is Alex');
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
  // "yes" is heard again: the notice goes, and the flow moves on by voice.
  await speak(1);
  await expectStep(page, 'choose_color');
  await expect(notice).toHaveCount(0);
  await speak(2);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended', { timeout: 15_000 });
  await expectVisitorSaid(page, ['You: My name is Alex', 'You: Yes.', 'You: Blue, please.']);
  expect(fakes.stt.requests).toHaveLength(3);
});

test('the model down: one retry, a notice, and the built-in assistant carries the visit to its end', async ({ voiceKiosk }) => {
  // The onboarding flow with its answers shown at the end, for the test to read what was heard there.
  const flows = { '/test-flows/onboarding.yaml': showingAnswers('onboarding') };
  const { page, fakes, fixture, say: speak } = await voiceKiosk({ fixture: 'onboarding', flows, query: { flow: '/test-flows/onboarding.yaml' } });
  fakes.llm.fail('http_500');
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
  const operatorLog: string[] = [];
  page.on('console', (m) => operatorLog.push(m.text()));
  await page.getByRole('button', { name: 'Start', exact: true }).click();

  await expect(page.locator('.assistant-note')).toHaveText('The online assistant is not answering. The kiosk carries on with its built-in assistant.', { timeout: 15_000 });
  // The service's own words (which could hold anything, a key included) go to the operator's log, never to the screen.
  const serviceWords = 'The server had an error while processing your request';
  expect(operatorLog.join('\n')).toContain(serviceWords);
  await expect(page.locator('body')).not.toContainText(serviceWords);
  await expect(page.locator('body')).not.toContainText('500');
  // the state entry's request and its one retry, then no more tries for this visit
  expect(fakes.llm.requests).toHaveLength(2);
  await speak(0);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await speak(1);
  await expectStep(page, 'choose_color');
  await speak(2);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended', { timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Please remember' }).locator('dd')).toHaveText(['Alex', 'blue']);
  expect(fakes.llm.requests).toHaveLength(2);
});

// A blocked microphone as a kiosk's browser blocks it: the headless shell has no permission prompt
// and refuses every microphone as unsupported, so these run on the full browser.
test('a blocked microphone: a plain notice, the light says voice is off, touch and typing work', { tag: FULL_BROWSER }, async ({ voiceKiosk }) => {
  const { page } = await voiceKiosk({ fixture: null, microphoneAllowed: false, query: { flow: 'onboarding' } });
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.locator('.voice-note')).toHaveText("The microphone is blocked, so I can't hear you. You can tap or type your answers.");
  await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', 'no-microphone');
  await expect(page.locator('.voice-light')).toHaveText('Voice off: tap or type');
  await say(page, 'My name is Alex');
  await page.getByRole('button', { name: "Confirm What's your first name?" }).click();
  await expectStep(page, 'choose_color');
});

test('no microphone at all: a plain notice, and the kiosk still works by touch', async ({ voiceKiosk }) => {
  // Allowed, but this headless Chromium has no capture device unless it is given a fake one.
  const { page } = await voiceKiosk({ fixture: null, microphoneAllowed: true, query: { flow: 'onboarding' } });
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.locator('.voice-note')).toHaveText("I can't find a microphone, so I can't hear you. You can tap or type your answers.");
  await page.getByRole('textbox', { name: "What's your first name?" }).fill('Alex');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'choose_color');
});

/**
 * Holds every request for the voice detector's files (/vad/: its model, runtime and worklet) until
 * `release` is called: a tablet on which the detector takes as long as the test likes to load.
 */
function holdDetector(): { prepare: (page: Page) => Promise<void>; asked: () => number; release: () => void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  const prepare = async (page: Page) => {
    await page.route('**/vad/**', async (route) => {
      asked++;
      await released;
      await route.continue().catch(() => undefined); // the page may be gone by then
    });
  };
  return { prepare, asked: () => asked, release };
}

/** The page's marks of one name, in page time. */
async function marksOf(page: Page, name: string): Promise<number[]> {
  return page.evaluate((n) => performance.getEntriesByName(n).map((m) => m.startTime), name);
}

test('a blocked microphone is said at once while the detector is still loading, and the detector is not loaded for it', { tag: FULL_BROWSER }, async ({ voiceKiosk }, testInfo) => {
  const detector = holdDetector();
  const { page } = await voiceKiosk({ fixture: null, microphoneAllowed: false, query: { flow: 'onboarding' }, prepare: detector.prepare });
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.locator('.voice-note')).toHaveText("The microphone is blocked, so I can't hear you. You can tap or type your answers.");
  await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', 'no-microphone');
  // Said with every detector file still held: the notice did not wait for it, and nothing asked for it.
  expect(await marksOf(page, 'vk:detector-ready')).toEqual([]);
  expect(detector.asked()).toBe(0);
  const [begun] = await marksOf(page, 'vk:voice-begin');
  const [told] = await marksOf(page, 'vk:microphone-problem');
  const delay = told! - begun!;
  testInfo.annotations.push({ type: 'tap to notice', description: `${delay.toFixed(0)} ms` });
  expect(delay, 'from the Start tap to the notice').toBeLessThan(1000);
  detector.release();
  // Touch goes on.
  await say(page, 'My name is Alex');
  await page.getByRole('button', { name: "Confirm What's your first name?" }).click();
  await expectStep(page, 'choose_color');
});

test('an allowed microphone with the detector still loading: "Getting ready to listen", then listening', async ({ voiceKiosk }) => {
  const detector = holdDetector();
  const { page, fakes, say: speak, fixture } = await voiceKiosk({ fixture: 'onboarding', query: { flow: 'onboarding' }, prepare: detector.prepare });
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']).slice(0, 1));
  fakes.llm.script([{ when: { last: 'system' }, reply: { text: 'Hi! What is your first name?' } }]);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  // Allowed already: the kiosk starts loading its detector while it waits (and the files are held).
  await expect.poll(() => detector.asked()).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', 'preparing');
  await expect(page.locator('.voice-light')).toHaveText('Getting ready to listen…');
  expect(await marksOf(page, 'vk:microphone-granted')).toHaveLength(1);
  expect(await marksOf(page, 'vk:detector-ready')).toEqual([]);
  detector.release();
  await speak(0);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
});

test('the keys stay on the server: not in the page, its scripts, or any answer it gets', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say: speak } = await voiceKiosk({ fixture: 'onboarding', query: { flow: 'onboarding' } });
  const bodies: string[] = [];
  page.on('response', async (response) => {
    const headers = JSON.stringify(await response.allHeaders());
    const body = /text|json|javascript|event-stream/.test(response.headers()['content-type'] ?? '') ? await response.text().catch(() => '') : '';
    bodies.push(headers, body);
  });
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
  fakes.llm.script([{ when: { last: 'system' }, reply: { text: 'Hi! What is your first name?' } }]);
  // The page and its scripts, loaded afresh so their answers are seen.
  await page.reload();
  const config = await page.evaluate(() => fetch('/api/config').then((r) => r.text()));
  expect(JSON.parse(config)).toEqual({ llm: { model: 'test-chat', earlyStart: true }, stt: { model: 'test-whisper', mode: 'upload' }, tts: { model: 'test-tts', voice: 'test-voice', format: 'auto' } });
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await speak(0);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  expect(fakes.tts.requests.length).toBeGreaterThan(0);
  const seen = [config, ...bodies, await page.content()].join('\n');
  expect(seen).toContain('Hi! What is your first name?'); // the model's stream was read
  for (const key of Object.values(TEST_KEYS)) expect(seen).not.toContain(key);
  expect(seen).not.toContain(fakes.baseURL);
});

const NEEDS_A_MODEL = `
id: needs_a_model
title: Tell me about your trip
settings: { llm_required: true }
states:
  chat:
    ui: { artifact_type: card, title: Tell me about your trip, actions: [ { event: done, label: Done } ] }
    agent: { prompt: Talk with the visitor about their trip. }
    transitions: { on_ui_event: { done: __end__ } }
`;

test('a flow that needs a model tells staff when the server has none, and says nothing when it has one', async ({ voiceKiosk }) => {
  const flows = { '/test-flows/needs-a-model.yaml': NEEDS_A_MODEL };
  const query = { flow: '/test-flows/needs-a-model.yaml' };
  // No microphone: what staff are told does not depend on it, and no detector is loaded for nothing.
  const quiet = { fixture: null, microphoneAllowed: false, flows, query } as const;
  const without = await voiceKiosk({ ...quiet, services: { llm: false } });
  const note = without.page.locator('.operator-note');
  await expect(note).toHaveText(/needs a language model and none is configured \(set LLM_BASE_URL and LLM_MODEL/);
  await without.page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(note).toBeVisible(); // on the flow screen too, beside the conversation
  await without.page.close();

  const withModel = await voiceKiosk(quiet);
  await expect(kiosk(withModel.page)).toHaveAttribute('data-phase', 'idle');
  await expect(withModel.page.locator('.operator-note')).toHaveCount(0);
});
