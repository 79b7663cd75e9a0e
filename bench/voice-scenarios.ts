// The voice benchmark's scenarios: the real kiosk in headless Chromium with an espeak-ng fixture
// as its microphone, behind its own server and the local OpenAI doubles. Free answers and a
// dictated number time the end of speech (ours beside vad-web's defaults on the same frames), a
// spoken visit times transcript to screen and first sentence to speech, and a barge-in times
// the kiosk falling silent. Each run adds samples to the findings; a run whose marks do not add
// up is a failed measurement.

import { performance } from 'node:perf_hooks';
import type { Page } from '@playwright/test';
import { openVoiceKiosk, transcriptsFor, type VoiceKiosk, type VoiceKioskOptions } from '../tests/support/voice-kiosk.ts';
import type { FixtureLine } from '../tests/support/audio-fixtures.ts';
import type { Findings } from './voice-findings.ts';
import { readFrames, runClock, STREAM_FRAME_MS, type RunClock } from './voice-frames.ts';
import { detailMs, followedBy, named, pairEnds, readMarks, readResources, untilPageTime, waitForMark, type Mark } from './voice-marks.ts';
import { benchFlow, sleep, spokenLines, startVisit } from './voice-visit.ts';

/** vad-web's default redemption: its segments end this long after the speech (and a little more). */
const VAD_DEFAULT_REDEMPTION_MS = 1400;
/** The TTS double's own wait before answering, subtracted from first sentence to speech. */
export const TTS_DELAY_MS = 0;
/** The pause between the chat double's stream chunks (4 characters each) in the spoken visit. */
export const CHUNK_DELAY_MS = 20;
/** Length of each sentence the TTS double speaks in the spoken visit: short, so the kiosk is quiet before the visitor speaks. */
const SENTENCE_MS = 400;

/**
 * Opens a kiosk per run, runs `run` on it, closes it; a run that throws is a failed measurement.
 * The microphone is Chromium's file-backed fake device: the recording plays in real time from
 * the moment the kiosk opens it, as a visitor would speak.
 */
