// End-to-end tests in real Chromium against the production build, served by the kiosk's own
// server with no outside services (the voice tests start their own, with the OpenAI doubles).
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './tests/e2e/support/chromium.ts';

// E2E_PORT lets two checkouts on one machine run their browser tests at the same time.
const PORT = Number(process.env['E2E_PORT'] ?? 4179);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    },
  },
  webServer: {
    command: 'npx tsx server/main.ts',
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env['CI'],
    timeout: 60_000,
    // No outside services and no operator PIN, whatever the developer's environment or .env says.
    env: { HOST: '127.0.0.1', PORT: String(PORT), LLM_BASE_URL: '', STT_BASE_URL: '', TTS_BASE_URL: '', OPERATOR_PIN: '' },
  },
});
