// What `npm run bench:voice` prints for each figure: a table (n, p50, p95, min, max in ms) and
// the lines to read it with, from the findings the voice scenarios gathered.

import { summarize, textTable } from './stats.ts';
import type { Findings, Section } from './voice-findings.ts';
import { realFrameMs, STREAM_FRAME_MS } from './voice-frames.ts';
import { CHUNK_DELAY_MS, TTS_DELAY_MS } from './voice-scenarios.ts';

function ms(x: number): string {
  return Math.abs(x) < 10 ? x.toFixed(1) : x.toFixed(0);
}

/** One row of a figure's table; dashes without samples. */
function row(label: string, samples: readonly number[]): string[] {
  const s = summarize(samples);
  return s ? [label, String(s.n), ms(s.p50), ms(s.p95), ms(s.min), ms(s.max)] : [label, '0', '-', '-', '-', '-'];
}

/** "p50 X ms (min..max, n N)", for the context lines. */
function brief(samples: readonly number[]): string {
  const s = summarize(samples);
  return s ? `p50 ${ms(s.p50)} ms (${ms(s.min)}..${ms(s.max)}, n ${s.n})` : 'no samples';
}

/** The real length of a frame's audio in the runs (see realFrameMs). */
function frameMs(f: Findings): string {
  return realFrameMs(f.sampleRate ?? 0).toFixed(3);
}

/** At a context rate that is not a multiple of 16 kHz, the kiosk's stream time runs slow: say by how much. */
function driftNote(f: Findings): string {
  const real = realFrameMs(f.sampleRate ?? 0);
  if (real === STREAM_FRAME_MS) return '';
  const percent = ((real - STREAM_FRAME_MS) / STREAM_FRAME_MS) * 100;
  return (
    `\n  The audio context ran at ${f.sampleRate} Hz: vad-web's resampler takes ${Math.round((real * (f.sampleRate ?? 0)) / 1000)} samples (${real.toFixed(3)} ms) per frame,` +
    `\n  so the kiosk's stream time (frames x 32 ms) runs ${percent.toFixed(3)} % slow (${((percent / 100) * 35_000).toFixed(0)} ms over 35 s); the clock here uses the real length.`
  );
}

function print(title: string, rows: string[][], context: readonly string[], findings: Findings, key: Section): void {
  console.log(`\n${title}`);
  console.log(textTable(['', 'n', 'p50 ms', 'p95 ms', 'min ms', 'max ms'], rows));
  for (const line of [...context, ...findings.notesOf(key)]) console.log(line);
}

export function endOfSpeech(f: Findings): void {
  print(
    '1. End of speech: true end of a spoken line to its audio handed to speech recognition',
    [
      row('ours, free answers (bench fixture; waits 350 ms)', f.of('eos.ours.free')),
      row('ours, dictated (digits-pause; waits 800 ms)', f.of('eos.ours.dictated')),
      row('ours, all', f.of('eos.ours.free', 'eos.ours.dictated')),
      row('vad-web defaults, free answers', f.of('eos.vad.free')),
      row('vad-web defaults, dictated', f.of('eos.vad.dictated')),
      row('vad-web defaults, all', f.of('eos.vad.free', 'eos.vad.dictated')),
    ],
    [
      `ours: vk:speech-end. vad-web defaults: vk:vad-default-speech-end (redemption 1400 ms, minSpeech 400 ms), same frames, same runs.`,
      `true end in page time = zero + the line's endMs in the manifest + the run's file offset, from a probe on every frame (bench/voice-frames.ts):`,
      `  zero: frame k holds audio up to (k+1) x ${frameMs(f)} ms and reached the page at T, so zero <= T - (k+1) x that; the smallest over all`,
      `  of the run's frames. It is late, and every delay reads low, by the least lag from the fake microphone to the page (capture and render`,
      `  buffers, a message hop), which the page cannot see. Checks: the marks alone would put zero later, by the smallest hand-over in a run`,
      `  ${brief(f.of('zero.marks'))}, and vk:listening by ${brief(f.of('zero.listening'))} (the first frame waits for the first inference).`,
      `  file offset: the lines' onsets as heard minus the manifest's, median per run: ${brief(f.of('clock.offset'))} (audio lost or added as the`,
      `  microphone opens); spread of the onsets within a run ${brief(f.of('clock.spread'))}. Ends as heard, minus the manifest's, after the offset:`,
      `  ${brief(f.of('clock.end'))} (the microphone's gain control lifts quiet tails).${driftNote(f)}`,
      `ours = detector tail (end of the last voiced frame - true end) ${brief(f.of('eos.tail'))}`,
      `  + silence counted (decision - last voiced frame, whole frames) free ${brief(f.of('eos.silence.free'))}, dictated ${brief(f.of('eos.silence.dictated'))}`,
      `  + hand-over (vk:speech-end - page time of its decision's frame) ${brief(f.of('eos.lag'))}.`,
    ],
    f,
    'end-of-speech',
  );
}

