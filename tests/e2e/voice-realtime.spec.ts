// Streaming speech recognition in Chromium (STT_MODE=realtime): the kiosk sends the visitor's
// audio to its server's relay while they speak, commits once per turn, shows the words as they
// come, never commits a noise, and when the socket drops the turn goes by upload
// with no word lost. The relay holds the key: nothing the page sends or receives carries it.
// Speech is espeak-ng's and, once, a recorded person's, pauses, breaths and all.
// The first visit is also the kiosk's own HTTPS (TLS_CERT, TLS_KEY) as a tablet on a clinic's
// network meets it: Chromium trusts a local certificate authority (made by
// scripts/make-certificate.sh, installed in the browser's NSS database as an operator installs it
// on a tablet; no certificate error ignored) and reaches the server as https://kiosk.test, another
// machine's name; the device is paired through its pairing screen (the credential a __Host-
// cookie), the page is a secure context, the service worker takes control, and the speech is
// streamed over wss, the model and the voice reached through the kiosk's /api/.

import { rmSync } from 'node:fs';
import { Pairing } from '../../server/pairing.ts';
import { homeTrusting, testCertificates, type TestCertificates } from '../support/test-certificates.ts';
import { transcriptsFor, transcriptsForParts, TEST_KEYS } from '../support/voice-kiosk.ts';
import { expectStep, expectVisitorSaid, fieldBlock, kiosk, serviceWorkerControls, visitorSaid } from './support/kiosk.ts';
import { PHONE_FLOW } from './support/flows.ts';
import { expect, test } from './support/voice.ts';

test.describe.configure({ timeout: 60_000 });

