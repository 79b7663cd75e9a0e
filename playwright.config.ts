// End-to-end tests in real Chromium against the production build, served by the kiosk's own
// server with no outside services (the voice tests start their own, with the OpenAI doubles),
// beside the local clinic service that the clinic example's actions reach.
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS, CHROMIUM_SHELL, FULL_BROWSER } from './tests/e2e/support/chromium.ts';
import type { VoiceWorkerOptions } from './tests/e2e/support/voice.ts';

// E2E_PORT lets two checkouts on one machine run their browser tests at the same time.
const PORT = Number(process.env['E2E_PORT'] ?? 4179);
/** The local clinic service, a port tied to the kiosk's so that checkouts do not share one. */
const CLINIC_PORT = PORT + 1000;
const CLINIC_TOKEN = 'e2e-clinic-token-not-a-real-one';

/** The tests that hear and speak: real-time audio, the longest tests of the suite. */
const VOICE = ['**/voice-*.spec.ts', '**/pwa-voice.spec.ts'];
/** The tests that need the full browser (tests/e2e/support/chromium.ts). */
const FULL = new RegExp(FULL_BROWSER);

export default defineConfig<object, VoiceWorkerOptions>({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // Most of a browser test is waiting (on a screen's settling time, a turn's silence, a reply):
  // three at a time keep two cores busy. The voice tests play speech in real time; `npm test` runs
  // them alone (test:voice) before the touch tests (test:touch).
  workers: 3,
  // Browser tests run on Chromium's headless shell (tests/e2e/support/chromium.ts says why), but
  // those tagged @full-browser, which need something only the full browser has (a screen wake
  // lock, a microphone blocked as a kiosk's browser blocks it, the browser's on-device speech
  // recognition), run on it. The voice tests run two at a time: each keeps most of a core busy in
  // bursts (the detector's 14 MB wasm compiled, speech played and heard), and with a third the
  // machine has no time to spare for the audio, which then arrives late and in pieces.
  projects: [
    { name: 'voice', testMatch: VOICE, grepInvert: FULL, workers: 2, use: { voiceChromium: CHROMIUM_SHELL } },
    { name: 'voice-full', testMatch: VOICE, grep: FULL, workers: 2 },
    { name: 'touch', testIgnore: VOICE, grepInvert: FULL, use: { voiceChromium: CHROMIUM_SHELL, launchOptions: { executablePath: CHROMIUM_SHELL, args: CHROMIUM_FLAGS } } },
    { name: 'touch-full', testIgnore: VOICE, grep: FULL },
  ],
  forbidOnly: true,
  retries: 0,
  // A ceiling, never a wait: the longest tests (the accessibility scans, a whole spoken visit) take
  // 20 s on a quiet two-core machine and twice that when it is busy.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 900 },
    // A trace records the page at every step: a fifth of a touch test's CPU. A failure still leaves
    // the page's accessibility snapshot (error-context.md); E2E_TRACE=1 keeps a failed test's trace.
    trace: process.env['E2E_TRACE'] ? 'retain-on-failure' : 'off',
    // The service worker precaches 17 MB at every first load, in every test's fresh context: only
    // the tests of offline use and of what the kiosk keeps let it register (test.use in those files).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    },
  },
  // The touch tests' kiosk and clinic service; the voice tests start their own beside each kiosk
  // (test:voice sets E2E_SERVERS=none and spares the run their start, a few CPU-seconds).
  webServer: process.env['E2E_SERVERS'] === 'none' ? [] : [
    {
      command: `npx tsx tests/servers/clinic-service.ts ${CLINIC_PORT}`,
      // 400: the service is up (a look-up needs a name and a date of birth)
      url: `http://127.0.0.1:${CLINIC_PORT}/appointments`,
      reuseExistingServer: !process.env['CI'],
      timeout: 60_000,
      env: { CLINIC_TOKEN },
    },
    {
      command: 'npx tsx server/main.ts',
      url: `http://127.0.0.1:${PORT}`,
      reuseExistingServer: !process.env['CI'],
      // The first start on a machine makes the memory's database (PGlite's initdb), which a busy
      // machine can stretch to a minute; later runs open the same folder in a second or two.
      timeout: 180_000,
      // No outside services and no operator PIN, whatever the developer's environment or .env says; actions reach
      // only the local clinic service. The memory is a folder of the test run's own (never the
      // developer's ./data), kept from run to run: nothing in it changes what a test sees.
      env: {
        HOST: '127.0.0.1',
        PORT: String(PORT),
        KIOSK_DATA_DIR: `node_modules/.cache/voice-kiosk/e2e-memory-${PORT}`,
        DATABASE_URL: '',
        LLM_BASE_URL: '',
        STT_BASE_URL: '',
        TTS_BASE_URL: '',
        ACTIONS_ALLOWED_ORIGINS: '',
        ACTION_ORIGIN_CLINIC: `http://127.0.0.1:${CLINIC_PORT}`,
        ACTION_SECRET_CLINIC_TOKEN: CLINIC_TOKEN,
        ACTION_SECRET_CLINIC_TOKEN_ORIGINS: `http://127.0.0.1:${CLINIC_PORT}`,
        FLOW_ALLOWED_ORIGINS: '',
        OPERATOR_PIN: '',
      },
    },
  ],
});
