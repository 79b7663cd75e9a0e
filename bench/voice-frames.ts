// The microphone's frames as the page receives them, and the clock the voice benchmark builds
// from them. A probe put on the page before Start notes when each frame from vad-web's audio
// worklet reaches the page and where its loud samples are; from that, the page time of any
// stream time the kiosk reports and of any time in the fixture file.

import type { Page } from '@playwright/test';
import type { FixtureLine } from '../tests/support/audio-fixtures.ts';

/** A sample louder than this is sound: the threshold the fixtures' manifests are measured with. */
const LOUD = 0.002;
/** One frame: 512 samples at 16 kHz, which the kiosk counts as 32 ms of stream time. */
const FRAME_SAMPLES = 512;
export const STREAM_FRAME_MS = 32;

/**
 * Page-side (a string: it runs in the page, and Node's typings lack the DOM). Wraps
 * AudioWorkletNode so that every node the page makes gets a listener on its port ahead of
 * vad-web's own handler, which notes each audio frame's arrival and its first and last loud
 * sample, and the node's context's sample rate. Costs a loop over 512 samples per frame.
 */
const PROBE = `(() => {
  const Base = window.AudioWorkletNode;
  const probe = { sampleRate: 0, arrivals: [], first: [], last: [] };
  window.__benchFrames = probe;
  window.AudioWorkletNode = class extends Base {
    constructor(...args) {
      super(...args);
      probe.sampleRate = args[0].sampleRate;
      this.port.addEventListener('message', (event) => {
        const data = event.data;
        if (!data || data.message !== 'AUDIO_FRAME' || !(data.data instanceof ArrayBuffer)) return;
        const now = performance.now();
        const x = new Float32Array(data.data);
        let first = -1, last = -1;
        for (let i = 0; i < x.length; i++) if (Math.abs(x[i]) > ${LOUD}) { if (first < 0) first = i; last = i; }
        probe.arrivals.push(now); probe.first.push(first); probe.last.push(last);
      });
    }
  };
})()`;

/** What the probe noted: the audio context's rate, and per frame its arrival (page time) and first/last loud sample (-1: none). */
export interface FrameLog {
  sampleRate: number;
  arrivals: number[];
  first: number[];
  last: number[];
}

/** Puts the probe on the page; call before Start (the worklet node is made when the microphone opens). */
export async function installFrameProbe(page: Page): Promise<void> {
  await page.evaluate(PROBE);
}

export async function readFrames(page: Page): Promise<FrameLog> {
  const log = await page.evaluate<FrameLog | null>('window.__benchFrames ?? null');
  if (!log || log.arrivals.length === 0) throw new Error('the frame probe saw no frames (did vad-web make its worklet node?)');
  return log;
}

/**
 * How much audio one frame really holds, in ms. vad-web's worklet resampler takes a whole number
 * of input samples per 512-sample frame, ceil(512 x rate / 16000): exactly 32 ms at 48 kHz, but
 * 1412 samples = 32.018 ms at 44.1 kHz, so there stream time (frames x 32 ms) runs 0.06 % slow.
 */
export function realFrameMs(sampleRate: number): number {
  if (!(sampleRate > 0)) return STREAM_FRAME_MS;
  return (Math.ceil((FRAME_SAMPLES * sampleRate) / 16000 - 1e-9) / sampleRate) * 1000;
}

/** A line's first and last loud sample as heard (ms of audio since the first frame) minus the manifest's. */
export interface LineAlignment {
  line: FixtureLine;
  onset: number | null;
  end: number | null;
}

/** The page time of the run's stream and file positions. */
export interface RunClock {
  /** page time at which the first frame's audio began */
  zero: number;
  /** the real length of one frame's audio (see realFrameMs) */
  frameMs: number;
  /** where the file's sound is in the audio heard minus where the manifest puts it: the median over the lines' onsets */
  fileOffset: number;
  /** each line's onset and end as heard minus the manifest's (before fileOffset is taken off) */
  alignment: LineAlignment[];
  /** page time of a stream time the kiosk reports (frames x 32 ms) */
  streamToPage(streamMs: number): number;
  /** page time of a time in the fixture file */
  fileToPage(fileMs: number): number;
}

/**
 * The run's clock. Zero: frame k (from 0) holds audio up to (k + 1) x frameMs after zero and
 * reached the page at arrivals[k], so zero <= arrivals[k] - (k + 1) x frameMs for every frame;
 * the smallest bound over the run is the estimate, late by the least lag from the fake
 * microphone to the page (capture and render buffers plus a message hop), which the page cannot
 * see. File offset: the file is not heard from its first sample exactly (some audio can be lost,
 * or silence added, as the microphone opens), so the lines' onsets as heard are compared with the
 * manifest and the median difference is the run's offset.
 */
export function runClock(log: FrameLog, lines: readonly FixtureLine[]): RunClock {
  const frameMs = realFrameMs(log.sampleRate);
  const zero = Math.min(...log.arrivals.map((at, k) => at - frameMs * (k + 1)));
  const alignment = alignLines(log, lines, frameMs);
  const onsets = alignment.flatMap((a) => (a.onset === null ? [] : [a.onset])).sort((a, b) => a - b);
  if (onsets.length === 0) throw new Error('no line was heard in the frames (the fixture did not play?)');
  const fileOffset = onsets[Math.floor((onsets.length - 1) / 2)]!;
  return {
    zero,
    frameMs,
    fileOffset,
    alignment,
    streamToPage: (streamMs) => zero + (streamMs / STREAM_FRAME_MS) * frameMs,
    fileToPage: (fileMs) => zero + fileMs + fileOffset,
  };
}

/** Finds each line's sound in the frames, within `searchMs` of where the manifest puts it. */
function alignLines(log: FrameLog, lines: readonly FixtureLine[], frameMs: number, searchMs = 250): LineAlignment[] {
  const frames = log.first.length;
  const at = (k: number, sample: number) => (k + sample / FRAME_SAMPLES) * frameMs;
  return lines.map((line) => {
    let onset: number | null = null;
    for (let k = Math.max(0, Math.floor((line.startMs - searchMs) / frameMs)); k < frames && onset === null; k++) {
      if (log.first[k]! >= 0) onset = at(k, log.first[k]!) - line.startMs;
    }
    let end: number | null = null;
    for (let k = Math.min(frames - 1, Math.ceil((line.endMs + searchMs) / frameMs)); k >= 0 && end === null; k--) {
      if (log.last[k]! >= 0) end = at(k, log.last[k]! + 1) - line.endMs;
    }
    return { line, onset, end };
  });
}
