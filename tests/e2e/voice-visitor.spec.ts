// The visitor sign-in by voice alone, in Chromium whose microphone plays a visitor (espeak-ng):
// the name (heard by the model) and the email (caught by the flow's own pattern) show as pending,
// the flow's confirm phrase "yes" opens the gate without the model, a host named by voice is
// matched by the model, the rules are accepted by the flow's own pattern, and the badge step
// ends on its own. Recognition, the model and the voice are the local OpenAI doubles behind the
// kiosk's own server.

import type { ChatRequestBody } from '../servers/fake-chat-request.ts';
import { messageText } from '../servers/fake-chat-request.ts';
import type { ChatRule } from '../servers/openai-fakes.ts';
import { transcriptsFor } from '../support/voice-kiosk.ts';
import { showingAnswers } from './support/flows.ts';
import { agentLines, expectVisitorSaid, fieldBlock, input, kiosk } from './support/kiosk.ts';
import { expect, test, expectVoiceOn } from './support/voice.ts';

// About 33 s of speech, then the 20 s timeout of `badge`, then the checks.
test.describe.configure({ timeout: 90_000 });

/** Each state's own words in the system prompt (its `agent.prompt`), to tell the model's requests apart. */
const PROMPT = {
  details: /visitor's name and email address/,
  host: /Ask who they are here to see/,
  host_by_name: /The visitor named Tom\b/,
  rules: /Summarise the site rules/,
  badge: /knows they are here and to take their badge/,
} as const;

type VisitorState = keyof typeof PROMPT;

/** Which state a model request came from, by its system prompt. */
function stateOf(request: ChatRequestBody): VisitorState | 'unknown' {
  const first = request.messages[0];
  const system = first?.role === 'system' ? messageText(first) : '';
  return (Object.keys(PROMPT) as VisitorState[]).find((s) => PROMPT[s].test(system)) ?? 'unknown';
}

/**
 * A good model for this flow, calling the tools the conversation test does
 * (tests/conversations/visitor-voice.test.yaml) and answering in one short sentence. Three of the five
 * lines never reach it: the email matches the details step's `on_utterance` pattern, "yes" is one
 * of the gate's `confirm_phrases`, and "yes I agree" matches the rules step's pattern. "Tom
 * Becker" matches the host step's pattern, which goes to `host_by_name`, where the model is asked
 * to pick the full name.
 */
const GOOD_MODEL: ChatRule[] = [
  // details: save the name, then ask for the email (the flow's pattern takes it from there).
  { when: { system: PROMPT.details, user: /my name is/i, last: 'user' }, reply: { tool_calls: [{ name: 'save_name', arguments: { full_name: 'Sam Lee' } }] } },
  { when: { system: PROMPT.details, user: /my name is/i, last: 'tool' }, reply: { text: 'Thanks, Sam. And your email?' } },
  { when: { system: PROMPT.details }, reply: { text: 'Welcome! What is your name?' } },
  // host: ask; the visitor's answer is caught by the flow's pattern.
  { when: { system: PROMPT.host }, reply: { text: 'Who are you here to see?' } },
  // host_by_name: the full name for "Tom" (the flow goes on to the rules).
  { when: { system: PROMPT.host_by_name, last: 'user' }, reply: { tool_calls: [{ name: 'save_host', arguments: { host: 'Tom Becker' } }] } },
  // rules: one sentence and the question; the visitor's "yes I agree" is caught by the flow.
  { when: { system: PROMPT.rules }, reply: { text: 'Wear your badge and stay with Tom. Do you agree?' } },
  // badge: one sentence, no tools.
  { when: { system: PROMPT.badge }, reply: { text: 'Tom knows you are here. Your badge is in the tray.' } },
];

/** What a recogniser such as Whisper writes for the fixture's five lines (it writes a spoken email as an address). */
const HEARD = ['My name is Sam Lee.', 'My email is sam@example.com.', 'Yes.', 'Tom Becker.', 'Yes, I agree.'];

