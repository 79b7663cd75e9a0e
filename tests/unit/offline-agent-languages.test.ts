// The offline assistant's understanding in German, French, Spanish and Arabic, table by table:
// numbers said in words, dates in each language's forms, times, phone numbers and emails said
// aloud, names introduced or said alone, choices by their label with "not" and corrections, and
// asking for a language. English has its own tables (offline-agent-extract.test.ts).

import { describe, expect, it } from 'vitest';
import { hearChoice } from '../../src/adapters/offline-agent/choices.ts';
import { dateInWords, extractDate, monthName } from '../../src/adapters/offline-agent/dates.ts';
import { extractEmail, extractNumber, extractPhone } from '../../src/adapters/offline-agent/extract.ts';
import { askedLanguage } from '../../src/adapters/offline-agent/language-request.ts';
import { languageFor } from '../../src/adapters/offline-agent/languages/index.ts';
import { bareName, extractName, type NamePart } from '../../src/adapters/offline-agent/names.ts';
import { spokenToDigits } from '../../src/adapters/offline-agent/numbers.ts';
import { extractTime } from '../../src/adapters/offline-agent/times.ts';
import { wantsChange, wantsStartOver } from '../../src/adapters/offline-agent/yes-no.ts';
import { LANGUAGES } from '../../src/adapters/offline-agent/languages/index.ts';
import { ar } from '../../src/ui/i18n/messages-ar.ts';
import { de } from '../../src/ui/i18n/messages-de.ts';
import { en } from '../../src/ui/i18n/messages-en.ts';
import { es } from '../../src/ui/i18n/messages-es.ts';
import { fr } from '../../src/ui/i18n/messages-fr.ts';

const lang = languageFor;

describe('numbers said in words', () => {
  it.each<[string, string, string]>([
    ['de', 'vierundzwanzig', '24'],
    ['de', 'neunzehnhundertvierundachtzig', '1984'],
    ['de', 'neunzehn hundert vier und achtzig', '1984'],
    ['de', 'zweitausendvier', '2004'],
    ['de', 'hundertfünfundzwanzig', '125'],
    ['de', 'am fünften März', 'am 5. März'],
    ['de', 'der einunddreißigste Mai', 'der 31. Mai'],
    ['de', 'eins zwei drei', '1 2 3'],
    ['fr', 'soixante-dix-sept', '77'],
    ['fr', 'quatre-vingt-dix-neuf', '99'],
    ['fr', 'vingt et un', '21'],
    ['fr', 'soixante et onze', '71'],
    ['fr', 'deux cents', '200'],
    ['fr', 'mille neuf cent quatre-vingt-quatre', '1984'],
    ['fr', 'le premier avril', 'le 1er avril'],
    ['fr', 'six douze', '6 12'],
    ['es', 'treinta y uno', '31'],
    ['es', 'veintidós', '22'],
    ['es', 'doscientos cincuenta', '250'],
    ['es', 'mil novecientos ochenta y cuatro', '1984'],
    ['es', 'dos mil uno', '2001'],
    ['es', 'primero de mayo', '1º de mayo'],
    ['es', 'seis uno dos', '6 1 2'],
    ['ar', '٠٥/٠٣/١٩٨٤', '05/03/1984'],
  ])('%s: %j → %j', (language, said, digits) => {
    expect(spokenToDigits(said, lang(language)).text).toBe(digits);
  });

  it.each<[string, string, number]>([
    ['de', '72,5', 72.5],
    ['de', 'zweiundsiebzig', 72],
    ['fr', '1,75 mètre', 1.75],
    ['fr', 'trois personnes', 3],
    ['es', 'somos cuatro', 4],
  ])('%s: %j is the number %d', (language, said, value) => {
    expect(extractNumber(said, false, lang(language))?.value).toBe(value);
  });
});

