// The built-in assistant in the visit's language, typed into the answer box (issue 17, points 3
// and 4): whole visits in German, French and Spanish finished by typing alone, each answer read
// in the visit's language and each reply in it with formal address; a visit that asks for another
// language by typing and gets it; Arabic's yes, no and choices, and its plain word that the screen
// works for the rest.

import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { serveFlow, TEST_FLOWS } from './support/flows.ts';
import { expectStep, kiosk, kioskSays, lastSaid, openKiosk } from './support/kiosk.ts';

const FILE = `${TEST_FLOWS}/reception.yaml`;
const RECEPTION = readFileSync(new URL('../fixtures/languages/reception.yaml', import.meta.url), 'utf8');


/** A visit of the five-language reception, started by the visitor's tap on a language. */
async function startIn(page: Page, language: string): Promise<void> {
  await serveFlow(page, FILE, RECEPTION);
  await openKiosk(page, { flow: FILE });
  await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: language, exact: true }).click();
  await kioskSays(page, 'data-phase', 'running');
}

/** Types into the answer box (named in the visit's language) and sends it; `last` when it ends the visit. */
async function type(page: Page, box: string, text: string, last = false): Promise<void> {
  const field = page.getByRole('textbox', { name: box, exact: true });
  await field.fill(text);
  await field.press('Enter');
  if (last) await kioskSays(page, 'data-phase', 'ended');
  else await expect(field).toHaveValue('');
}

/** One visit typed from start to end: what is typed and what the kiosk answers, then the summary. */
interface TypedVisit {
  language: string;
  box: string;
  greeting: string;
  exchanges: readonly (readonly [string, string])[];
  last: string;
  summary: string;
  told: readonly string[];
}

const VISITS: readonly TypedVisit[] = [
  {
    language: 'Deutsch',
    box: 'Geben Sie Ihre Antwort ein',
    greeting: 'Willkommen. Wie lautet Ihr vollständiger Name?',
    exchanges: [
      ['Ich heiße Anna Weber', 'Ich habe Anna Weber verstanden. Stimmt das?'],
      ['nein, Anna Becker', 'Ich habe Anna Becker verstanden. Stimmt das?'],
      ['ja', 'Danke, Anna Becker. Wie lautet Ihr Geburtsdatum?'],
      ['am fünften März 1984', 'Wie lautet Ihre Telefonnummer?'],
      ['null eins sieben sechs, eins zwei drei vier fünf sechs sieben', 'Danke. Ich habe notiert: Telefon 01761234567. Wie viele Personen?'],
      ['zwei', 'Warum sind Sie heute hier? Bitte wählen Sie: Eine Kontrolle, Befunde abholen oder Etwas anderes.'],
    ],
    last: 'nicht die Kontrolle, die Befunde',
    summary: 'Bitte merken Sie sich',
    told: ['Anna Becker', '5. März 1984', '01761234567', '2', 'Befunde abholen'],
  },
  {
    language: 'Français',
    box: 'Saisissez votre réponse',
    greeting: 'Bienvenue. Pouvez-vous m’indiquer votre nom complet\u202f?',
    exchanges: [
      ["je m'appelle Hélène Martin", 'J’ai compris Hélène Martin. Est-ce correct ?'],
      ["non, c'est Hélène Morel", 'J’ai compris Hélène Morel. Est-ce correct ?'],
      ['oui', 'Merci, Hélène Morel. Pouvez-vous m’indiquer votre date de naissance\u202f?'],
      ['le 5 mars 1984', 'Pouvez-vous m’indiquer votre numéro de téléphone\u202f?'],
      ['zéro six douze trente-quatre cinquante-six soixante-dix-huit', 'Merci. J’ai noté 0612345678 (téléphone). Combien de personnes\u202f?'],
      ['nous sommes trois', 'Pourquoi venez-vous aujourd’hui ? Veuillez choisir\u202f: Un contrôle, Des résultats d’analyses ou Autre chose.'],
    ],
    last: 'un contrôle',
    summary: 'À retenir',
    told: ['Hélène Morel', '5 mars 1984', '0612345678', '3', 'Un contrôle'],
  },
  {
    language: 'Español',
    box: 'Escriba su respuesta',
    greeting: 'Bienvenido. ¿Cuál es su nombre completo?',
    exchanges: [
      ['me llamo María García', 'He entendido María García. ¿Es correcto?'],
      ['no, es María López', 'He entendido María López. ¿Es correcto?'],
      ['sí', 'Gracias, María López. ¿Cuál es su fecha de nacimiento?'],
      ['5 de marzo de 1984', '¿Cuál es su número de teléfono?'],
      ['seis uno dos tres cuatro cinco seis siete ocho', 'Gracias. He anotado 612345678 (teléfono). ¿Cuál es el número de personas?'],
      ['dos', '¿Por qué viene hoy? Elija, por favor: Una revisión, Resultados de pruebas u Otro motivo.'],
    ],
    last: 'resultados',
    summary: 'Recuerde',
    told: ['María López', '5 de marzo de 1984', '612345678', '2', 'Resultados de pruebas'],
  },
];

