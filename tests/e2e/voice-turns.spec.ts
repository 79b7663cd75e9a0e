// Turn-taking with real speech in Chromium: a phone number dictated with a 0.4 s pause inside is
// one answer, and so is one dictated with a 0.5 s pause at a step that asks for a name (its words
// at the pause, streamed, end on a number); short noises are no answer at all; speaking over the
// kiosk stops it at once and drops the model's turn in flight. The test's microphone says each
// line when the kiosk listens (or, for the barge-in, while it speaks).

import { transcriptsFor, transcriptsForParts } from '../support/voice-kiosk.ts';
import { expectStep, expectVisitorSaid, fieldBlock, kiosk } from './support/kiosk.ts';
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
  await expectVisitorSaid(page, ['You: My number is 07700 983123.']);
  await expect(page.getByRole('region', { name: 'Please remember' }).locator('dd')).toHaveText(['07700 983123']);
});

const NAME_FLOW = `
id: name_check
title: Your name
states:
  ask_name:
    ui:
      artifact_type: form
      title: What is your name?
      fields: [ { id: full_name, type: text, label: Your name, required: true } ]
    agent:
      prompt: Ask for the visitor's name and call save_name with it.
      tools: [save_name]
    tools:
      save_name:
        description: Capture the name.
        parameters:
          full_name: { type: string, required: true }
    transitions:
      on_tool_call: { save_name: __end__ }
      on_ui_event: { form_submit: __end__ }
`;

test('a phone number dictated with a 0.5 s pause at a step that asks for a name reaches the model as one turn', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say, marks } = await voiceKiosk({
    fixture: 'phone-pause',
    flows: { '/test-flows/name.yaml': NAME_FLOW },
    query: { flow: '/test-flows/name.yaml' },
    env: { STT_MODE: 'realtime' },
  });
  const line = fixture!.lines[0]!;
  expect(line.pauses!.map((p) => p.endMs - p.startMs)).toEqual([500]);
  // Streamed: the kiosk commits the words so far at the pause, and reads them while it waits.
  fakes.realtime.latency({ finalAfterCommitMs: 150 });
  fakes.stt.script(transcriptsForParts(fixture, [['My phone number is 555', '0199.']]));
  fakes.llm.script([
    { when: { user: /555 0199/ }, reply: { text: 'Thank you. That sounds like a phone number; what is your name?' } },
    { when: { last: 'user' }, reply: { text: 'Sorry?' } },
    { when: { last: 'system' }, reply: { text: 'What is your name?' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();

  await say(0);
  await expect(page.getByRole('log').locator('li.agent').last()).toContainText('That sounds like a phone number', { timeout: 20_000 });
  await expectVisitorSaid(page, ['You: My phone number is 555 0199.']);
  // One turn: one end of speech; the model's conversation holds the number whole as the visitor's
  // one message, and nothing it might have said to half of it (a reply asked for at the pause is
  // held, then dropped) was said.
  expect((await marks())['vk:speech-end']).toHaveLength(1);
  const said = fakes.llm.requests.map((r) => r.messages.filter((m) => m.role === 'user').map((m) => m.content));
  expect(said.at(-1)).toEqual(['My phone number is 555 0199.']);
  await expect(page.getByRole('log').locator('li.agent')).toHaveText([/What is your name\?/, /That sounds like a phone number/]);
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
  await expectVisitorSaid(page, ['You: My name is Alex.']);
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
  await expectVisitorSaid(page, ['You: Actually, my name is Alex.', 'You: Yes.']);
});