describe('dates in the forms people use', () => {
  const birth = { today: '2025-06-15', past: true };
  it.each<[string, string, string, string]>([
    ['de', '5. März 1984', '5. März 1984', '1984-03-05'],
    ['de', 'am fünften März 1984', '5. März 1984', '1984-03-05'],
    ['de', 'geboren am 5.3.1984', '5.3.1984', '1984-03-05'],
    ['de', '05.03.84', '05.03.84', '1984-03-05'],
    ['de', 'am fünften März neunzehnhundertvierundachtzig', '5. März 1984', '1984-03-05'],
    ['de', '1. Jänner 2001', '1. Jänner 2001', '2001-01-01'],
    ['fr', 'le 5 mars 1984', '5 mars 1984', '1984-03-05'],
    ['fr', 'le cinq mars mille neuf cent quatre-vingt-quatre', '5 mars 1984', '1984-03-05'],
    ['fr', 'le premier avril deux mille', '1er avril 2000', '2000-04-01'],
    ['fr', '05/03/1984', '05/03/1984', '1984-03-05'],
    ['fr', 'le 14 fevrier 1990', '14 fevrier 1990', '1990-02-14'],
    ['es', '5 de marzo de 1984', '5 de marzo de 1984', '1984-03-05'],
    ['es', 'el cinco de marzo de mil novecientos ochenta y cuatro', '5 de marzo de 1984', '1984-03-05'],
    ['es', 'nací el 5/3/84', '5/3/84', '1984-03-05'],
    ['es', 'primero de enero de 2001', '1º de enero de 2001', '2001-01-01'],
  ])('%s: %j → %j, %s', (language, said, spoken, iso) => {
    expect(extractDate(said, lang(language), birth)?.value).toEqual({ spoken, iso });
  });

  it.each<[string, string, string]>([
    ['de-DE', '1984-03-05', '5. März 1984'],
    ['fr-FR', '1984-03-05', '5 mars 1984'],
    ['es-ES', '1984-03-05', '5 de marzo de 1984'],
    ['en-GB', '1984-03-05', '5 March 1984'],
    ['en-US', '1984-03-05', 'March 5, 1984'],
  ])('said back in %s: %s is %j', (tag, iso, words) => {
    expect(dateInWords(iso, tag)).toBe(words);
  });

  it('names months, with the year for February, in the visit’s language', () => {
    expect(monthName(2, 'de-DE', 1990)).toBe('Februar 1990');
    expect(monthName(2, 'es-ES', 1990)).toBe('febrero de 1990');
    expect(monthName(4, 'fr-FR')).toBe('avril');
  });
});

describe('times of day', () => {
  it.each<[string, string, string]>([
    ['de', 'um halb elf', '10:30'],
    ['de', 'um zehn Uhr dreißig', '10:30'],
    ['de', '14 Uhr', '14:00'],
    ['de', 'Viertel nach neun', '09:15'],
    ['fr', 'à quatorze heures trente', '14:30'],
    ['fr', 'dix heures et demie', '10:30'],
    ['fr', '14h30', '14:30'],
    ['fr', 'onze heures moins le quart', '10:45'],
    ['fr', 'midi', '12:00'],
    ['es', 'a las diez y media', '10:30'],
    ['es', 'las cinco de la tarde', '17:00'],
    ['es', 'las once menos cuarto', '10:45'],
    ['es', 'a mediodía', '12:00'],
  ])('%s: %j is %s', (language, said, hhmm) => {
    expect(extractTime(said, lang(language))?.value.hhmm).toBe(hhmm);
  });
});

