// German by voice (issue 17), in Chromium whose microphone plays a German visitor (espeak-ng's
// German voice). A clinic that speaks German alone (the clinic example as a practice in Munich
// would run it) is finished by voice with the built-in assistant: every line understood, every
// reply in German, the check-in made, and no English of the kiosk's own on any screen. And an
// English visit asked by voice to go on in German: the model's set_language switches the screen,
// recognition and the kiosk's voice (TTS_VOICE_DE) at once, with the name still to come.
// Recognition (streamed), the model and the voice are the local OpenAI doubles.

import { readFileSync } from 'node:fs';
import { messageText } from '../servers/fake-chat-request.ts';
import type { ChatRule } from '../servers/openai-fakes.ts';
import { startClinicService } from '../servers/clinic-service.ts';
import { inOneLanguage } from '../support/one-language.ts';
import { transcriptsFor } from '../support/voice-kiosk.ts';
import { expectStep, expectVisitorSaid, fieldBlock, kiosk, kioskSays, lastSaid } from './support/kiosk.ts';
import { expectNoEnglish } from './support/no-english.ts';
import { expect, test, expectVoiceOn } from './support/voice.ts';

// Six lines said when the kiosk listens, each after its German reply has been spoken.
test.describe.configure({ timeout: 90_000 });

/** The clinic example in German alone. */
const PRAXIS = inOneLanguage(readFileSync(new URL('../../flows/clinic-checkin.yaml', import.meta.url), 'utf8'), 'de-DE');

/** The voice the speech service speaks German in (TTS_VOICE_DE), beside the default TTS_VOICE. */
const GERMAN_VOICE = 'test-voice-de';


let closeClinic: (() => Promise<void>) | null = null;
test.afterEach(async () => {
  await closeClinic?.();
  closeClinic = null;
});