test('a visitor signs in at reception by voice alone', async ({ voiceKiosk }) => {
  // The page's clock is Playwright's, so that the badge step's 20 s timeout comes when the test says.
  // The sign-in with its answers shown at the end, for the test to read what was heard there.
  const flows = { '/test-flows/visitor-signin.yaml': showingAnswers('visitor-signin') };
  const { page, fakes, fixture, say } = await voiceKiosk({ fixture: 'visitor', flows, query: { flow: '/test-flows/visitor-signin.yaml' }, env: { STT_MODE: 'realtime' }, prepare: (p) => p.clock.install() });
  fakes.stt.script(transcriptsFor(fixture, HEARD));
  fakes.llm.script(GOOD_MODEL);
  const step = (state: string) => expect(kiosk(page)).toHaveAttribute('data-flow-state', state, { timeout: 15_000 });

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await step('details');
  await expectVoiceOn(page, /listening|speaking|thinking/);

  // "My name is Sam Lee": the model's save_name shows it at once, pending; no email yet.
  await say(0);
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await expect(input(page, 'Your name')).toHaveValue('Sam Lee');
  await expect(fieldBlock(page, 'email')).toHaveAttribute('data-status', 'empty');

  // "my email is sam at example dot com": caught by the flow's pattern, pending too, and the
  // kiosk asks the gate's own question.
  await say(1);
  await expect(fieldBlock(page, 'email')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await expect(input(page, 'Email address')).toHaveValue('sam@example.com');
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending');
  await expect(agentLines(page).last()).toHaveText('Kiosk: I have Sam Lee, email sam@example.com. Is that right?');

  // "yes": a confirm phrase of the gate; both values confirmed, on to the host.
  await say(2);
  await step('host');
  await expect(page.getByRole('heading', { name: 'Who are you visiting, Sam Lee?' })).toBeVisible();

  // "Tom Becker": named by voice, matched by the model, and the site rules follow.
  await say(3);
  await step('rules');
  await expect(page.getByRole('main').getByText('Stay with Tom Becker or a member of staff.')).toBeVisible();

  // "yes I agree": accepted by the flow's pattern; the badge.
  await say(4);
  await step('badge');
  await expect(page.getByRole('heading', { name: 'Welcome, Sam Lee' })).toBeVisible();
  await expect(page.getByRole('main').getByText('Tom Becker has been told you are here.')).toBeVisible();

  // No one taps Done: the step ends by its own 20 s timeout, not before.
  await page.clock.runFor(18_000);
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'badge');
  await page.clock.runFor(3_000);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  const summary = page.getByRole('region', { name: 'Please remember' });
  const told = async () => {
    const [names, values] = [await summary.locator('dt').allInnerTexts(), await summary.locator('dd').allInnerTexts()];
    return Object.fromEntries(names.map((n, i) => [n, values[i]]));
  };
  await expect(summary).toBeVisible();
  expect(await told()).toMatchObject({ Name: 'Sam Lee', 'Email address': 'sam@example.com', Visiting: 'Tom Becker', 'Agreed to the site rules': 'Yes' });
  await expectVisitorSaid(page, HEARD.map((line) => `You: ${line}`));

  // Streamed recognition (STT_MODE=realtime, with the early start): every word came by the stream,
  // in the flow's language, none uploaded. A line may be looked at at its pauses; the visitor going
  // on sends it again whole, so each line's words are one stretch heard.
  expect(fakes.realtime.heard.map((c) => c.transcript).filter(Boolean)).toEqual(HEARD);
  expect(fakes.realtime.sessions.map((s) => [s.language, s.model])).toContainEqual(['en', 'test-whisper']);
  expect(fakes.stt.requests).toHaveLength(0);
  // The model was asked only where the flow's own rules left the turn to it: at each step's
  // entry and for the name, never for the email, the "yes" or "yes I agree".
  const everyAsk = fakes.llm.requests.map((r) => {
    const lastUser = [...r.messages].reverse().find((m) => m.role === 'user');
    return [stateOf(r), lastUser ? messageText(lastUser) : null, (r.tools ?? []).map((t) => t.function.name).join(' ')];
  });
  // The early start may also ask at a pause inside a line ("My email is …", when the detector
  // takes a breath for one): the start of a line heard, never a turn of its own, for the visitor's
  // captions above are the whole lines. (The kiosk's vk:early-reply-* marks cannot say it here:
  // under the page's fake clock, page.clock.install(), performance.getEntriesByType gives nothing.)
  const early = everyAsk.filter(([, said]) => typeof said === 'string' && !HEARD.includes(said));
  for (const [, said] of early) expect(HEARD.some((line) => line.startsWith(said!)), `asked early with «${said}»`).toBe(true);
  const asked = everyAsk.filter((a) => !early.includes(a));
  // set_language in every step that goes on: the reception speaks five languages.
  const detailsTools = 'save_name save_email confirm_full_name reject_full_name confirm_email reject_email confirm_details reject_details set_language';
  expect(asked).toEqual([
    ['details', null, detailsTools],
    ['details', 'My name is Sam Lee.', detailsTools],
    ['details', 'My name is Sam Lee.', detailsTools],
    ['host', 'Yes.', 'save_host set_language'],
    ['host_by_name', 'Tom Becker.', 'save_host set_language'],
    ['rules', 'Tom Becker.', 'accept_rules decline_rules go_back set_language'],
    ['badge', 'Yes, I agree.', 'set_language'],
  ]);
  // The gate's question was spoken by the kiosk's voice.
  expect(fakes.tts.requests.map((r) => r.input)).toContain('I have Sam Lee, email sam@example.com.');
});