describe('phone numbers and emails said aloud', () => {
  it.each<[string, string, string]>([
    ['de', 'null eins sieben sechs, eins zwei drei vier fünf sechs sieben', '01761234567'],
    ['fr', 'zéro six douze trente-quatre cinquante-six soixante-dix-huit', '0612345678'],
    ['es', 'seis uno dos tres cuatro cinco seis siete ocho', '612345678'],
    ['ar', '٠٦١٢٣٤٥٦٧٨', '0612345678'],
    ['de', '+49 30 1234567', '+49 30 1234567'],
  ])('%s: %j → %s', (language, said, phone) => {
    expect(extractPhone(said, lang(language))?.value).toBe(phone);
  });

  it.each<[string, string, string]>([
    ['de', 'anna punkt weber at beispiel punkt de', 'anna.weber@beispiel.de'],
    ['fr', 'jean tiret bas dupont arobase exemple point com', 'jean_dupont@exemple.com'],
    ['es', 'maria arroba ejemplo punto es', 'maria@ejemplo.es'],
    ['es', 'juan guion perez arroba correo punto com', 'juan-perez@correo.com'],
  ])('%s: %j → %s', (language, said, email) => {
    expect(extractEmail(said, lang(language))?.value).toBe(email);
  });
});

describe('names', () => {
  it.each<[string, string, NamePart, string | undefined]>([
    ['de', 'ich heiße Anna Weber', 'full', 'Anna Weber'],
    ['de', 'Mein Name ist jürgen müller', 'full', 'Jürgen Müller'],
    ['de', 'Ich bin Frau Weber', 'last', 'Weber'],
    ['de', 'ich bin müde', 'full', undefined],
    ['de', 'ich bin hier wegen eines Termins', 'full', undefined],
    ['fr', "je m'appelle Marie Dupont", 'first', 'Marie'],
    ['fr', 'Je m’appelle Hélène', 'full', 'Hélène'],
    ['fr', "non, c'est Marie", 'full', 'Marie'],
    ['fr', 'je suis désolé', 'full', undefined],
    ['es', 'me llamo María García', 'full', 'María García'],
    ['es', 'no, es María', 'full', 'María'],
    ['es', 'Mi nombre es José Luis', 'full', 'José Luis'],
    ['es', 'soy de Madrid', 'full', undefined],
    // Arabic has its name phrases (issue 31): "my name is …", and a name said after it only.
    ['ar', 'اسمي مريم', 'full', 'مريم'],
    ['ar', 'انا اسمي مريم حداد', 'full', 'مريم حداد'],
    ['ar', 'أنا من دمشق', 'full', undefined],
    // Another language's own phrase, typed in this visit: the name, never the phrase with it.
    ['en', 'اسمي ماريا غارسيا', 'full', 'ماريا غارسيا'],
    ['en', 'je m’appelle Hélène', 'first', 'Hélène'],
  ])('%s: %j (%s) → %j', (language, said, part, name) => {
    expect(extractName(said, part, lang(language))?.value).toBe(name);
  });

  it.each<[string, string, string | undefined]>([
    ['de', 'Maria, bitte', 'Maria'],
    ['de', 'äh, Maria', 'Maria'],
    ['fr', 'Marie, s’il vous plaît', 'Marie'],
    ['es', 'María, por favor', 'María'],
    ['es', '¿cómo?', undefined],
    ['de', 'von vorne', undefined],
    ['ar', 'مريم', undefined],
  ])('said alone in %s: %j → %j', (language, said, name) => {
    expect(bareName(said, 'full', lang(language))).toBe(name);
  });
});