export async function eachRun(name: string, runs: number, findings: Findings, options: VoiceKioskOptions, run: (kiosk: VoiceKiosk, label: string) => Promise<void>): Promise<void> {
  for (let i = 1; i <= runs; i++) {
    const label = `${name}, run ${i}`;
    let kiosk: VoiceKiosk | null = null;
    try {
      kiosk = await openVoiceKiosk({ microphone: 'file', serviceWorkers: 'allow', wasmTopTier: true, ...options });
      await run(kiosk, label);
    } catch (error) {
      findings.fail(`${label}: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      await kiosk?.close();
    }
  }
}

/**
 * The run's clock from the frame probe (voice-frames.ts), checked against the marks: a mark with
 * a stream time is recorded after the audio of the frame it names, never before. Adds the
 * clock's own figures (file offset, how much later the marks' and the first frame's bounds
 * are, the lines' ends as heard) to the findings.
 */
export async function clockOf(page: Page, marks: readonly Mark[], lines: readonly FixtureLine[], findings: Findings): Promise<RunClock> {
  const log = await readFrames(page);
  const clock = runClock(log, lines);
  findings.sampleRate = log.sampleRate;
  const turns = [
    ...named(marks, 'vk:speech-end').map((m) => m.at - clock.streamToPage(detailMs(m, 'decidedStreamMs'))),
    ...named(marks, 'vk:barge-in').map((m) => m.at - clock.streamToPage(detailMs(m, 'streamMs'))),
  ];
  if (turns.some((lag) => lag < -0.5)) throw new Error('a mark is earlier than the audio it names: the frame probe and the stream clock disagree');
  if (turns.length > 0) findings.add('zero.marks', Math.min(...turns));
  const listening = named(marks, 'vk:listening')[0];
  if (listening) findings.add('zero.listening', listening.at - clock.streamToPage(STREAM_FRAME_MS));
  findings.add('clock.offset', clock.fileOffset);
  const onsets = clock.alignment.flatMap((a) => (a.onset === null ? [] : [a.onset]));
  if (onsets.length > 1) findings.add('clock.spread', Math.max(...onsets) - Math.min(...onsets));
  for (const a of clock.alignment) if (a.end !== null) findings.add('clock.end', a.end - clock.fileOffset);
  return clock;
}

/**
 * End of speech for every line of a run: ours (vk:speech-end, one per line, matched in order and
 * checked against the lines' times) and vad-web's defaults (vk:vad-default-speech-end), whose
 * missed or split lines are reported, not failed: that is how its defaults behave.
 */
async function endsOfSpeech(page: Page, lines: readonly FixtureLine[], kind: 'free' | 'dictated', findings: Findings, label: string): Promise<void> {
  const marks = await readMarks(page);
  const clock = await clockOf(page, marks, lines, findings);
  const ours = named(marks, 'vk:speech-end');
  const mine = pairEnds(lines, ours, clock.fileToPage);
  if (ours.length !== lines.length || mine.perLine.some((n) => n !== 1)) {
    throw new Error(
      `segment count mismatch: ${ours.length} vk:speech-end for ${lines.length} spoken lines ` +
        `(after each line: ${mine.perLine.join(' ')}; before the first line ended: ${mine.unowned.length})`,
    );
  }
  for (const { line, mark } of mine.pairs) {
    const m = mark!;
    const trueEnd = clock.fileToPage(line.endMs);
    const lastVoiced = clock.streamToPage(detailMs(m, 'speechEndStreamMs'));
    const decided = clock.streamToPage(detailMs(m, 'decidedStreamMs'));
    findings.add(`eos.ours.${kind}`, m.at - trueEnd);
    findings.add('eos.tail', lastVoiced - trueEnd);
    findings.add(`eos.silence.${kind}`, decided - lastVoiced);
    findings.add('eos.lag', m.at - decided);
  }
  const theirs = named(marks, 'vk:vad-default-speech-end');
  const paired = pairEnds(lines, theirs, clock.fileToPage);
  for (const { line, mark } of paired.pairs) if (mark) findings.add(`eos.vad.${kind}`, mark.at - clock.fileToPage(line.endMs));
  const missed = lines.filter((_, i) => paired.perLine[i] === 0).map((l) => `"${l.text}"`);
  const split = lines.filter((_, i) => paired.perLine[i]! > 1).map((l) => `"${l.text}"`);
  if (missed.length + split.length + paired.unowned.length > 0) {
    findings.note(
      'end-of-speech',
      `!! ${label}: vad-web's defaults gave ${theirs.length} segments for ${lines.length} lines` +
        (missed.length ? `; none for ${missed.join(', ')}` : '') +
        (split.length ? `; several after ${split.join(', ')}` : '') +
        (paired.unowned.length ? `; ${paired.unowned.length} before the first line ended` : ''),
    );
  }
}

/** 1a. The bench fixture's ten lines, each a free answer to the one step of bench/flows/free-answer.yaml. */
export async function freeAnswers(runs: number, findings: Findings): Promise<void> {
  await eachRun('free answers', runs, findings, { fixture: 'bench', ...benchFlow('free-answer.yaml') }, async (kiosk, label) => {
    const lines = spokenLines(kiosk.fixture);
    // The model says nothing and calls nothing, so the kiosk stays in its one step and never
    // speaks over the visitor (no barge-in), while its speech service stays configured. Turning
    // the service off instead would hand the replies to the browser's own voice.
    kiosk.fakes.llm.script([{ reply: { text: '' } }]);
    kiosk.fakes.stt.script(transcriptsFor(kiosk.fixture, lines.map((l) => l.text)));
    const listening = await startVisit(kiosk, findings);
    await untilPageTime(kiosk.page, listening + lines.at(-1)!.endMs + VAD_DEFAULT_REDEMPTION_MS + 1500);
    const step = await kiosk.page.locator('.kiosk').getAttribute('data-flow-state');
    if (step !== 'ask_name') throw new Error(`the kiosk left its step: it is in ${step}`);
    if (kiosk.fakes.tts.requests.length > 0) throw new Error('the kiosk spoke during the free answers');
    await endsOfSpeech(kiosk.page, lines, 'free', findings, label);
  });
}

/** 1b. A phone number dictated with a 0.4 s pause inside, to a step whose first field is `tel`. */
export async function dictatedNumber(runs: number, findings: Findings): Promise<void> {
  await eachRun('dictated number', runs, findings, { fixture: 'digits-pause', ...benchFlow('dictation.yaml') }, async (kiosk, label) => {
    const lines = spokenLines(kiosk.fixture);
    const line = lines[0]!;
    const said = 'My number is 07700 983123.';
    kiosk.fakes.llm.script([{ reply: { text: '' } }]);
    kiosk.fakes.stt.script(transcriptsFor(kiosk.fixture, [said]));
    const listening = await startVisit(kiosk, findings);
    await untilPageTime(kiosk.page, listening + line.endMs + VAD_DEFAULT_REDEMPTION_MS + 1500);
    await waitForMark(kiosk.page, 'vk:transcript', 1, 10_000).catch(() => undefined);
    const marks = await readMarks(kiosk.page);
    const requests = kiosk.fakes.stt.requests;
    const heard = await kiosk.page.getByRole('log').locator('li.visitor').allInnerTexts();
    const lineMs = line.endMs - line.startMs;
    const whole = named(marks, 'vk:speech-end').length === 1 && requests.length === 1 && requests[0]!.speechMs > lineMs - 250 && heard.some((h) => h.includes(said));
    findings.note(
      'end-of-speech',
      `${label}: ${named(marks, 'vk:speech-end').length} vk:speech-end, ${requests.length} transcription request(s) with ` +
        `${requests.map((r) => r.speechMs).join(' + ') || 0} ms of speech (the line: ${lineMs} ms with a ${pauseMs(line)} ms pause): ` +
        (whole ? 'one segment, not cut' : '!! CUT OR LOST'),
    );
    await endsOfSpeech(kiosk.page, lines, 'dictated', findings, label);
  });
}

function pauseMs(line: FixtureLine): number {
  return (line.pauses ?? []).reduce((n, p) => n + p.endMs - p.startMs, 0);
}

/**
 * 2 and 3. The onboarding flow by voice: "My name is Alex" fills the name (transcript to screen,
 * first line), and every reply the kiosk starts saying in silence gives first sentence to speech
 * start: the model's greeting, the gate's question, the model's greeting of the colour step.
 */
export async function spokenVisit(runs: number, findings: Findings): Promise<void> {
  await eachRun('spoken visit', runs, findings, { fixture: 'onboarding', query: { flow: 'onboarding' } }, async (kiosk, label) => {
    const { fakes, page } = kiosk;
    fakes.tts.delayMs = TTS_DELAY_MS;
    fakes.tts.durationFor = () => SENTENCE_MS;
    fakes.llm.chunkDelayMs = CHUNK_DELAY_MS;
    fakes.stt.script(transcriptsFor(kiosk.fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
    // The name is captured by the flow's own rule and the gate asks "I heard Alex. Is that
    // right?" itself; the model greets, confirms on "yes" and greets the colour step.
    fakes.llm.script([
      { when: { system: /pick a colour/i }, reply: { text: 'Thank you, Alex. Now a colour. Red, green, blue or yellow?' } },
      { when: { user: /^yes/i }, reply: { tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
      { when: { last: 'system' }, reply: { text: 'Welcome to the office. I am the kiosk. What is your first name?' } },
    ]);
    await startVisit(kiosk, findings);
    await page.locator('.kiosk[data-phase="ended"]').waitFor({ timeout: 30_000 });
    const marks = await readMarks(page);

    const [first, second] = followedBy(marks, 'vk:transcript', 'vk:screen');
    if (!first?.end) throw new Error('no vk:screen after the first vk:transcript');
    findings.add('screen', first.end.at - first.start.at);
    if (second?.end) findings.add('screen.model', second.end.at - second.start.at);
    const shown = await page.getByRole('region', { name: 'What you told us' }).locator('dd').allInnerTexts();
    if (shown[0] !== 'Alex') throw new Error(`the name did not reach the screen (the end screen shows ${JSON.stringify(shown)})`);

    const ttsFetches = (await readResources(page)).filter((r) => /\/api\/tts\//.test(r.url));
    const replies = followedBy(marks, 'vk:sentence', 'vk:tts-start');
    if (replies.length === 0) throw new Error('no vk:sentence: the kiosk handed nothing to speech');
    for (const { start, end } of replies) {
      if (!end) {
        findings.note('speech', `!! ${label}: a first sentence at ${start.at.toFixed(0)} ms never started sounding`);
        continue;
      }
      findings.add('speech', end.at - start.at - fakes.tts.delayMs);
      const fetch = ttsFetches.find((r) => r.startTime >= start.at - 1);
      if (fetch && fetch.responseEnd <= end.at) findings.add('speech.fetch', fetch.responseEnd - fetch.startTime);
    }
    if (named(marks, 'vk:barge-in').length > 0) findings.note('speech', `!! ${label}: the visitor spoke over the kiosk (a barge-in): the kiosk was slower than planned`);
    await timeSpeechDouble(kiosk, findings);
  });
}

/** How long the TTS double takes to answer one sentence, asked directly from Node (synthesis included); the first ask warms up. */
async function timeSpeechDouble(kiosk: VoiceKiosk, findings: Findings): Promise<void> {
  for (let i = 0; i < 4; i++) {
    const t0 = performance.now();
    const response = await fetch(`${kiosk.fakes.baseURL}/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-tts', voice: 'test-voice', input: 'Welcome to the office.', response_format: 'wav' }),
    });
    await response.arrayBuffer();
    if (i > 0) findings.add('speech.double', performance.now() - t0);
  }
}

/**
 * 4. The visitor says "actually my name is Alex" 4.5 s into the visit while the kiosk is still
 * saying a long greeting, and the model is still streaming it (slow chunks): the kiosk stops.
 */
export async function bargeIn(runs: number, findings: Findings): Promise<void> {
  await eachRun('barge-in', runs, findings, { fixture: 'barge-in', query: { flow: 'onboarding' } }, async (kiosk, label) => {
    const { fakes, page } = kiosk;
    const line = spokenLines(kiosk.fixture)[0]!;
    const greeting = 'Hello and welcome to our office. ' + 'We are so glad you came by today, and we hope the weather was kind to you. '.repeat(4) + 'What is your first name?';
    fakes.tts.delayMs = TTS_DELAY_MS;
    fakes.tts.durationFor = (text) => (text.startsWith('Hello') ? 8000 : undefined);
    fakes.llm.chunkDelayMs = 120;
    fakes.stt.script(transcriptsFor(kiosk.fixture, ['Actually, my name is Alex.', 'Yes.']));
    fakes.llm.script([{ when: { last: 'system', system: /first name/i }, reply: { text: greeting } }]);
    await startVisit(kiosk, findings);
    await waitForMark(page, 'vk:barge-in', 1, 15_000);
    const aborted = await Promise.race([fakes.llm.whenAborted(1).then(() => true), sleep(3000).then(() => false)]);
    // The visitor's segment: the frames then cover the whole line, for the alignment check.
    await waitForMark(page, 'vk:speech-end', 1, 10_000).catch(() => undefined);
    const marks = await readMarks(page);
    const clock = await clockOf(page, marks, [line], findings);
    const barges = named(marks, 'vk:barge-in');
    if (barges.length !== 1) throw new Error(`${barges.length} vk:barge-in marks, expected 1`);
    const barge = barges[0]!;
    const onset = clock.fileToPage(line.startMs);
    const startedBefore = named(marks, 'vk:tts-start').filter((m) => m.at < onset);
    const stoppedBefore = named(marks, 'vk:tts-stop').filter((m) => m.at < onset);
    if (startedBefore.length === 0 || stoppedBefore.length >= startedBefore.length) throw new Error('the kiosk was not speaking when the visitor began');
    const stop = named(marks, 'vk:tts-stop').find((m) => m.at >= barge.at);
    if (!stop) throw new Error('no vk:tts-stop after the barge-in');
    findings.add('barge.kiosk', stop.at - barge.at);
    findings.add('barge.visitor', stop.at - onset);
    // Silence comes at the hold, when the sound over the kiosk may be the visitor; the stop confirms it.
    const hold = named(marks, 'vk:tts-hold').find((m) => m.at >= onset - 50 && m.at <= stop.at);
    findings.add('barge.silence', (hold ?? stop).at - onset);
    if (hold) findings.add('barge.hold', clock.streamToPage(detailMs(hold, 'streamMs')) - onset);
    findings.add('barge.check', clock.streamToPage(detailMs(barge, 'streamMs')) - onset);
    findings.note(
      'barge-in',
      `${label}: the model's greeting was ${aborted ? 'still streaming and was aborted' : '!! NOT aborted within 3 s'} ` +
        `(chat double: ${fakes.llm.requests.length} request(s), ${fakes.llm.aborted} aborted, ${fakes.llm.completed} completed)`,
    );
  });
}
