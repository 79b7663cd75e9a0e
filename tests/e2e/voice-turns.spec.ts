// Turn-taking with real speech in Chromium: a phone number dictated with a 0.4 s pause inside is
// one answer; short noises are no answer at all; speaking over the kiosk stops it at once and
// drops the model's turn in flight. The test's microphone says each line when the kiosk listens
// (or, for the barge-in, while it speaks).

import { transcriptsFor } from '../support/voice-kiosk.ts';
import { expectStep, fieldBlock, kiosk, visitorLines } from './support/kiosk.ts';
import { PHONE_FLOW } from './support/flows.ts';
import { expect, test } from './support/voice.ts';

test.describe.configure({ timeout: 60_000 });


test('a phone number dictated with a 0.4 s pause inside stays one answer', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say } = await voiceKiosk({ fixture: 'digits-pause', flows: { '/test-flows/phone.yaml': PHONE_FLOW }, query: { flow: '/test-flows/phone.yaml' } });
  const line = fixture!.lines[0]!;
  expect(line.pauses?.[0] && line.pauses[0].endMs - line.pauses[0].startMs).toBe(400);
  fakes.stt.script(transcriptsFor(fixture, ['My number is 07700 983123.']));
  fakes.llm.script([
    { when: { user: /07700 983123/ }, reply: { tool_calls: [{ name: 'save_phone', arguments: { phone: '07700 983123' } }] } },
    { when: { last: 'system' }, reply: { text: 'What is your phone number?' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();

  await say(0);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended', { timeout: 20_000 });
  // One turn: one request to speech recognition holding the whole number, both parts of it.
  expect(fakes.stt.requests).toHaveLength(1);
  expect(fakes.stt.requests[0]!.speechMs).toBeGreaterThan(line.endMs - line.startMs - 250);
  await expect(visitorLines(page)).toHaveText(['You: My number is 07700 983123.']);
  await expect(page.getByRole('region', { name: 'Please remember' }).locator('dd')).toHaveText(['07700 983123']);
});

test('two short noise bursts are not speech: only the words after them are heard', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, marks, microphone, say } = await voiceKiosk({ fixture: 'noise', query: { flow: 'onboarding' } });
  expect(fixture!.lines.filter((l) => l.kind === 'noise').map((l) => l.endMs - l.startMs)).toEqual([79, 120]);
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.']));
  fakes.llm.script([{ when: { last: 'system' }, reply: { text: 'Hello! What is your first name?' } }]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();

  // Both bursts, as recorded (with the silence between them), then the words.
  const [first, second, words] = fixture!.lines;
  await say(0);
  await microphone!.playSpan(first!.endMs, second!.endMs + 150);
  expect(words!.kind).toBe('speech');
  await microphone!.play(2);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 20_000 });
  expect(fakes.stt.requests).toHaveLength(1);
  await expect(visitorLines(page)).toHaveText(['You: My name is Alex.']);
  expect((await marks())['vk:speech-end']).toHaveLength(1);
});

test('speaking over the kiosk stops its voice within 200 ms and drops the model turn in flight', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, marks, microphone, say, canHear } = await voiceKiosk({ fixture: 'barge-in', query: { flow: 'onboarding' } });
  fakes.stt.script(transcriptsFor(fixture, ['Actually, my name is Alex.', 'Yes.']));
  // A long greeting whose first sentence is written and spoken, and whose rest is still being
  // written (the double holds its stream) when the visitor starts talking over it.
  const greeting = 'Hello and welcome to our office. ' + 'We are so glad you came by today, and we hope the weather was kind to you. '.repeat(4) + 'What is your first name?';
  fakes.llm.holdAfterChunks = 12;
  fakes.tts.durationFor = (text) => (text.startsWith('Hello') ? 30_000 : undefined);
  fakes.llm.script([
    { when: { user: /^yes/i }, reply: { tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
    { when: { last: 'system', system: /first name/i }, reply: { text: greeting } },
    { when: { system: /colour/i }, reply: { text: 'Pick a colour.' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await canHear();
  await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', 'speaking', { timeout: 20_000 });
  await microphone!.play(0);

  // The visitor's words win: the kiosk falls silent, the model's streaming turn is cut off.
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await fakes.llm.whenAborted(1);
  const m = await marks();
  expect(m['vk:barge-in']).toHaveLength(1);
  const bargeIn = m['vk:barge-in']![0]!;
  const stop = m['vk:tts-stop']!.find((t) => t >= bargeIn)!;
  expect(stop - bargeIn).toBeLessThan(200);
  // What the model had not yet written was never spoken.
  expect(fakes.tts.requests.map((r) => r.input)).not.toContain('What is your first name?');

  // And the conversation goes on from the visitor's words: "yes" confirms the name.
  await say(1);
  await expectStep(page, 'choose_color');
  await expect(visitorLines(page)).toHaveText(['You: Actually, my name is Alex.', 'You: Yes.']);
});
