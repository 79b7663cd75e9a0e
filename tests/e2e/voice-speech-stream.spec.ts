// The kiosk's voice streamed, in Chromium, through the kiosk's server and the speech double: a
// sentence starts to sound while the double is still sending it, speaking over the kiosk stops
// the sound and the request in flight, and a service that knows no pcm is asked for WAV, with
// every sentence still spoken.

import { transcriptsFor } from '../support/voice-kiosk.ts';
import { fieldBlock } from './support/kiosk.ts';
import { expect, expectVoiceOn, test } from './support/voice.ts';

test.describe.configure({ timeout: 60_000 });

const GREETING = 'Hello and welcome to our office, we are so glad you came by today. Please have a seat. What is your first name?';
const SENTENCES = ['Hello and welcome to our office, we are so glad you came by today.', 'Please have a seat.', 'What is your first name?'];

/** The page's marks as times since the epoch (ms), to set against the double's own clock. */
async function epochMarks(page: import('@playwright/test').Page): Promise<Record<string, number[]>> {
  return page.evaluate(() => {
    const out: Record<string, number[]> = {};
    for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('vk:')) (out[m.name] ??= []).push(performance.timeOrigin + m.startTime);
    return out;
  });
}

test('the first sound starts before the speech double has sent the last chunk of the sentence', async ({ voiceKiosk }) => {
  const { page, fakes } = await voiceKiosk({ fixture: 'barge-in', query: { flow: 'onboarding' } });
  fakes.llm.script([{ when: { last: 'system', system: /first name/i }, reply: { text: GREETING } }]);
  // A slow service: eight seconds of the first sentence, sent only as fast as it plays.
  Object.assign(fakes.tts, { firstChunkMs: 150, chunkMs: 100, realTimeFactor: 1 });
  fakes.tts.durationFor = (text) => (text.startsWith('Hello') ? 8000 : undefined);
  await page.getByRole('button', { name: 'Start', exact: true }).click();

  await expect.poll(async () => (await epochMarks(page))['vk:tts-start']?.length ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
  // The first sentence's delivery, by its words: the second is asked for beside it and may reach
  // the double first on a busy machine.
  const firstDelivery = () => fakes.tts.deliveries.find((d) => d.input === SENTENCES[0]);
  await expect.poll(() => firstDelivery()?.lastChunkAt, { timeout: 20_000 }).toBeDefined();
  const marks = await epochMarks(page);
  const first = firstDelivery()!;
  expect(first).toMatchObject({ input: SENTENCES[0], format: 'pcm', chunks: 80, gone: false });
  const firstChunk = marks['vk:tts-first-chunk']![0]!;
  const sound = marks['vk:tts-start']![0]!;
  expect(firstChunk).toBeLessThanOrEqual(sound);
  expect(firstChunk).toBeGreaterThanOrEqual(first.firstChunkAt! - 5);
  // The sound began about the time the double sent its first chunk, seconds before its last
  // (the margin allows for a page still busy starting its microphone at the Start tap).
  expect(sound).toBeLessThan(first.lastChunkAt!);
  expect(first.lastChunkAt! - sound).toBeGreaterThan(4000);
  console.log(`first chunk sent → in the page ${Math.round(firstChunk - first.firstChunkAt!)} ms → sounding ${Math.round(sound - firstChunk)} ms; first chunk → last chunk sent ${first.lastChunkAt! - first.firstChunkAt!} ms`);
  // And the reply is spoken to its end, every sentence once (the later ones are fetched side by
  // side while the first plays, so the double may finish them in either order).
  await expectVoiceOn(page, 'listening');
  expect(fakes.tts.deliveries.map((d) => d.input).sort()).toEqual([...SENTENCES].sort());
});

test('speaking over a streaming reply stops its sound at once and the speech request with it', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, marks, microphone, canHear } = await voiceKiosk({ fixture: 'barge-in', query: { flow: 'onboarding' } });
  fakes.stt.script(transcriptsFor(fixture, ['Actually, my name is Alex.', 'Yes.']));
  fakes.llm.script([{ when: { last: 'system', system: /first name/i }, reply: { text: GREETING } }]);
  // Thirty seconds of speech, streamed as it plays: the double is still sending when the visitor speaks.
  Object.assign(fakes.tts, { chunkMs: 100, realTimeFactor: 1 });
  fakes.tts.durationFor = (text) => (text.startsWith('Hello') ? 30_000 : undefined);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await canHear();
  await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', 'speaking', { timeout: 20_000 });
  await microphone!.play(0);

  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  // The page dropped the stream, the kiosk's server dropped its request, and the double saw it go.
  await fakes.tts.whenAborted(1);
  const stream = fakes.tts.deliveries[0]!;
  expect(stream).toMatchObject({ input: SENTENCES[0], gone: true });
  expect(stream.sent).toBeLessThan(stream.chunks);
  const m = await marks();
  const bargeIn = m['vk:barge-in']![0]!;
  const stop = m['vk:tts-stop']!.find((t) => t >= bargeIn)!;
  expect(stop - bargeIn).toBeLessThan(200);
});

test('a speech service that refuses pcm is asked for WAV, and every sentence is still spoken', async ({ voiceKiosk }) => {
  const { page, fakes } = await voiceKiosk({ fixture: 'barge-in', query: { flow: 'onboarding' } });
  fakes.llm.script([{ when: { last: 'system', system: /first name/i }, reply: { text: GREETING } }]);
  fakes.tts.refusePcm = true;
  await page.getByRole('button', { name: 'Start', exact: true }).click();

  // The reply's clips are short (about a second in all): the light says "speaking" too briefly for
  // a poll on a busy machine to be sure to see it, so the test waits for the mark of the voice's end.
  await expect.poll(async () => (await epochMarks(page))['vk:tts-stop']?.length ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
  await expectVoiceOn(page, 'listening');
  // pcm was asked for only until the first refusal came back (the sentences fetched meanwhile were
  // asked for at once); every sentence then came whole, as WAV, once. The next sentences are
  // fetched side by side, so the double may finish them in either order.
  const refused = fakes.tts.requests.filter((r) => r.response_format === 'pcm').map((r) => r.input);
  expect(refused.length).toBeGreaterThanOrEqual(1);
  expect(refused[0]).toBe(SENTENCES[0]);
  expect(fakes.tts.deliveries.every((d) => d.format === 'wav' && d.sent === d.chunks && !d.gone)).toBe(true);
  expect(fakes.tts.deliveries.map((d) => d.input).sort()).toEqual([...SENTENCES].sort());
  const marks = await epochMarks(page);
  expect(marks['vk:tts-start']).toHaveLength(1);
  expect(marks['vk:tts-stop']).toHaveLength(1);
});
