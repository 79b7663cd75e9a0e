// The kiosk's own HTTPS (TLS_CERT, TLS_KEY) as a tablet on a clinic's network meets it: Chromium
// trusts a local certificate authority (made by scripts/make-certificate.sh, installed in the
// browser's NSS database as an operator installs it on a tablet; no certificate error ignored)
// and reaches the server as https://kiosk.test, another machine's name. The device is paired
// through its pairing screen (the credential a __Host- cookie), the page is a secure context, the
// service worker takes control, and a visit goes by voice, each line played into the page's
// microphone when the kiosk listens (test-microphone.ts), its speech streamed over the wss socket
// to the recognition double, the model and the voice reached through the kiosk's /api/.

import { rmSync } from 'node:fs';
import { Pairing } from '../../server/pairing.ts';
import { transcriptsFor } from '../support/voice-kiosk.ts';
import { homeTrusting, testCertificates, type TestCertificates } from '../support/test-certificates.ts';
import { expectStep, fieldBlock, kiosk, serviceWorkerControls, visitorLines } from './support/kiosk.ts';
import { expect, test } from './support/voice.ts';

test.describe.configure({ timeout: 90_000 });

let certs: TestCertificates;
let home: string;
test.beforeAll(() => {
  certs = testCertificates(['kiosk.test']);
  home = homeTrusting(certs.caPath);
});
test.afterAll(() => {
  for (const dir of [certs?.dir, home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test('over HTTPS from another machine: paired, a secure context, the service worker in control, a visit by voice streamed over wss', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, memory, say } = await voiceKiosk({
    fixture: 'onboarding',
    serviceWorkers: 'allow',
    query: { flow: 'onboarding' },
    env: { STT_MODE: 'realtime', LLM_EARLY_START: 'off', ALLOWED_HOSTS: 'kiosk.test' },
    tls: { cert: certs.cert, key: certs.key },
    host: 'kiosk.test',
    browserEnv: { HOME: home },
  });
  expect(page.url()).toMatch(/^https:\/\/kiosk\.test:\d+\//);
  await expect(kiosk(page)).toHaveAttribute('data-pairing', 'not_paired');

  const made = await new Pairing(memory.pairings, memory.pairingLock).makeCode('Lobby iPad');
  await page.getByRole('textbox', { name: 'Pairing code' }).fill(made.ok ? made.code : '');
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Pair', exact: true }).click()]);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expect(kiosk(page)).toHaveAttribute('data-pairing', 'none');
  const cookies = await page.context().cookies();
  expect(cookies.map((c) => [c.name, c.secure, c.httpOnly, c.sameSite])).toEqual([['__Host-vk-device', true, true, 'Strict']]);
  expect(await page.evaluate<boolean>('isSecureContext')).toBe(true);
  await serviceWorkerControls(page);

  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
  fakes.llm.script([
    { when: { user: /^yes/i, system: /first name/i }, reply: { text: 'Thank you!', tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
    { when: { system: /pick a colour/i }, reply: { text: 'Which colour do you like?' } },
    { when: { last: 'system' }, reply: { text: 'Welcome! What is your first name?' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(0);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await say(1);
  await expectStep(page, 'choose_color');
  await say(2);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended', { timeout: 20_000 });
  await expect(visitorLines(page)).toHaveText(['You: My name is Alex.', 'You: Yes.', 'You: Blue, please.']);
  // Each turn streamed over the kiosk's own wss socket, none uploaded; the model and the voice answered through /api/.
  expect(sockets.every((url) => /^wss:\/\/kiosk\.test:\d+\/api\/stt\/realtime\?/.test(url))).toBe(true);
  expect(sockets.length).toBeGreaterThan(0);
  expect(fakes.realtime.commits).toHaveLength(3);
  expect(fakes.stt.requests).toHaveLength(0);
  expect(fakes.llm.requests.length).toBeGreaterThan(0);
  expect(fakes.tts.requests.length).toBeGreaterThan(0);
});
