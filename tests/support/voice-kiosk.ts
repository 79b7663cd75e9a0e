// A kiosk that hears and speaks, for the browser tests and the voice benchmark: the local OpenAI
// test doubles, the kiosk's own server (the production build in dist/ and its /api/ proxy)
// pointed at them, and a Chromium of its own whose microphone plays one of the espeak-ng
// fixtures (Chromium takes one file, at launch, and plays it from when the page opens the mic).

import { chromium, type Browser, type Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from '../e2e/support/chromium.ts';
import { startFakeOpenAI, type FakeOpenAI, type SttEntry } from '../servers/openai-fakes.ts';
import { fakeMicrophoneFlag, loadFixture, type AudioFixture, type FixtureName } from './audio-fixtures.ts';

export interface VoiceKioskOptions {
  /** the audio the microphone plays, from the moment the kiosk opens it; none: no microphone at all */
  fixture: FixtureName | null;
  /** which services the kiosk's server has (all three by default) */
  services?: { llm?: boolean; stt?: boolean; tts?: boolean };
  /** page address query (flow, timings) */
  query?: Record<string, string | number>;
  /** the visitor's browser lets the page use the microphone (default true) */
  microphoneAllowed?: boolean;
  /** flow files the page can load from its own origin, by path (`?flow=/test-flows/x.yaml`) */
  flows?: Record<string, string>;
  /** more settings for the kiosk's server, read as from its environment (OPERATOR_PIN, the actions' origins and secrets) */
  env?: Record<string, string>;
}

export interface VoiceKiosk {
  page: Page;
  fakes: FakeOpenAI;
  server: RunningServer;
  fixture: AudioFixture | null;
  /** the `vk:*` performance marks so far, by name, in page time (ms) */
  marks(): Promise<Record<string, number[]>>;
  /** the page's console warnings and errors, and uncaught errors */
  console: string[];
  close(): Promise<void>;
}

/** Keys the test server holds; a test can check that the page never sees them. */
export const TEST_KEYS = {
  llm: 'sk-test-llm-key-never-in-the-page',
  stt: 'sk-test-stt-key-never-in-the-page',
  tts: 'sk-test-tts-key-never-in-the-page',
};

export async function openVoiceKiosk(options: VoiceKioskOptions): Promise<VoiceKiosk> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    const fixture = options.fixture ? loadFixture(options.fixture) : null;
    const fakes = await startFakeOpenAI();
    closers.push(() => fakes.close());
    const on = { llm: true, stt: true, tts: true, ...options.services };
    const env: Record<string, string> = {};
    if (on.llm) Object.assign(env, { LLM_BASE_URL: fakes.baseURL, LLM_MODEL: 'test-chat', LLM_API_KEY: TEST_KEYS.llm });
    if (on.stt) Object.assign(env, { STT_BASE_URL: fakes.baseURL, STT_MODEL: 'test-whisper', STT_API_KEY: TEST_KEYS.stt });
    if (on.tts) Object.assign(env, { TTS_BASE_URL: fakes.baseURL, TTS_MODEL: 'test-tts', TTS_VOICE: 'test-voice', TTS_API_KEY: TEST_KEYS.tts });
    Object.assign(env, options.env);
    const server = await startServer({ root: 'dist', config: readConfig(env), host: '127.0.0.1', port: 0, quiet: true });
    closers.push(() => server.close());
    const browser: Browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        ...CHROMIUM_FLAGS,
        '--autoplay-policy=no-user-gesture-required',
        // The fake device is the microphone; the fake UI grants the permission prompt.
        ...(fixture ? ['--use-fake-device-for-media-stream', fakeMicrophoneFlag(fixture)] : []),
        ...(fixture && (options.microphoneAllowed ?? true) ? ['--use-fake-ui-for-media-stream'] : []),
      ],
    });
    closers.push(() => browser.close());
    const allowed = options.microphoneAllowed ?? true;
    const context = await browser.newContext({ baseURL: server.url, permissions: allowed ? ['microphone'] : [], viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    for (const [path, yaml] of Object.entries(options.flows ?? {})) {
      await page.route((url) => url.pathname === path, (route) => route.fulfill({ contentType: 'text/yaml; charset=utf-8', body: yaml }));
    }
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
      close,
      marks: () =>
        page.evaluate(() => {
          const out: Record<string, number[]> = {};
          for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('vk:')) (out[m.name] ??= []).push(m.startTime);
          return out;
        }),
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * What the transcription double answers for the fixture's spoken lines, in order: `texts[i]` for
 * line i, and only for a segment about as long as that line (else it answers with the length it
 * got, which then shows in the captions: a line cut in two, or two lines run together).
 */
export function transcriptsFor(fixture: AudioFixture | null, texts: readonly string[]): SttEntry[] {
  const lines = (fixture?.lines ?? []).filter((l) => l.kind === 'speech');
  if (lines.length !== texts.length) throw new Error(`fixture ${fixture?.name} has ${lines.length} spoken lines, ${texts.length} texts given`);
  return lines.map((line, i) => {
    const ms = line.endMs - line.startMs;
    return { text: texts[i]!, minSpeechMs: ms - 250, maxSpeechMs: ms + 600 };
  });
}
