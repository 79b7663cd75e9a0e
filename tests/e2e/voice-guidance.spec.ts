// The visitor's requests to the kiosk itself, said aloud into a microphone that plays real speech:
// "read it to me" turns audio guidance on, "say that again" repeats, and on the end screen (whose
// microphone stays open with guidance on) "more time" doubles the countdown. None of them reaches
// the model. Recognition, the model and the voice are the local OpenAI doubles.

import { transcriptsFor } from '../support/voice-kiosk.ts';
import { expect, test, expectVoiceOn } from './support/voice.ts';
import { expectVisitorSaid, kiosk } from './support/kiosk.ts';

test.describe.configure({ timeout: 60_000 });

test('"read it to me", "say that again" and "more time", said, never reach the model', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say, marks } = await voiceKiosk({ fixture: 'onboarding', query: { flow: 'onboarding', end_seconds: 20 } });
  fakes.stt.script(transcriptsFor(fixture, ['Read it to me.', 'Could you say that again?', 'More time, please.']));
  fakes.llm.script([{ when: { last: 'system' }, reply: { text: 'Welcome! What is your first name?' } }]);
  // Short clips: the guided screen is said quickly, so the kiosk listens again soon.
  fakes.tts.msPerChar = 4;
  const said = () => fakes.tts.requests.map((r) => r.input);
  const count = (line: string) => said().filter((s) => s === line).length;

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectVoiceOn(page, /listening|speaking|thinking/);
  await expect.poll(said).toContain('What is your first name?');
  const asked = fakes.llm.requests.length;

  await say(0);
  await expect(kiosk(page)).toHaveAttribute('data-guidance', 'on', { timeout: 15_000 });
  await expect.poll(said).toEqual(expect.arrayContaining(['Audio guidance is on.', "What's your first name?: empty."]));
  // The screen read out to its end (the greeting, then the reading): the next line is not said over it.
  await expect.poll(async () => (await marks())['vk:tts-stop']?.length ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

  const before = count("What's your first name?: empty.");
  await say(1);
  await expect.poll(() => count("What's your first name?: empty."), { timeout: 15_000 }).toBe(before + 1);
  expect(fakes.llm.requests.length).toBe(asked);

  // To the end by keys: the name typed, a colour by its number.
  await page.getByRole('textbox', { name: "What's your first name?" }).fill('Alex');
  await page.keyboard.press('Enter');
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'choose_color');
  await page.keyboard.press('3');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  const timer = page.locator('[data-limit="end"]').getByRole('timer');
  await expect(timer).toHaveText(/in (20|19|18) seconds/);
  const askedAtEnd = fakes.llm.requests.length;
  await say(2);
  // Never more than 20 seconds without it: twice what was left when it was heard.
  await expect(timer).toHaveText(/in (2[1-9]|3\d|40) seconds/, { timeout: 15_000 });

  await expectVisitorSaid(page, ['You: Read it to me.', 'You: Could you say that again?', 'You: More time, please.']);
  expect(fakes.llm.requests.length).toBe(askedAtEnd);
});
