// A kiosk that hears and speaks, for the browser tests and the voice benchmark: the local OpenAI
// test doubles, the kiosk's own server (the production build in dist/ and its /api/ proxy)
// pointed at them, and a page whose microphone plays one of the espeak-ng fixtures. The
// microphone is either the test's (test-microphone.ts: each line played when the test says, in
// a browser shared by the tests of a worker) or Chromium's file-backed fake device (`microphone:
// 'file'`: the whole recording from when the page opens the mic, in a Chromium of its own, since
// Chromium takes the file at launch).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { serveFlow } from '../e2e/support/flows.ts';
import { RECORD_VISITOR_LINES } from '../e2e/support/kiosk.ts';
import { chromium, expect, type Browser, type Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../server/app.ts';
import { testConfig } from './test-config.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from '../e2e/support/chromium.ts';
import { startFakeOpenAI, type FakeOpenAI, type SttEntry } from '../servers/openai-fakes.ts';
import { fakeMicrophoneFlag, loadFixture, partSpans, type AudioFixture, type FixtureName } from './audio-fixtures.ts';
import { TestMicrophone } from './test-microphone.ts';
import { emptyTestMemory } from './test-memory.ts';
import type { Memory } from '../../server/storage/memory.ts';

export interface VoiceKioskOptions {
  /**
   * the audio the microphone can play; none: no microphone at all where it is allowed, and one
   * the browser refuses where it is not (`microphoneAllowed: false`)
   */
  fixture: FixtureName | null;
  /**
   * `test` (default): the test plays each line (VoiceKiosk.microphone); `file`: Chromium's fake
   * device plays the whole fixture from the moment the kiosk opens the microphone
   */
  microphone?: 'test' | 'file';
  /** a browser to open the page in (a worker's shared one); without it, one of its own is launched */
  browser?: Browser;
  /** the Chromium a kiosk that needs a browser of its own launches (default: the full browser, CHROMIUM) */
  chromium?: string;
  /** whether the page may register its service worker (default: blocked, so that a test does not precache 17 MB it does not use) */
  serviceWorkers?: 'allow' | 'block';
  /** which services the kiosk's server has (all three by default) */
  services?: { llm?: boolean; stt?: boolean; tts?: boolean };
  /** page address query (flow, timings) */
  query?: Record<string, string | number>;
  /** the visitor's browser lets the page use the microphone (default true) */
  microphoneAllowed?: boolean;
  /** flow files the page can load from its own origin, by path (`?flow=/test-flows/x.yaml`) */
  flows?: Record<string, string>;
  /**
   * flow files on the kiosk's server, by file name (`?flow=/praxis.yaml`): the server reads and
   * keeps them as any flow at a path on it, so that their actions run, which a flow only the page
   * is given (`flows`) cannot
   */
  serverFlows?: Record<string, string>;
  /** more settings for the kiosk's server, read as from its environment (OPERATOR_PIN, the actions' origins and secrets) */
  env?: Record<string, string>;
  /** runs on the page before it opens the kiosk (routes that hold or fail the kiosk's own files) */
  prepare?: (page: Page) => Promise<void>;
  /** the kiosk's server speaks HTTPS with this certificate and key */
  tls?: { cert: Buffer; key: Buffer };
  /** a browser the kiosk launches for itself lets V8 tier WebAssembly up (VoiceBrowserOptions.wasmTopTier) */
  wasmTopTier?: boolean;
  /**
   * the name the page reaches the server by (another machine's view: the kiosk asks to be paired),
   * mapped to this machine in a Chromium of its own; its environment (`browserEnv`: a HOME whose NSS
   * database trusts a test authority) is that Chromium's
   */
  host?: string;
  browserEnv?: Record<string, string>;
}

export interface VoiceKiosk {
  page: Page;
  fakes: FakeOpenAI;
  server: RunningServer;
  fixture: AudioFixture | null;
  /** the test's microphone, when the fixture is played by the test */
  microphone: TestMicrophone | null;
  /**
   * Line `index` of the fixture, said when the kiosk is ready to hear it: its light says
   * "Listening" (not speaking, about to speak, or thinking). Resolves once the line has been played.
   */
  say(index: number): Promise<void>;
  /** Waits until the microphone's first frame has reached the detector (`vk:listening`): the kiosk can hear, whatever it is doing. */
  canHear(): Promise<void>;
  /** the `vk:*` performance marks so far, by name, in page time (ms) */
  marks(): Promise<Record<string, number[]>>;
  /** the page's console warnings and errors, and uncaught errors */
  console: string[];
  /** the kiosk server's memory (the pairings, the counts) */
  memory: Memory;
  /** what the kiosk's Content-Security-Policy refused in the page so far (directive and address), and any console line about it */
  policyViolations(): Promise<string[]>;
  close(): Promise<void>;
}

/** Records every `securitypolicyviolation` in the page, before the kiosk's own scripts run. */
const WATCH_POLICY = `(() => {
  const seen = (window.__policyViolations = []);
  document.addEventListener('securitypolicyviolation', (e) => seen.push(e.effectiveDirective + ' ' + e.blockedURI));
})()`;

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
    const api = options.serverFlows ? { flows: { root: heldFlows(options.serverFlows, closers) } } : {};
    const memory = await emptyTestMemory();
    const server = await startServer({ root: 'dist', config: testConfig(env), host: '127.0.0.1', port: 0, quiet: true, memory, api, ...(options.tls ? { tls: options.tls } : {}) });
    closers.push(() => server.close());
    const allowed = options.microphoneAllowed ?? true;
    const fromFile = fixture !== null && options.microphone === 'file';
    // No microphone at all (none given and allowed, so the browser looks for one) needs a browser without a capture device.
    const noDevice = fixture === null && allowed;
    let browser = fromFile || noDevice || options.host ? undefined : options.browser;
    if (!browser) {
      const reach = options.host ? { hostRules: `MAP ${options.host} 127.0.0.1`, ...(options.browserEnv ? { env: options.browserEnv } : {}) } : {};
      browser = await launchVoiceBrowser({ ...(options.chromium ? { executablePath: options.chromium } : {}), ...(fromFile ? { device: true, file: fixture, promptSaysYes: allowed } : { device: !noDevice }), ...reach, ...(options.wasmTopTier ? { wasmTopTier: true } : {}) });
      const own = browser;
      closers.push(() => own.close());
    }
    const context = await browser.newContext({
      baseURL: options.host ? server.url.replace('127.0.0.1', options.host) : server.url,
      permissions: allowed ? ['microphone'] : [],
      viewport: { width: 1280, height: 900 },
      serviceWorkers: options.serviceWorkers ?? 'block',
      // The voice light's pulse while hearing and speaking redraws the page at 60 frames a second,
      // which a machine without a GPU pays for in every process of the browser.
      reducedMotion: 'reduce',
    });
    closers.push(() => context.close());
    if (fixture && !fromFile) await TestMicrophone.install(context);
    const page = await context.newPage();
    const microphone = fixture && !fromFile ? new TestMicrophone(page, fixture) : null;
    for (const [path, yaml] of Object.entries(options.flows ?? {})) {
      await serveFlow(page, path, yaml);
    }
    const consoleLines: string[] = [];
    await context.addInitScript(WATCH_POLICY);
    await context.addInitScript(RECORD_VISITOR_LINES);
    page.on('pageerror', (e) => consoleLines.push(`uncaught: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`${m.type()}: ${m.text()}`);
    });
    await options.prepare?.(page);
    const query = new URLSearchParams(Object.entries(options.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
    await page.goto(`/?${query}`);
    return {
      page,
      fakes,
      server,
      fixture,
      microphone,
      canHear: () => expect.poll(() => page.evaluate(() => performance.getEntriesByName('vk:listening').length), { timeout: 30_000 }).toBeGreaterThan(0),
      say: async (index) => {
        if (!microphone) throw new Error('this kiosk has no test microphone (fixture null, or microphone: file)');
        await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', 'listening', { timeout: 20_000 });
        await microphone.play(index);
      },
      console: consoleLines,
      memory,
      policyViolations: async () => [
        ...((await page.evaluate('window.__policyViolations ?? []').catch(() => [])) as string[]),
        ...consoleLines.filter((line) => /Content.Security.Policy/i.test(line)),
      ],
      close,
      marks: async () => {
        const read = await page.evaluate(() => {
          // Under page.clock.install() Playwright's fake performance keeps no entries, not even the navigation's.
          const byType = performance.getEntriesByType.bind(performance) as (type: string) => unknown[]; // 'navigation': a page's type, not Node's
          if (byType('navigation').length === 0) return null;
          const out: Record<string, number[]> = {};
          for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('vk:')) (out[m.name] ??= []).push(m.startTime);
          return out;
        });
        if (read === null) throw new Error("the page's performance marks cannot be read: its clock is Playwright's (page.clock.install()), whose performance keeps none");
        return read;
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A folder of its own holding `files`, removed when the kiosk closes. */
function heldFlows(files: Record<string, string>, closers: (() => Promise<unknown>)[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'voice-kiosk-flows-'));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, basename(name)), text);
  return dir;
}

/** What a voice Chromium has for a microphone. */
export interface VoiceBrowserOptions {
  /** a capture device: Chromium's fake one (a tone, or `file` played once from when a page opens it) */
  device: boolean;
  file?: AudioFixture;
  /** the permission prompt says yes by itself (else, in a headless browser, no) */
  promptSaysYes?: boolean;
  /** Chromium's --host-resolver-rules (`MAP kiosk.test 127.0.0.1`) */
  hostRules?: string;
  /** the browser's environment (default: the test's) */
  env?: Record<string, string>;
  /** which Chromium (default: the full browser, CHROMIUM) */
  executablePath?: string;
  /** let V8 recompile hot WebAssembly with its optimising compiler, as a visitor's browser does (default: no, BASELINE_WASM_ONLY) */
  wasmTopTier?: boolean;
}

/**
 * V8's baseline WebAssembly compiler only (Liftoff), for the tests. A visitor's browser also
 * recompiles the detector's hot functions with its optimising compiler (TurboFan) once they have
 * run a while: in a fresh context that is about 4 CPU-seconds of background compiling in the
 * first seconds of listening (onnxruntime's wasm is 14 MB), in every voice test. WebAssembly's
 * results do not depend on the compiler, so the detector hears the same; each 32 ms frame costs
 * a little more to score. The voice benchmark keeps the browser's own tiering (wasmTopTier).
 */
const BASELINE_WASM_ONLY = '--js-flags=--liftoff-only';

/**
 * A Chromium for voice, with autoplay allowed (the kiosk speaks without a gesture of its own).
 * The browser the tests of a worker share has a fake capture device and no prompt that says yes:
 * a context granted the microphone gets it; one that is not is refused it, as a visitor's browser
 * that blocks the microphone. The test's microphone stands in for the device where it is installed.
 */
export function launchVoiceBrowser(options: VoiceBrowserOptions = { device: true }): Promise<Browser> {
  return chromium.launch({
    executablePath: options.executablePath ?? CHROMIUM,
    args: [
      ...CHROMIUM_FLAGS,
      '--autoplay-policy=no-user-gesture-required',
      ...(options.wasmTopTier ? [] : [BASELINE_WASM_ONLY]),
      ...(options.device ? ['--use-fake-device-for-media-stream'] : []),
      ...(options.device && options.file ? [fakeMicrophoneFlag(options.file)] : []),
      ...(options.promptSaysYes ? ['--use-fake-ui-for-media-stream'] : []),
      ...(options.hostRules ? [`--host-resolver-rules=${options.hostRules}`] : []),
    ],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
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
    // A line with pauses inside may come in stretches cut at them (streaming recognition commits
    // at a pause), each measured from its first speech to its last: together they hold the speech
    // without the pauses, less the quieter ones the detector also took for pauses.
    const paused = (line.pauses ?? []).reduce((n, p) => n + p.endMs - p.startMs, 0);
    return { text: texts[i]!, minSpeechMs: paused > 0 ? ms - paused - 1000 : ms - 250, maxSpeechMs: ms + 600 };
  });
}

/**
 * What the transcription double answers for each part of the fixture's spoken lines, in order:
 * `texts[i][j]` for part j of line i (a line spoken in parts: `parts` in its manifest), each for a
 * stretch about as long as that part. A line that is one turn is recognised in its parts (the
 * streaming recogniser commits at the pause) and its words joined; a line cut in two is two turns
 * of those words.
 */
export function transcriptsForParts(fixture: AudioFixture | null, texts: readonly (readonly string[])[]): SttEntry[] {
  const lines = (fixture?.lines ?? []).filter((l) => l.kind === 'speech');
  if (lines.length !== texts.length) throw new Error(`fixture ${fixture?.name} has ${lines.length} spoken lines, ${texts.length} given`);
  return lines.flatMap((line, i) => {
    const spans = partSpans(line);
    if (texts[i]!.length !== spans.length) throw new Error(`line ${i + 1} of ${fixture?.name} has ${spans.length} parts, ${texts[i]!.length} texts given`);
    return texts[i]!.map((text, j) => {
      const ms = spans[j]!.span.endMs - spans[j]!.span.startMs;
      return { text, minSpeechMs: ms - 250, maxSpeechMs: ms + 600 };
    });
  });
}