for (const v of VISITS) {
  test(`a visit in ${v.language} is finished by typing alone, every answer understood and every reply in ${v.language}`, async ({ page }) => {
    await startIn(page, v.language);
    await expect(lastSaid(page)).toHaveText(v.greeting);
    for (const [said, answer] of v.exchanges) {
      await type(page, v.box, said);
      await expect(lastSaid(page)).toHaveText(answer);
    }
    await type(page, v.box, v.last, true);
    await expect(page.getByRole('region', { name: v.summary }).locator('dd')).toHaveText([...v.told]);
  });
}

test('typing "auf Deutsch bitte" in an English visit goes on in German, the name waiting for its yes kept', async ({ page }) => {
  await startIn(page, 'English');
  await type(page, 'Type your answer', "I'm Maria Garcia");
  await expect(lastSaid(page)).toHaveText('I heard Maria Garcia. Is that right?');
  // The answer box is named in German once the visit is: the switch is what this line waits for.
  const box = page.getByRole('textbox', { name: 'Type your answer', exact: true });
  await box.fill('auf Deutsch bitte');
  await box.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await expect(lastSaid(page)).toHaveText('Gern, ab jetzt spreche ich Deutsch. Ich habe Maria Garcia verstanden. Stimmt das?');
  await type(page, 'Geben Sie Ihre Antwort ein', 'ja, genau');
  await expectStep(page, 'ask_birth');
  await expect(page.getByRole('heading', { name: 'Danke, Maria Garcia' })).toBeVisible();
  await type(page, 'Geben Sie Ihre Antwort ein', 'Italian, please');
  await expect(lastSaid(page)).toHaveText(
    'Entschuldigung, hier kann ich nur Englisch, Deutsch, Französisch, Spanisch oder Arabisch sprechen. Wie lautet Ihr Geburtsdatum?',
  );
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
});

test('in Arabic: choices by their label and a typed date, and for a name the plain word that the screen works', async ({ page }) => {
  await startIn(page, 'العربية');
  const box = 'كتابة الإجابة';
  await type(page, box, 'مريم');
  await expect(lastSaid(page)).toHaveText(
    'عذرًا، لم أفهم ذلك. يمكن استخدام الشاشة: الضغط على الخيارات والأزرار، أو الكتابة في الحقول. يُرجى كتابة الاسم الكامل في الخانة على الشاشة.',
  );
  await page.getByRole('textbox', { name: 'الاسم الكامل', exact: true }).fill('مريم');
  await page.getByRole('button', { name: 'متابعة', exact: true }).click();
  await expectStep(page, 'ask_birth');
  await type(page, box, '05/03/1984');
  await expectStep(page, 'contact');
  await type(page, box, '0612345678');
  await type(page, box, '2');
  await expectStep(page, 'reason');
  await type(page, box, 'نتائج التحاليل', true);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByRole('region', { name: 'يُرجى تذكّر' }).locator('dd').last()).toHaveText('نتائج التحاليل');
});
