// A kiosk that hears and speaks, for end-to-end tests: the local OpenAI test doubles, the kiosk's
// own server (the production build and its /api/ proxy) pointed at them, and a Chromium of its
// own whose microphone plays one of the espeak-ng fixtures (a browser takes one file, at launch).

import { writeFileSync } from 'node:fs';
import { chromium, test as base, type Browser, type Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../../server/app.ts';
import { readConfig } from '../../../server/config.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../servers/openai-fakes.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';
import { fakeMicrophoneFlag, loadFixture, type AudioFixture, type FixtureName } from '../../support/audio-fixtures.ts';


export interface VoiceKioskOptions {
  /** the audio the microphone plays, from the moment the kiosk opens it */
  fixture: FixtureName;
  /** which services the kiosk's server has (all three by default) */
  services?: { llm?: boolean; stt?: boolean; tts?: boolean };
  /** page address query (flow, timings) */
  query?: Record<string, string | number>;
}

export interface VoiceKiosk {
  page: Page;
  fakes: FakeOpenAI;
  server: RunningServer;
  fixture: AudioFixture;
  /** the `vk:*` performance marks so far, by name, in page time (ms) */
  marks(): Promise<Record<string, number[]>>;
  /** the page's console warnings and errors, and uncaught errors */
  console: string[];
}

async function open(options: VoiceKioskOptions, cleanup: (() => Promise<void>)[]): Promise<VoiceKiosk> {
  const fixture = loadFixture(options.fixture);
  const fakes = await startFakeOpenAI();
  cleanup.push(() => fakes.close());
  const on = { llm: true, stt: true, tts: true, ...options.services };
  const env: Record<string, string> = {};
  if (on.llm) Object.assign(env, { LLM_BASE_URL: fakes.baseURL, LLM_MODEL: 'test-chat', LLM_API_KEY: 'sk-test-llm-key-never-in-the-page' });
  if (on.stt) Object.assign(env, { STT_BASE_URL: fakes.baseURL, STT_MODEL: 'test-whisper', STT_API_KEY: 'sk-test-stt-key-never-in-the-page' });
  if (on.tts) Object.assign(env, { TTS_BASE_URL: fakes.baseURL, TTS_MODEL: 'test-tts', TTS_VOICE: 'test-voice', TTS_API_KEY: 'sk-test-tts-key' });
  const server = await startServer({ root: 'dist', config: readConfig(env), host: '127.0.0.1', port: 0, quiet: true });
  cleanup.push(() => server.close());
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...CHROMIUM_FLAGS,
      '--autoplay-policy=no-user-gesture-required',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      fakeMicrophoneFlag(fixture),
    ],
  });
  cleanup.push(() => browser.close());
  const context = await browser.newContext({ baseURL: server.url, permissions: ['microphone'], viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const consoleLines: string[] = [];
  page.on('pageerror', (e) => consoleLines.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`${m.type()}: ${m.text()}`);
  });
  const query = new URLSearchParams(Object.entries(options.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
  await page.goto(`/?${query}`);
  return {
    page,
    fakes,
    server,
    fixture,
    console: consoleLines,
    marks: () =>
      page.evaluate(() => {
        const out: Record<string, number[]> = {};
        for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('vk:')) (out[m.name] ??= []).push(m.startTime);
        return out;
      }),
  };
}

/** `voiceKiosk(options)` opens a kiosk with a microphone; everything closes after the test. */
export const test = base.extend<{ voiceKiosk: (options: VoiceKioskOptions) => Promise<VoiceKiosk> }>({
  // eslint-disable-next-line no-empty-pattern
  voiceKiosk: async ({}, use, testInfo) => {
    const cleanup: (() => Promise<void>)[] = [];
    const opened: VoiceKiosk[] = [];
    await use(async (options) => {
      const kiosk = await open(options, cleanup);
      opened.push(kiosk);
      return kiosk;
    });
    // When a voice test fails, what was heard and said, and when, is what explains it.
    if (testInfo.status !== testInfo.expectedStatus || process.env["VOICE_REPORT"]) {
      for (const k of opened) {
        const captions = await k.page.locator('.captions li').allInnerTexts().catch(() => []);
        const report = { captions, marks: await k.marks().catch(() => ({})), stt: k.fakes.stt.requests, llm: k.fakes.llm.requests.length, tts: k.fakes.tts.requests.map((r) => r.input), console: k.console };
        const body = JSON.stringify(report, null, 2);
        await testInfo.attach('voice', { body, contentType: 'application/json' });
        writeFileSync(testInfo.outputPath('voice.json'), body);
        console.error(`voice test "${testInfo.title}" failed; what the kiosk heard and said:\n${body}`);
      }
    }
    for (const close of cleanup.reverse()) await close().catch(() => undefined);
  },
});

export { expect } from '@playwright/test';
