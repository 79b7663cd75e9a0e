// A microphone the test plays into, line by line, when the kiosk is ready to hear it. The page's
// getUserMedia gets a live audio track fed from a Web Audio graph (silence until the test plays a
// line), so everything after the device (vad-web's worklet, the detector, turn-taking,
// recognition) is the kiosk's own. Chromium's file-backed fake device (fakeMicrophoneFlag) plays a
// whole recording from the moment the microphone opens, so a busy machine that is slow to answer
// one line hears the next one too early; a test that plays each line when the kiosk says it is
// listening cannot be outrun. voice-onboarding.spec.ts and the voice benchmark keep the file path.

import { readFileSync } from 'node:fs';
import type { BrowserContext } from '@playwright/test';
import type { AudioFixture, FixtureLine } from './audio-fixtures.ts';

/** Silence kept around a line when it is cut out of its recording, as a person's breath before and after. */
const MARGIN_MS = 150;

/** The samples of a 16-bit PCM mono WAV, as the fixtures are written (tests/fixtures/audio/README.md). */
export function readWavSamples(path: string): { sampleRate: number; samples: Int16Array } {
  const bytes = readFileSync(path);
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`${path} is not a WAV file`);
  let offset = 12;
  let sampleRate = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      const format = bytes.readUInt16LE(body);
      const channels = bytes.readUInt16LE(body + 2);
      const bits = bytes.readUInt16LE(body + 14);
      if (format !== 1 || channels !== 1 || bits !== 16) throw new Error(`${path}: expected 16-bit PCM mono, found format ${format}, ${channels} channels, ${bits} bits`);
      sampleRate = bytes.readUInt32LE(body + 4);
    } else if (id === 'data') {
      const samples = new Int16Array(size / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(body + i * 2);
      return { sampleRate, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error(`${path}: no data chunk`);
}

/**
 * Runs in the page before its own scripts (plain JavaScript, as the page runs it): getUserMedia
 * for audio answers with a track from the test's audio graph. `window.__testMicrophone.play(base64,
 * rate)` plays 16-bit PCM into it and resolves when the last sample has been played.
 */
export const INSTALL_TEST_MICROPHONE = `(() => {
  let context = null;
  let bus = null;
  const graph = () => {
    context ??= new AudioContext();
    bus ??= new GainNode(context);
    if (context.state === 'suspended') void context.resume();
    return { context, bus };
  };
  const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    if (!constraints || !constraints.audio || constraints.video) return original(constraints);
    const { context, bus } = graph();
    const destination = new MediaStreamAudioDestinationNode(context, { channelCount: 1 });
    bus.connect(destination);
    return destination.stream;
  };
  window.__testMicrophone = {
    play(base64, sampleRate) {
      const { context, bus } = graph();
      const raw = atob(base64);
      const buffer = context.createBuffer(1, raw.length / 2, sampleRate);
      const channel = buffer.getChannelData(0);
      for (let i = 0; i < channel.length; i++) {
        const v = raw.charCodeAt(2 * i) | (raw.charCodeAt(2 * i + 1) << 8);
        channel[i] = (v >= 0x8000 ? v - 0x10000 : v) / 0x8000;
      }
      const source = new AudioBufferSourceNode(context, { buffer });
      source.connect(bus);
      return new Promise((resolve) => {
        source.onended = () => resolve();
        source.start();
      });
    },
  };
})()`;

/** A page that runs a script given as text (a Playwright page, or an engine lane's). */
export interface ScriptedPage {
  evaluate(script: string): Promise<unknown>;
}

/** The test's side of the microphone: plays a fixture's lines into the page. */
export class TestMicrophone {
  private readonly recording: { sampleRate: number; samples: Int16Array };

  constructor(
    private readonly page: ScriptedPage,
    readonly fixture: AudioFixture,
  ) {
    this.recording = readWavSamples(fixture.path);
  }

  /** Makes every page of the context hear the test's microphone (call before the page opens). */
  static async install(context: BrowserContext): Promise<void> {
    await context.addInitScript(INSTALL_TEST_MICROPHONE);
  }

  /** The fixture's lines, in order (speech and noise). */
  get lines(): readonly FixtureLine[] {
    return this.fixture.lines;
  }

  /** Plays line `index` of the fixture (with a breath of silence around it); resolves once it has been played. */
  async play(index: number): Promise<void> {
    const line = this.fixture.lines[index];
    if (!line) throw new Error(`fixture ${this.fixture.name} has no line ${index}`);
    await this.playSpan(line.startMs - MARGIN_MS, line.endMs + MARGIN_MS);
  }

  /** Plays the fixture from `fromMs` to `toMs` as recorded (pauses and all). */
  async playSpan(fromMs: number, toMs: number): Promise<void> {
    const { sampleRate, samples } = this.recording;
    const at = (ms: number) => Math.max(0, Math.min(samples.length, Math.round((ms * sampleRate) / 1000)));
    const part = samples.subarray(at(fromMs), at(toMs));
    const base64 = Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('base64');
    await this.page.evaluate(`window.__testMicrophone.play(${JSON.stringify(base64)}, ${sampleRate})`);
  }
}
