// The clinic check-in by voice alone, in Chromium whose microphone plays a patient (espeak-ng):
// the name and the date of birth show as pending as soon as they are heard, one "yes" confirms
// both, the reason is spoken, checking in is proposed and waits on a card until the patient's
// spoken "yes", the local clinic service records the check-in once, and the last step ends on its
// own. Recognition (streamed: STT_MODE=realtime), the model and the voice are the local OpenAI doubles behind the kiosk's own
// server.

import type { ChatRequestBody } from '../servers/fake-chat-request.ts';
import type { ChatRule } from '../servers/openai-fakes.ts';
import { startClinicService } from '../servers/clinic-service.ts';
import { transcriptsFor } from '../support/voice-kiosk.ts';
import { agentLines, expectVisitorSaid, fieldBlock, input, kiosk } from './support/kiosk.ts';
import { expect, test, expectVoiceOn } from './support/voice.ts';

// Six lines of speech, each said when the kiosk listens, then the checks.
test.describe.configure({ timeout: 90_000 });

/** Each state's own words in the system prompt (its `agent.prompt`), to tell the model's requests apart. */
const PROMPT = {
  identify: /patient's full name and date of birth/,
  reason: /are a walk-in, or are collecting a prescription/,
  summary: /call check_in/,
  checked_in: /they are checked in and may take a seat/,
} as const;

type ClinicState = keyof typeof PROMPT;

/** Which state a model request came from, by its system prompt. */
function stateOf(request: ChatRequestBody): ClinicState | 'unknown' {
  const first = request.messages[0];
  const system = first?.role === 'system' && typeof first.content === 'string' ? first.content : '';
  return (Object.keys(PROMPT) as ClinicState[]).find((s) => PROMPT[s].test(system)) ?? 'unknown';
}

/**
 * A good model for this flow. In each state it calls the state's tools as the conversation test
 * does (tests/conversations/clinic-voice.test.yaml) and answers in one short sentence, so that the
 * kiosk has stopped speaking before the patient's next line. A tool round (`last: 'tool'`)
 * follows every call that leaves the flow in its state with something still to ask; once the
 * form is filled, the kiosk asks the gate's own question instead (the engine knows it), and calls
 * that move the flow on are followed by the next state's own turn.
 */
const GOOD_MODEL: ChatRule[] = [
  // identify: save each value as it is heard (the kiosk reads both back itself), confirm on "yes".
  { when: { system: PROMPT.identify, user: /my name is/i, last: 'user' }, reply: { tool_calls: [{ name: 'save_name', arguments: { full_name: 'Maria Garcia' } }] } },
  { when: { system: PROMPT.identify, user: /my name is/i, last: 'tool' }, reply: { text: 'Thank you. And your date of birth?' } },
  { when: { system: PROMPT.identify, user: /born/i, last: 'user' }, reply: { tool_calls: [{ name: 'save_date_of_birth', arguments: { date_of_birth: '1984-03-05' } }] } },
  { when: { system: PROMPT.identify, user: /^yes\W*$/i, last: 'user' }, reply: { tool_calls: [{ name: 'confirm_identify', arguments: {} }] } },
  { when: { system: PROMPT.identify }, reply: { text: 'Welcome. Your name and date of birth, please?' } },
  // reason: ask, then save what was said (the flow goes on to the summary).
  { when: { system: PROMPT.reason, user: /prescription/i, last: 'user' }, reply: { tool_calls: [{ name: 'save_reason', arguments: { visit_reason: 'prescription' } }] } },
  { when: { system: PROMPT.reason }, reply: { text: 'Thank you, Maria. What brings you in today?' } },
  // summary: propose check_in when asked, confirm it only on the patient's next "yes".
  { when: { system: PROMPT.summary, user: /check me in/i, last: 'user' }, reply: { tool_calls: [{ name: 'check_in', arguments: {} }] } },
  { when: { system: PROMPT.summary, user: /check me in/i, last: 'tool' }, reply: { text: 'Shall I check you in now?' } },
  { when: { system: PROMPT.summary, user: /^yes\W*$/i, last: 'user' }, reply: { tool_calls: [{ name: 'confirm_action', arguments: {} }] } },
  { when: { system: PROMPT.summary }, reply: { text: 'Your details are on screen. Check you in?' } },
  // checked_in: one sentence, no tools.
  { when: { system: PROMPT.checked_in }, reply: { text: 'You are checked in. Please take a seat.' } },
];

/** What a recogniser such as Whisper writes for the fixture's six lines. */
const HEARD = [
  'My name is Maria Garcia.',
  'I was born on the 5th of March 1984.',
  'Yes.',
  'I am here to collect a prescription.',
  'Yes, please check me in.',
  'Yes.',
];

let closeClinic: (() => Promise<void>) | null = null;
test.afterEach(async () => {
  await closeClinic?.();
  closeClinic = null;
});