test('a clinic in German alone is finished by voice with the built-in assistant, and shows no English', async ({ voiceKiosk }) => {
  const clinic = await startClinicService();
  closeClinic = () => clinic.close();
  const env = {
    ACTION_ORIGIN_CLINIC: clinic.url,
    ACTION_SECRET_CLINIC_TOKEN: 'voice-german-token',
    ACTION_SECRET_CLINIC_TOKEN_ORIGINS: clinic.url,
    STT_MODE: 'realtime',
    TTS_VOICE_DE: GERMAN_VOICE,
  };
  const { page, fakes, fixture, say } = await voiceKiosk({
    fixture: 'clinic-de',
    services: { llm: false },
    serverFlows: { 'praxis.yaml': PRAXIS },
    query: { flow: '/praxis.yaml' },
    env,
  });
  const heard = [
    'Ich heiße Maria Huber.',
    'Ich bin am 5. März 1984 geboren.',
    'Ja.',
    'Ich brauche ein Rezept.',
    'Anmelden, bitte.',
    'Ja.',
  ];
  fakes.stt.script(transcriptsFor(fixture, heard));
  // Short clips: the built-in assistant's replies are said quickly, so the kiosk listens again soon.
  fakes.tts.msPerChar = 4;

  await kioskSays(page, 'data-phase', 'idle');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await expect(page.getByRole('heading', { name: 'Anmeldung in der Praxis' })).toBeVisible();
  await expectNoEnglish(page, 'de', 'idle');
  await page.getByRole('button', { name: 'Starten', exact: true }).click();
  await expectStep(page, 'identify');
  await expectVoiceOn(page, /listening|speaking|thinking/);
  await expect(lastSaid(page)).toHaveText(
    'Willkommen in der Riverside Family Clinic. Bitte nennen Sie mir Ihren Namen und Ihr Geburtsdatum, oder tippen Sie beides ein. Wie lautet Ihr Vor- und Nachname?',
  );
  await expectNoEnglish(page, 'de', 'name and date of birth');

  await say(0);
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await expect(page.getByRole('textbox', { name: 'Vor- und Nachname', exact: true })).toHaveValue('Maria Huber');
  await expect(lastSaid(page)).toHaveText('Ich habe Maria Huber verstanden. Stimmt das?');

  await say(1);
  await expect(fieldBlock(page, 'date_of_birth')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await expect(lastSaid(page)).toHaveText('Ich habe Maria Huber, geboren am 5. März 1984. Stimmt das?');
  await expect(page.getByRole('button', { name: 'Alle 2 Antworten bestätigen' })).toBeVisible();
  await expectNoEnglish(page, 'de', 'two values waiting');

  await say(2);
  await expectStep(page, 'reason');
  await expect(page.getByRole('heading', { name: 'Danke, Maria Huber. Weshalb kommen Sie heute zu uns?' })).toBeVisible();
  await expect(lastSaid(page)).toHaveText('Danke, Maria Huber. Weshalb kommen Sie heute zu uns? Bitte wählen Sie: Termin, Ohne Termin oder Rezept abholen.');
  await expectNoEnglish(page, 'de', 'reason');

  await say(3);
  await expectStep(page, 'summary');
  const main = page.getByRole('main');
  await expect(main.getByText('Geburtsdatum: 5. März 1984')).toBeVisible();
  await expect(main.getByText('Anliegen: Rezept abholen')).toBeVisible();

  // "Anmelden, bitte": the check-in button's label, said; proposed, and waiting for a yes.
  await say(4);
  await expect(page.getByRole('region', { name: 'Bitte bestätigen' })).toContainText('Maria Huber anmelden für: Rezept abholen', { timeout: 15_000 });
  await expect(lastSaid(page)).toHaveText('Maria Huber anmelden für: Rezept abholen. Soll ich fortfahren?');
  await expectNoEnglish(page, 'de', 'check-in waiting for a yes');

  await say(5);
  await expectStep(page, 'checked_in');
  await expect(page.getByRole('heading', { name: 'Sie sind angemeldet, Maria Huber' })).toBeVisible();
  await expect(main.getByText(/^Ihre Nummer ist die \d+\. Bitte nehmen Sie Platz; wir rufen Sie bald auf\.$/)).toBeVisible();
  await expectNoEnglish(page, 'de', 'checked in');
  await page.getByRole('button', { name: 'Fertig', exact: true }).click();
  await kioskSays(page, 'data-phase', 'ended');
  // The queue number to take away, and none of the patient's details (issue 31).
  const told = page.getByRole('region', { name: 'Bitte merken Sie sich' });
  await expect(told.locator('dt')).toHaveText(['Wartenummer']);
  await expect(told.locator('dd')).toHaveText([/^\d+$/]);
  await expect(page.locator('main')).not.toContainText('Maria Huber');
  await expectNoEnglish(page, 'de', 'end');

  expect(clinic.checkIns).toEqual([expect.objectContaining({ name: 'Maria Huber', dob: '1984-03-05', reason: 'prescription' })]);
  await expectVisitorSaid(page, heard.map((line) => `Sie: ${line}`));
  // Heard in German, every word by the stream; spoken in German, in the German voice.
  expect(fakes.realtime.heard.map((c) => c.transcript).filter(Boolean)).toEqual(heard);
  expect(new Set(fakes.realtime.sessions.map((s) => s.language))).toEqual(new Set(['de']));
  expect(fakes.tts.requests.length).toBeGreaterThan(5);
  expect(new Set(fakes.tts.requests.map((r) => r.voice))).toEqual(new Set([GERMAN_VOICE]));
  expect(fakes.tts.requests.map((r) => r.input)).toContain('Ich habe Maria Huber verstanden.');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
});

/**
 * A model for onboarding that switches to German when asked and then speaks German, as a model told
 * "The visitor speaks German" does; each rule tells the state by the words of its prompt.
 */
const SWITCHING_MODEL: ChatRule[] = [
  { when: { user: /Deutsch/, last: 'user' }, reply: { tool_calls: [{ name: 'set_language', arguments: { language: 'de-DE' } }] } },
  { when: { user: /Deutsch/ }, reply: { text: 'Gern. Wie ist Ihr Vorname?' } },
  { when: { user: /Jonas/, last: 'user' }, reply: { tool_calls: [{ name: 'save_name', arguments: { first_name: 'Jonas' } }] } },
  { when: { user: /Jonas/ }, reply: { text: 'Ich habe Jonas verstanden. Stimmt das?' } },
  { when: { user: /^ja/i, system: /first name/i }, reply: { text: 'Danke!', tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
  { when: { user: /Blau/, system: /pick a colour/i, last: 'user' }, reply: { tool_calls: [{ name: 'save_color', arguments: { color: 'blue' } }] } },
  { when: { system: /pick a colour/i }, reply: { text: 'Welche Farbe mögen Sie: Rot, Grün, Blau oder Gelb?' } },
  { when: { last: 'system' }, reply: { text: 'Welcome! What is your first name?' } },
];

test('"Können wir Deutsch sprechen?" said in an English visit: the model switches to German, and so do the screen, recognition and the voice', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, say } = await voiceKiosk({
    fixture: 'onboarding-de',
    query: { flow: 'onboarding' },
    env: { STT_MODE: 'realtime', TTS_VOICE_DE: GERMAN_VOICE },
  });
  const heard = ['Können wir Deutsch sprechen?', 'Ich heiße Jonas.', 'Ja.', 'Blau, bitte.'];
  fakes.stt.script(transcriptsFor(fixture, heard));
  fakes.llm.script(SWITCHING_MODEL);
  fakes.tts.msPerChar = 4;

  await kioskSays(page, 'data-phase', 'idle');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectStep(page, 'ask_name');
  await expectVoiceOn(page, /listening|speaking|thinking/);
  await expect(lastSaid(page)).toHaveText('Welcome! What is your first name?');

  await say(0);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE', { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Willkommen!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sprache: Deutsch' })).toBeVisible();
  await expect(lastSaid(page)).toHaveText('Gern. Wie ist Ihr Vorname?');

  await say(1);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending', { timeout: 15_000 });
  await expect(page.getByRole('textbox', { name: 'Wie ist Ihr Vorname?' })).toHaveValue('Jonas');
  await expect(page.getByRole('button', { name: 'Wie ist Ihr Vorname? bestätigen' })).toBeVisible();

  await say(2);
  await expectStep(page, 'choose_color');
  await expect(page.getByRole('heading', { name: 'Schön, Sie kennenzulernen, Jonas! Wählen Sie eine Farbe.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Blau', exact: true })).toBeVisible();

  await say(3);
  await kioskSays(page, 'data-phase', 'ended', 15_000);
  // Onboarding keeps nothing to take away: the end screen shows none of the answers (issue 31).
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText('Jonas');
  await expectVisitorSaid(page, heard.map((line) => `Sie: ${line}`));

  // The first line was heard in English; every line after the switch in German. A line may be
  // looked at at its pauses ("Können wir" before "Deutsch sprechen?"); the visitor going on sends
  // it again whole, so each line is one stretch heard, on one socket in one language.
  const said = fakes.realtime.heard.filter((c) => c.transcript);
  expect(said.map((c) => c.transcript)).toEqual(heard);
  expect(said.map((c) => fakes.realtime.sessions[c.session]?.language)).toEqual(said.map((_, i) => (i === 0 ? 'en' : 'de')));
  // The English greeting in the default voice, the German lines in the German one.
  const voiceOf = (text: string) => fakes.tts.requests.find((r) => r.input.startsWith(text))?.voice;
  expect(voiceOf('Welcome!')).toBe('test-voice');
  expect(voiceOf('Gern.')).toBe(GERMAN_VOICE);
  expect(voiceOf('Welche Farbe mögen Sie')).toBe(GERMAN_VOICE);
  // The model was told the visitor speaks German, and offered the flow's languages to switch to.
  const afterSwitch = fakes.llm.requests.find((r) => r.messages.some((m) => m.role === 'user' && messageText(m) === 'Ich heiße Jonas.'))!;
  expect(afterSwitch.messages.filter((m) => m.role === 'system').map(messageText).join('\n')).toContain('The visitor speaks German (de-DE).');
  const setLanguage = afterSwitch.tools?.find((t) => t.function.name === 'set_language');
  expect(setLanguage?.function.parameters).toMatchObject({ properties: { language: { enum: ['en-US', 'de-DE', 'fr-FR', 'es-ES'] } } });
});
