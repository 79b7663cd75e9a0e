// The `voiceKiosk` fixture for browser tests: opens kiosks that hear and speak
// (tests/support/voice-kiosk.ts) and closes them after the test. Their pages open in one Chromium
// per worker (`voiceBrowser`), each in a context of its own; a kiosk whose microphone is
// Chromium's file-backed device gets a Chromium of its own. Which Chromium is the project's
// `voiceChromium` (playwright.config.ts): the headless shell for most, the full browser for the
// tests tagged @full-browser. When a voice test fails, it reports
// what the kiosk heard and said, and when: that is what explains a failure. Every voice test also
// checks that the kiosk's Content-Security-Policy refused nothing the page did.

import { writeFileSync } from 'node:fs';
import { expect, test as base, type Browser, type Page } from '@playwright/test';
import { launchVoiceBrowser, openVoiceKiosk, type VoiceKiosk, type VoiceKioskOptions } from '../../support/voice-kiosk.ts';
import { CHROMIUM } from './chromium.ts';

/**
 * How long the speech double's clip for a reply lasts, per character (at least 300 ms): a quarter
 * of the time the text would take to say. What the tests check is what the kiosk said and what it
 * does when its reply ends (listen, or be spoken over), not how long a sentence takes; a voice
 * test waits for every reply to end before it speaks, so its length was most of the lane's time.
 * A test about a long reply sets its own (`fakes.tts.durationFor`, `msPerChar`).
 */
const SPOKEN_MS_PER_CHAR = 10;

export interface VoiceWorkerOptions {
  /** the Chromium the voice tests of a project run in (default: the full browser) */
  voiceChromium: string;
}

export const test = base.extend<{ voiceKiosk: (options: VoiceKioskOptions) => Promise<VoiceKiosk> }, VoiceWorkerOptions & { voiceBrowser: Browser }>({
  voiceChromium: [CHROMIUM, { scope: 'worker', option: true }],
  voiceBrowser: [
    async ({ voiceChromium }, use) => {
      const browser = await launchVoiceBrowser({ device: true, executablePath: voiceChromium });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  voiceKiosk: async ({ voiceBrowser, voiceChromium }, use, testInfo) => {
    const opened: VoiceKiosk[] = [];
    await use(async (options) => {
      const kiosk = await openVoiceKiosk({ browser: voiceBrowser, chromium: voiceChromium, ...options });
      kiosk.fakes.tts.msPerChar = SPOKEN_MS_PER_CHAR;
      opened.push(kiosk);
      return kiosk;
    });
    if (testInfo.status !== testInfo.expectedStatus || process.env['VOICE_REPORT']) {
      for (const k of opened) {
        const captions = await k.page.locator('.captions li').allInnerTexts().catch(() => []);
        const report = {
          captions,
          marks: await k.marks().catch((error: unknown) => ({ unreadable: (error as Error).message })),
          stt: k.fakes.stt.requests,
          realtime: k.fakes.realtime.commits.map(({ audioMs, speechMs, transcript, again, firstAppendBeforeCommitMs }) => ({ audioMs, speechMs, transcript, again, firstAppendBeforeCommitMs })),
          llm: k.fakes.llm.requests.length,
          tts: k.fakes.tts.requests.map((r) => r.input),
          console: k.console,
        };
        const body = JSON.stringify(report, null, 2);
        await testInfo.attach('voice', { body, contentType: 'application/json' });
        writeFileSync(testInfo.outputPath('voice.json'), body);
        console.error(`voice test "${testInfo.title}": what the kiosk heard and said:\n${body}`);
      }
    }
    const refused = await Promise.all(opened.map((k) => k.policyViolations()));
    for (const k of opened) await k.close();
    expect(refused.flat(), "what the kiosk's Content-Security-Policy refused").toEqual([]);
  },
});

export { expect };

/**
 * Waits for the kiosk's voice to be on after Start (by default: listening, hearing, thinking or
 * speaking). Starting may compile the detector's 14 MB wasm, which takes seconds on a busy
 * two-core machine, so this waits longer than an ordinary expectation.
 */
export async function expectVoiceOn(page: Page, state: RegExp | string = /listening|speaking|thinking|hearing/): Promise<void> {
  await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', state, { timeout: 20_000 });
}