export function transcriptToScreen(f: Findings): void {
  print(
    '2. Transcript to screen: vk:transcript to the next vk:screen ("My name is Alex" fills the name; onboarding fixture, first line)',
    [row('transcript -> screen', f.of('screen'))],
    [
      `values: ${f.of('screen').map(ms).join(', ') || 'none'} ms. The flow's own rule captures the name; vk:screen is taken in the animation frame after the change.`,
      `for comparison, "yes" confirmed by the model's tool call (chat double, ${CHUNK_DELAY_MS} ms a chunk): ${brief(f.of('screen.model'))}.`,
    ],
    f,
    'screen',
  );
}

export function firstSentence(f: Findings): void {
  print(
    '3. First streamed sentence to speech start: vk:sentence to the next vk:tts-start (Web Audio speech through /api/tts, TTS double)',
    [
      row(`sentence -> speech start, minus the double's delay (${TTS_DELAY_MS} ms)`, f.of('speech')),
      row("  of which the page's /api/tts fetch", f.of('speech.fetch')),
      row('the TTS double answering Node directly, warm', f.of('speech.double')),
    ],
    [
      `a sample per reply begun in silence, three a visit: the model's greeting and its colour-step greeting (three sentences each, streamed`,
      `  4 characters a chunk, ${CHUNK_DELAY_MS} ms apart) and the gate's "I heard Alex. Is that right?" (the engine's own, handed over whole).`,
      `fakes.tts.delayMs = ${TTS_DELAY_MS}; the double's synthesis (a tone) is inside its direct answer time: negligible, not subtracted.`,
      `vk:tts-start is taken when the AudioBufferSourceNode is started: the audio output's own latency is not in it.`,
    ],
    f,
    'speech',
  );
}

export function bargeInToSilence(f: Findings): void {
  print(
    '4. Barge-in to silence (barge-in fixture: "actually my name is Alex" from 4.5 s, over an 8 s greeting)',
    [
      row('true speech onset -> silence (vk:tts-hold, else vk:tts-stop)', f.of('barge.silence')),
      row('  true onset -> end of the frame that held the voice (64 ms of sound)', f.of('barge.hold')),
      row('true speech onset -> vk:tts-stop (stopped for good)', f.of('barge.visitor')),
      row('  true onset -> end of the frame that passed the check', f.of('barge.check')),
      row('vk:barge-in -> vk:tts-stop (the kiosk)', f.of('barge.kiosk')),
    ],
    [
      `true onset: as for the end of speech (zero + startMs + file offset). 64 ms of sound over the kiosk's voice, at a higher threshold,`,
      `  hold it (silent at once); 250 ms of it stop it for good, and a shorter sound (a cough, a click) lets it be heard again.`,
      `  vk:tts-hold and vk:tts-stop are taken when the voice's gain is set to 0 or its source stopped (output latency not in them).`,
      `goal: true onset to silence p50 <= 200 ms.`,
    ],
    f,
    'barge-in',
  );
}

export function pageLoad(f: Findings): void {
  print(
    '5. Page load',
    [row('tap Start -> first microphone frame (vk:listening)', f.of('load.tap')), row('navigation -> detector wasm fetched', f.of('load.ready'))],
    [`every run is a first visit in a fresh browser and gives one sample of each; Start was tapped on an idle page, its detector fetched.`],
    f,
    'load',
  );
}

export function coldStartReport(f: Findings): void {
  const files = ['silero_vad_v5.onnx', 'ort-wasm-simd-threaded.wasm'];
  print(
    '6. Cold start from the offline cache: Chromium started again on a profile the kiosk was installed in, page served by its service worker',
    [
      row('ready to listen: navigation -> first microphone frame scored (vk:listening)', f.of('cold.ready')),
      row('  navigation -> idle screen, Start tapped at once', f.of('cold.idle')),
      row('  tap -> first frame', f.of('cold.tap')),
      row('  navigation -> the detector starts loading (vk:detector-load)', f.of('cold.step.vk:detector-load')),
      row('  navigation -> the detector loaded: model and wasm (vk:detector-ready)', f.of('cold.step.vk:detector-ready')),
      row('  navigation -> the microphone open (vk:microphone-open)', f.of('cold.step.vk:microphone-open')),
      row('  the detector loaded -> first frame scored', f.of('cold.after-ready')),
      ...files.map((name) => row(`  /vad/${name} fetched (from the worker's cache)`, f.of(`cold.file.${name}`))),
    ],
    [
      `the install visit listened for a few seconds, as a kiosk in use has, so the browser holds the detector's compiled code (docs/voice.md).`,
      `goal: ready to listen p50 within 1000 ms. Bytes the server sent per cold start (the /api/config answer, the worker's update check): ${f.of('cold.bytes').map((b) => `${(b / 1e3).toFixed(1)} kB`).join(', ') || 'none'}.`,
    ],
    f,
    'cold',
  );
}
