// The onboarding flow by voice alone, in Chromium with a microphone that plays real speech
// (espeak-ng): the name heard fills the field as pending, "yes" confirms it, a colour ends it.
// Speech recognition, the model and speech come from the local OpenAI test doubles through the
// kiosk's own server. The microphone is Chromium's own fake device playing the whole recording
// (the path a real microphone takes, from getUserMedia on); the other voice tests play each line
// into the page when the kiosk listens.

import { transcriptsFor } from '../support/voice-kiosk.ts';
import { expect, test, expectVoiceOn } from './support/voice.ts';
import { showingAnswers } from './support/flows.ts';
import { expectStep, expectVisitorSaid, fieldBlock, kiosk } from './support/kiosk.ts';

test.describe.configure({ timeout: 60_000 });

test('a visitor completes onboarding by voice alone', async ({ voiceKiosk }) => {
  // The onboarding flow with its answers shown at the end, for the test to read what was heard there.
  const flows = { '/test-flows/onboarding.yaml': showingAnswers('onboarding') };
  const { page, fakes, fixture, marks } = await voiceKiosk({ fixture: 'onboarding', microphone: 'file', flows, query: { flow: '/test-flows/onboarding.yaml' } });
  // The recording plays from the moment the microphone opens: the detector is loaded first (the
  // microphone is allowed, so the kiosk loads it while it waits), so the first line is not lost.
  await expect.poll(() => marks().then((m) => m['vk:detector-ready']?.length ?? 0), { timeout: 30_000 }).toBe(1);
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
  fakes.llm.script([
    { when: { user: /^yes/i, system: /first name/i }, reply: { text: 'Thank you!', tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
    { when: { system: /pick a colour/i }, reply: { text: 'Nice to meet you, Alex. Which colour do you like: red, green, blue or yellow?' } },
    { when: { last: 'system' }, reply: { text: 'Welcome! What is your first name?' } },
  ]);

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectVoiceOn(page, /listening|speaking|thinking/);

  // "My name is Alex": pending on screen, waiting for a yes.
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await expect(page.getByRole('textbox', { name: "What's your first name?" })).toHaveValue('Alex');
  // "yes": confirmed by voice, the flow moves on.
  await expectStep(page, 'choose_color');
  // "blue please": the end.
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended', { timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Please remember' }).locator('dd')).toHaveText(['Alex', 'blue']);
  await expectVisitorSaid(page, ['You: My name is Alex.', 'You: Yes.', 'You: Blue, please.']);

  // Three turns went to speech recognition: 16 kHz mono 16-bit WAV, in the flow's language.
  expect(fakes.stt.requests.map((r) => [r.sampleRate, r.channels, r.bitsPerSample, r.language, r.model])).toEqual(
    Array(3).fill([16000, 1, 16, 'en', 'test-whisper']),
  );
  // The kiosk spoke through the speech service.
  expect(fakes.tts.requests.length).toBeGreaterThan(0);
  const m = await marks();
  for (const name of ['vk:listening', 'vk:speech-end', 'vk:transcript', 'vk:screen', 'vk:tts-start', 'vk:tts-stop']) expect(m[name], name).toBeDefined();
  expect(m['vk:speech-end']).toHaveLength(3);
});