/** What the interim caption check reads in the page (the Node typings have no DOM). */
interface InterimPage {
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

const REALTIME = { STT_MODE: 'realtime' };
/**
 * Streaming without the early start: no reply is asked for at a pause; a pause still commits the
 * words so far (turn-taking reads them), and the visitor going on sends the turn again whole, so
 * each line is one stretch heard (`fakes.realtime.heard`), whatever looks it took.
 */
const ONE_STRETCH = { STT_MODE: 'realtime', LLM_EARLY_START: 'off' };

let certs: TestCertificates | undefined;
let home: string | undefined;
test.afterAll(() => {
  for (const dir of [certs?.dir, home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test('onboarding streamed over HTTPS from another machine, paired: audio goes out while the visitor speaks over wss, one stretch heard a turn, words shown as they come', async ({ voiceKiosk }) => {
  // Pairing, the service worker's install and a visit: a busy machine stretches it past 60 s.
  test.setTimeout(90_000);
  certs = testCertificates(['kiosk.test']);
  home = homeTrusting(certs.caPath);
  const { page, fakes, fixture, say, marks, memory } = await voiceKiosk({
    fixture: 'onboarding',
    serviceWorkers: 'allow',
    query: { flow: 'onboarding' },
    env: { ...ONE_STRETCH, ALLOWED_HOSTS: 'kiosk.test' },
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
  const frames: string[] = [];
  page.on('websocket', (ws) => {
    sockets.push(ws.url());
    ws.on('framesent', (f) => frames.push(String(f.payload)));
    ws.on('framereceived', (f) => frames.push(String(f.payload)));
  });
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
  // The words come a little at a time after each commit, so the greyed caption can be seen.
  fakes.realtime.latency({ deltaSpacingMs: 150 });
  fakes.llm.script([
    { when: { user: /^yes/i, system: /first name/i }, reply: { text: 'Thank you!', tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
    { when: { system: /pick a colour/i }, reply: { text: 'Which colour do you like?' } },
    { when: { last: 'system' }, reply: { text: 'Welcome! What is your first name?' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();

  // Watched on every frame from before the line is said: the greyed words are up for a moment only.
  const interim = page.waitForFunction(() => (globalThis as unknown as InterimPage).document.querySelector('.captions li.interim')?.textContent?.includes('My name'), null, {
    polling: 'raf',
    timeout: 20_000,
  });
  await say(0);
  await interim;
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await say(1);
  await expectStep(page, 'choose_color');
  await say(2);
  await expect(page.locator('.kiosk')).toHaveAttribute('data-phase', 'ended', { timeout: 15_000 });
  await expectVisitorSaid(page, ['You: My name is Alex.', 'You: Yes.', 'You: Blue, please.']);

  // One stretch heard per turn (its looks at pauses replaced by the whole turn sent again), each
  // holding the line's speech, its first audio sent well before the commit: while the visitor was
  // still in the first half of the line (a turn sent whole goes at its commit; a page slowed by a
  // busy machine starts streaming a few hundred ms late, which says nothing of the streaming), in
  // the flow's language, on the server's model.
  const lines = fixture!.lines.filter((l) => l.kind === 'speech');
  const heard = fakes.realtime.heard;
  expect(heard).toHaveLength(3);
  heard.forEach((c, i) => {
    const lineMs = lines[i]!.endMs - lines[i]!.startMs;
    expect(c.speechMs).toBeGreaterThan(lineMs - 250);
    expect(c.streamedBeforeCommitMs).toBeGreaterThan(lineMs / 2);
  });
  expect(fakes.realtime.sessions[0]).toMatchObject({ model: 'test-whisper', language: 'en', authorization: `Bearer ${TEST_KEYS.stt}` });
  // No turn went by upload, and the key is in nothing the page sent or received.
  expect(fakes.stt.requests).toHaveLength(0);
  expect(frames.length).toBeGreaterThan(10);
  expect(frames.some((f) => f.includes(TEST_KEYS.stt))).toBe(false);
  expect(frames.filter((f) => f.includes('"input_audio_buffer.commit"'))).toHaveLength(fakes.realtime.commits.length);
  expect((await marks())['vk:speech-end']).toHaveLength(3);
  // Each turn streamed over the kiosk's own wss socket; the model and the voice answered through /api/.
  expect(sockets.length).toBeGreaterThan(0);
  expect(sockets.every((url) => /^wss:\/\/kiosk\.test:\d+\/api\/stt\/realtime\?/.test(url))).toBe(true);
  expect(fakes.llm.requests.length).toBeGreaterThan(0);
  expect(fakes.tts.requests.length).toBeGreaterThan(0);
});

test('noise bursts are never committed: the words after them are the only stretch heard', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, microphone, say } = await voiceKiosk({ fixture: 'noise', query: { flow: 'onboarding' }, env: ONE_STRETCH });
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.']));
  fakes.llm.script([{ when: { last: 'system' }, reply: { text: 'Hello! What is your first name?' } }]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  const [first, second] = fixture!.lines;
  await say(0);
  await microphone!.playSpan(first!.endMs, second!.endMs + 150);
  await microphone!.play(2);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 20_000 });
  // (a burst the detector takes for an onset is sent, then cleared: voice-session-stream.test.ts)
  expect(fakes.realtime.heard.map((c) => c.transcript)).toEqual(['My name is Alex.']);
  await expectVisitorSaid(page, ['You: My name is Alex.']);
});

test('the socket drops mid-turn: the stretch goes by upload with its kept audio, no word is lost, and the next turn streams again', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say } = await voiceKiosk({ fixture: 'onboarding', query: { flow: 'onboarding' }, env: ONE_STRETCH });
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
  fakes.llm.script([
    { when: { user: /^yes/i, system: /first name/i }, reply: { tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
    { when: { last: 'system' }, reply: { text: 'Welcome! What is your first name?' } },
  ]);
  fakes.realtime.drop('commit');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(0);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 20_000 });
  // The first turn's first commit cut the socket (a look at a pause, or the turn's end), so the
  // audio it held was uploaded; after a look, the turn sent again whole went over a new socket.
  // Either way the turn's words are whole.
  expect(fakes.stt.requests.length).toBeGreaterThanOrEqual(1);
  expect(fakes.stt.requests[0]!.speechMs).toBeGreaterThan(0);
  await expectVisitorSaid(page, ['You: My name is Alex.']);
  await say(1);
  await expectStep(page, 'choose_color');
  // The second turn streamed over a new socket.
  expect(fakes.realtime.sessions.length).toBeGreaterThanOrEqual(2);
  expect(fakes.realtime.heard.at(-1)!.transcript).toBe('Yes.');
  await expectVisitorSaid(page, ['You: My name is Alex.', 'You: Yes.']);
});

const LONG_ANSWER_FLOW = `
id: long_answer
title: Tell us more
states:
  ask_reason:
    turn_taking: { end_silence_ms: 1500 }
    ui:
      artifact_type: form
      title: What brings you here?
      fields: [ { id: reason, type: text, label: Your reason, required: true } ]
    agent:
      prompt: Listen to the visitor's reason and call save_reason with it.
      tools: [save_reason]
    tools:
      save_reason:
        description: Capture the reason.
        parameters:
          reason: { type: string, required: true }
    transitions:
      on_tool_call: { save_reason: __end__ }
      on_ui_event: { form_submit: __end__ }
`;

test("a person's recorded voice, with second-long pauses inside, is streamed as it is spoken and heard as one answer", async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say } = await voiceKiosk({ fixture: 'human', flows: { '/test-flows/long.yaml': LONG_ANSWER_FLOW }, query: { flow: '/test-flows/long.yaml' }, env: ONE_STRETCH });
  const [line] = fixture!.lines;
  const said = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
  fakes.stt.script(transcriptsFor(fixture, [said]));
  fakes.llm.script([
    { when: { last: 'user' }, reply: { text: 'Thank you.', tool_calls: [{ name: 'save_reason', arguments: { reason: 'civic duty' } }] } },
    { when: { last: 'system' }, reply: { text: 'What brings you here?' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(0);
  await expect(page.locator('.kiosk')).toHaveAttribute('data-phase', 'ended', { timeout: 20_000 });
  // Its words were shown as they came; the answer ended the visit, which takes the captions away,
  // so what was last shown may be the words so far.
  const shown = (await visitorSaid(page)) ?? [];
  expect(shown).toHaveLength(1);
  expect(`You: ${said}`.startsWith(shown[0]!)).toBe(true);
  // Looked at at its pauses (their words keep the turn open), then sent again whole each time the
  // speaker went on: heard as one stretch holding the line's speech, which went out while it was
  // spoken.
  const [heard, ...more] = fakes.realtime.heard.filter((c) => c.transcript);
  expect(more).toEqual([]);
  expect(heard!.transcript).toBe(said);
  expect(heard!.looks).toBeGreaterThan(0);
  expect(heard!.streamedBeforeCommitMs).toBeGreaterThan(500);
  expect(heard!.speechMs).toBeGreaterThan(line!.endMs - line!.startMs - 1000);
});


test('early start: a number dictated with a pause is looked at there and heard as one answer; a reply prepared for part of it is dropped unused', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say, marks } = await voiceKiosk({ fixture: 'digits-pause', flows: { '/test-flows/phone.yaml': PHONE_FLOW }, query: { flow: '/test-flows/phone.yaml' }, env: REALTIME });
  // The words before the 0.4 s pause for a look at them; the whole number for the turn sent again.
  fakes.stt.script(transcriptsForParts(fixture, [['My number is 07700', '983123.']]));
  // The model is slow enough that the reply prepared at the pause is still being written when the visitor goes on.
  fakes.llm.script([
    { when: { user: /07700$/ }, reply: { tool_calls: [{ name: 'save_phone', arguments: { phone: '07700' } }] }, delayMs: 2000 },
    { when: { user: /983123/ }, reply: { tool_calls: [{ name: 'save_phone', arguments: { phone: '07700 983123' } }] } },
    { when: { last: 'system' }, reply: { text: 'What is your phone number?' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(0);
  await expect(page.locator('.kiosk')).toHaveAttribute('data-phase', 'ended', { timeout: 20_000 });

  // Looked at at its pause, then sent again whole: one stretch heard, the number whole.
  const stretches = fakes.realtime.heard.filter((c) => c.transcript);
  expect(stretches.map((c) => c.looks > 0)).toEqual([true]);
  const heard = stretches[0]!.transcript;
  expect(heard).toBe('My number is 07700 983123.');
  await expectVisitorSaid(page, [`You: ${heard}`]);
  // Every reply asked for at a pause was either dropped (the visitor went on) or taken by the
  // finished turn with the very same words; none asked for the partial number was taken, which
  // the end screen shows: the number is whole.
  const m = await marks();
  const [asked, taken, dropped] = ['asked', 'taken', 'dropped'].map((k) => m[`vk:early-reply-${k}`]?.length ?? 0);
  expect(taken! + dropped!).toBe(asked);
  expect(taken).toBeLessThanOrEqual(1);
  const partial = fakes.llm.requests.filter((r) => JSON.stringify(r.messages.at(-1)).includes('My number is 07700"')).length;
  expect(partial).toBeLessThanOrEqual(dropped!);
  await expect(page.getByRole('region', { name: 'Please remember' }).locator('dd')).toHaveText(['07700 983123']);
});