describe('choices by their label in the visit’s language', () => {
  const options = {
    de: ['Eine Kontrolle', 'Befunde abholen', 'Etwas anderes'],
    fr: ['Un contrôle', 'Des résultats d’analyses', 'Autre chose'],
    es: ['Una revisión', 'Resultados de pruebas', 'Otro motivo'],
    ar: ['فحص دوري', 'نتائج التحاليل', 'سبب آخر'],
  } as const;
  const choices = (language: keyof typeof options) => options[language].map((label, i) => ({ value: ['checkup', 'results', 'other'][i], names: [label] }));

  it.each<[keyof typeof options, string, string | undefined, string[]]>([
    ['de', 'Kontrolle bitte', 'checkup', []],
    ['de', 'ich möchte meine Befunde abholen', 'results', []],
    ['de', 'nicht die Kontrolle, die Befunde', 'results', ['checkup']],
    ['de', 'keine Kontrolle', undefined, ['checkup']],
    ['fr', 'un controle', 'checkup', []],
    ['fr', 'je viens pour mes résultats', 'results', []],
    ['fr', 'pas un contrôle, les résultats', 'results', ['checkup']],
    ['fr', "je n'ai pas besoin d'un contrôle", undefined, ['checkup']],
    ['es', 'una revision', 'checkup', []],
    ['es', 'vengo por los resultados', 'results', []],
    ['es', 'no quiero una revisión, resultados', 'results', ['checkup']],
    ['es', 'sin revisión', undefined, ['checkup']],
    ['ar', 'فحص', 'checkup', []],
    ['ar', 'النتائج', 'results', []],
    ['ar', 'والفحص', 'checkup', []],
    ['ar', 'لا أريد فحص، نتائج التحاليل', 'results', ['checkup']],
  ])('%s: %j → %j, declined %j', (language, said, chosen, declined) => {
    const heard = hearChoice(said, choices(language), lang(language));
    expect(heard.chosen?.value).toBe(chosen);
    expect(heard.declined.map((d) => d.value.value)).toEqual(declined);
  });
});

describe('the words the assistant says', () => {
  const catalogs: Readonly<Record<string, { bar: { startOver: string } }>> = { en, de, fr, es, ar };

  it.each(LANGUAGES.map((l) => [l.code, l] as const))('%s names the Start over button as the screen does', (code, language) => {
    expect(language.say.startOver).toContain(catalogs[code]!.bar.startOver);
  });

  it.each(LANGUAGES.filter((l) => l.code !== 'en').map((l) => [l.code, l] as const))('%s says nothing in English', (_, language) => {
    const english = LANGUAGES.find((l) => l.code === 'en')!.say;
    for (const [key, line] of Object.entries(language.say)) {
      if (typeof line === 'string') expect(line, key).not.toBe((english as unknown as Record<string, unknown>)[key]);
    }
  });
});

describe('asking to change something, or to start over', () => {
  it.each<[string, string, boolean, boolean]>([
    ['de', 'das Geburtsdatum ist falsch', true, false],
    ['de', 'bitte von vorne', false, true],
    ['fr', 'je voudrais corriger mon nom', true, false],
    ['fr', 'on peut recommencer ?', false, true],
    ['es', 'quiero cambiar la fecha', true, false],
    ['es', 'empezar de nuevo', false, true],
    ['ar', 'أريد تعديل الاسم', true, false],
    ['ar', 'البدء من جديد', false, true],
    ['en', 'start over please', false, true],
  ])('%s: %j asks to change: %s, to start over: %s', (language, said, change, startOver) => {
    expect(wantsChange(said, lang(language))).toBe(change);
    expect(wantsStartOver(said, lang(language))).toBe(startOver);
  });
});

describe('asking for a language', () => {
  it.each<[string, string | undefined]>([
    ['can we speak Spanish?', 'es'],
    ['Spanish, please', 'es'],
    ['auf Deutsch bitte', 'de'],
    ['Sprechen Sie Englisch?', 'en'],
    ["en français s'il vous plaît", 'fr'],
    ['parlez-vous anglais ?', 'en'],
    ['¿podemos hablar en español?', 'es'],
    ['castellano', 'es'],
    ['بالعربية', 'ar'],
    ['العربية من فضلك', 'ar'],
    ['Do you speak Italian?', 'it'],
    ["I don't speak German", undefined],
    ["I'm Maria French", undefined],
    ['I grew up in Spanish Town', undefined],
    ['Maria', undefined],
  ])('%j asks for %j', (said, code) => {
    expect(askedLanguage(said, lang('en'))?.code).toBe(code);
  });
});

describe('long input', () => {
  it('a German word that splits into number words many ways is read at once', () => {
    // "achtzehn" is one number or "acht" and "zehn": a word of 120 of them ending in no number.
    const word = `${'achtzehn'.repeat(120)}x`;
    const started = performance.now();
    expect(spokenToDigits(word, lang('de')).text).toBe(word);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