test('a patient checks in at the clinic by voice alone', async ({ voiceKiosk }) => {
  const clinic = await startClinicService();
  closeClinic = () => clinic.close();
  const env = { ACTION_ORIGIN_CLINIC: clinic.url, ACTION_SECRET_CLINIC_TOKEN: 'voice-clinic-token', ACTION_SECRET_CLINIC_TOKEN_ORIGINS: clinic.url };
  // The page's clock is Playwright's, so that the last step's 20 s timeout comes when the test says.
  const { page, fakes, fixture, say } = await voiceKiosk({ fixture: 'clinic', query: { flow: 'clinic-checkin' }, env: { ...env, STT_MODE: 'realtime' }, prepare: (p) => p.clock.install() });
  fakes.stt.script(transcriptsFor(fixture, HEARD));
  fakes.llm.script(GOOD_MODEL);
  const step = (state: string) => expect(kiosk(page)).toHaveAttribute('data-flow-state', state, { timeout: 15_000 });

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await step('identify');
  await expectVoiceOn(page, /listening|speaking|thinking/);

  // "My name is Maria Garcia": the name shows at once, pending; the date is still to come.
  await say(0);
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await expect(input(page, 'Full name')).toHaveValue('Maria Garcia');
  await expect(fieldBlock(page, 'date_of_birth')).toHaveAttribute('data-status', 'empty');

  // "I was born on the fifth of March 1984": pending too, and the kiosk reads both back in the
  // gate's own words, without another round of the model.
  await say(1);
  await expect(fieldBlock(page, 'date_of_birth')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await expect(input(page, 'Date of birth')).toHaveValue('1984-03-05');
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending');
  await expect(agentLines(page).last()).toHaveText('Kiosk: I have Maria Garcia, born March 5, 1984. Is that right?');

  // "yes": both confirmed by the model's confirm_identify, and the flow asks why they came.
  await say(2);
  await step('reason');
  await expect(page.getByRole('heading', { name: 'Thank you, Maria Garcia. What brings you in today?' })).toBeVisible();

  // "I am here to collect a prescription": straight on to the summary card.
  await say(3);
  await step('summary');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Please check your details' })).toBeVisible();
  await expect(main.getByText('Name: Maria Garcia')).toBeVisible();
  await expect(main.getByText('Date of birth: March 5, 1984')).toBeVisible();
  await expect(main.getByText('Visit: Prescription collection')).toBeVisible();

  // "yes please check me in": proposed, not done; it waits on a card for one more yes.
  await say(4);
  const pending = page.getByRole('region', { name: 'Please confirm' });
  await expect(pending).toContainText('Check in Maria Garcia for: Prescription collection', { timeout: 15_000 });
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'summary');
  await expect(agentLines(page).last()).toHaveText('Kiosk: Shall I check you in now?');

  // "yes": the check-in runs, and the card goes.
  await say(5);
  await step('checked_in');
  await expect(pending).toHaveCount(0);
  await expect(page.getByRole('heading', { name: "You're checked in, Maria Garcia" })).toBeVisible();

  // No one taps Done: the step ends by its own 20 s timeout, not before.
  await page.clock.runFor(18_000);
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'checked_in');
  await page.clock.runFor(3_000);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  // The end screen shows the queue number the patient takes away, and none of their details.
  const summary = page.getByRole('region', { name: 'Please remember' });
  await expect(summary.locator('dt')).toHaveText(['Queue number']);
  await expect(summary.locator('dd')).toHaveText(['1']);
  await expect(page.locator('body')).not.toContainText('Maria Garcia');
  expect(clinic.checkIns).toEqual([expect.objectContaining({ name: 'Maria Garcia', dob: '1984-03-05', reason: 'prescription' })]);
  await expectVisitorSaid(page, HEARD.map((line) => `You: ${line}`));

  // Streamed recognition (STT_MODE=realtime, with the early start): every word came by the stream,
  // in the flow's language, none uploaded. A line may be looked at at its pauses; the visitor going
  // on sends it again whole, so each line's words are one stretch heard.
  expect(fakes.realtime.heard.map((c) => c.transcript).filter(Boolean)).toEqual(HEARD);
  expect(fakes.realtime.sessions.map((s) => [s.language, s.model])).toContainEqual(['en', 'test-whisper']);
  expect(fakes.stt.requests).toHaveLength(0);
  // The model was asked in each state in turn, with that state's tools and nothing else.
  const asked = fakes.llm.requests.map((r) => ({ state: stateOf(r), tools: (r.tools ?? []).map((t) => t.function.name) }));
  expect(asked.map((a) => a.state).filter((s, i, all) => s !== all[i - 1])).toEqual(['identify', 'reason', 'summary', 'checked_in']);
  const toolsIn = (state: ClinicState) => [...new Set(asked.filter((a) => a.state === state).map((a) => a.tools.join(' ')))];
  expect(toolsIn('identify')).toEqual([
    'save_name save_date_of_birth confirm_full_name reject_full_name confirm_date_of_birth reject_date_of_birth confirm_identify reject_identify set_language',
  ]);
  // set_language in every step that goes on: the clinic speaks English, German and Spanish.
  expect(toolsIn('reason')).toEqual(['save_reason set_language']);
  // check_in is left out while its action is being sent (issue 30 point 2): a turn asked then
  // (the early start at a pause of the patient's "yes") has the rest.
  const [summaryTools, ...whileSending] = toolsIn('summary');
  // go_back: the summary's Change buttons, said ("no wait, my date of birth is wrong").
  expect(summaryTools).toBe('check_in confirm_action reject_action go_back set_language');
  for (const tools of whileSending) expect(tools).toBe('confirm_action reject_action go_back set_language');
  expect(toolsIn('checked_in')).toEqual(['set_language']);
  // The kiosk spoke through the speech service.
  expect(fakes.tts.requests.map((r) => r.input)).toContain('Shall I check you in now?');
});
