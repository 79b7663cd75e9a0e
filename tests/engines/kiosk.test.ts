// The kiosk in the lane's engine (ENGINE=webkit: Safari's engine, WebKitGTK's MiniBrowser;
// ENGINE=firefox: Firefox ESR): one browser for every test (lane.ts), each test starting from an
// empty storage. A failed test leaves a screenshot in test-results/engines/<engine>/.

import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { dailyTests } from './daily.ts';
import type { EngineName } from './engine.ts';
import { openLane, type Lane } from './lane.ts';
import { touchTests } from './touch.ts';
import { fakeMicrophoneTests, silentMicrophoneTests, voiceTests } from './voice.ts';

const ENGINE = process.env['ENGINE'] as EngineName;
if (ENGINE !== 'webkit' && ENGINE !== 'firefox') throw new Error('set ENGINE=webkit or ENGINE=firefox (npm run test:webkit, npm run test:firefox)');

let lane: Lane | null = null;
const current = (): Lane => lane ?? (() => { throw new Error('the lane did not open'); })();

beforeAll(async () => {
  lane = await openLane(ENGINE);
});
afterAll(async () => {
  await lane?.close();
});
// What a visit or the operator kept in the page's storage (a visit that a failed test left) is
// not the next test's: the service worker and its caches stay, as on a kiosk.
beforeEach(async () => {
  await lane?.page.evaluate(`() => { try { localStorage.clear(); sessionStorage.clear(); } catch {} }`, null);
});
afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail' || !lane) return;
  const dir = `test-results/engines/${ENGINE}`;
  mkdirSync(dir, { recursive: true });
  const name = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  writeFileSync(`${dir}/${name}.png`, await lane.page.screenshot().catch(() => Buffer.alloc(0)));
});

touchTests(ENGINE, current);
dailyTests(ENGINE, current);
// A spoken answer through the test's microphone in Safari's engine; in Firefox, whose detector
// takes no samples from a track of another AudioContext (the test's microphone), its own fake
// device (a tone) is heard instead.
if (ENGINE === 'webkit') voiceTests(ENGINE, current);
else fakeMicrophoneTests(ENGINE, current);
// Firefox with no audio output: a page of its own, in a Firefox that finds no sound device.
if (ENGINE === 'firefox') silentMicrophoneTests(ENGINE, async () => ({ ...current(), page: await current().withoutAudio() }));
