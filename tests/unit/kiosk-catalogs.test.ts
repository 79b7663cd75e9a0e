// The kiosk's words in German, French, Spanish and Arabic (src/ui/i18n), and the flow studio's
// (src/studio/i18n): each catalog has exactly the English keys, and each message formats in its
// language, names the English values and is translated.

import { isLiteralElement, isPluralElement, isPoundElement, isSelectElement, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { ar } from '../../src/ui/i18n/messages-ar.ts';
import { de } from '../../src/ui/i18n/messages-de.ts';
import { en, type Messages } from '../../src/ui/i18n/messages-en.ts';
import { es } from '../../src/ui/i18n/messages-es.ts';
import { fr } from '../../src/ui/i18n/messages-fr.ts';
import { ar as studioAr } from '../../src/studio/i18n/messages-ar.ts';
import { de as studioDe } from '../../src/studio/i18n/messages-de.ts';
import { en as studioEn } from '../../src/studio/i18n/messages-en.ts';
import { es as studioEs } from '../../src/studio/i18n/messages-es.ts';
import { fr as studioFr } from '../../src/studio/i18n/messages-fr.ts';

const CATALOGS: Record<string, Messages> = { de, fr, es, ar };
const STUDIO_CATALOGS: Record<string, object> = { de: studioDe, fr: studioFr, es: studioEs, ar: studioAr };

/** English messages a catalog may keep as they are: only values, a model's name, a technical token, or the same word. */
const SAME_AS_ENGLISH = new Set([
  // the studio's: a value alone, and words these languages write as English does
  'studio:diagram.marks.screen',
  'studio:de:editor.title',
  'studio:de:answers.status',
  'studio:de:panel.tests',
  'studio:fr:panel.tests',
  'studio:fr:preview.assistant',
  'studio:es:check.error',
  'studio:es:diagram.error',
  'lights.line', 'lights.stt.working', 'lights.model.working', 'lights.speech.working', 'lights.short.stt', 'operator.pin', 'es:end.no', 'guide.value', 'guide.summary', 'de:operator.layoutChoice.standard']);

const COUNTS = [0, 1, 2, 3, 11, 100];

/** Every message of a catalog, as [`area.name`, message]; a branch that is not a message or an object shows as itself. */
function messagesOf(catalog: object, prefix = ''): [string, unknown][] {
  return Object.entries(catalog).flatMap(([k, v]): [string, unknown][] => (v !== null && typeof v === 'object' ? messagesOf(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));
}

/** The elements of a message, those in the branches of a plural or select too. */
function elementsOf(ast: MessageFormatElement[]): MessageFormatElement[] {
  return ast.flatMap((e) => [e, ...(isPluralElement(e) || isSelectElement(e) ? Object.values(e.options).flatMap((o) => elementsOf(o.value)) : [])]);
}

/** The values a message names ({name}, a plural's count), each once, sorted. */
function valuesOf(format: IntlMessageFormat): string[] {
  const named = elementsOf(format.getAst()).flatMap((e) => (isLiteralElement(e) || isPoundElement(e) ? [] : [e.value]));
  return [...new Set(named)].sort();
}

/** Checks each catalog of a set against its English one; `set` names it among the exceptions ("studio:"). */
function checkCatalogs(set: string, en: object, catalogs: Record<string, object>): void {
  const english = new Map(messagesOf(en) as [string, string][]);
  const same = (locale: string, key: string) => SAME_AS_ENGLISH.has(`${set}${key}`) || SAME_AS_ENGLISH.has(`${set}${locale}:${key}`);

  describe.each(Object.entries(catalogs))(`the ${set}%s catalog`, (locale, catalog) => {
    const messages = messagesOf(catalog);

    it('has every English key and no other', () => {
      expect(messages.map(([key]) => key).sort()).toEqual([...english.keys()].sort());
    });

    it.each(messages)('%s formats with the English values, translated', (key, message) => {
      expect(typeof message, key).toBe('string');
      const format = new IntlMessageFormat(message as string, locale);
      const source = english.get(key)!;
      expect(valuesOf(format), key).toEqual(valuesOf(new IntlMessageFormat(source, 'en')));
      // a plural has a branch for each form the language gives whole numbers (Arabic: zero, one, two, few, many)
      const rules = new Intl.PluralRules(locale);
      const forms = [...new Set(Array.from({ length: 1001 }, (_, n) => rules.select(n)))].sort();
      for (const plural of elementsOf(format.getAst()).filter(isPluralElement)) expect(Object.keys(plural.options).sort(), key).toEqual(expect.arrayContaining(forms));
      for (const n of COUNTS) {
        const text = String(format.format(Object.fromEntries(valuesOf(format).map((name) => [name, n]))));
        expect(text, `${key} with ${n}`).toMatch(/\S/);
        expect(text, `${key} with ${n}`).not.toMatch(/[{}]/);
      }
      if (!same(locale, key)) expect(message, key).not.toBe(source);
    });
  });
}

checkCatalogs('', en, CATALOGS);
checkCatalogs('studio:', studioEn, STUDIO_CATALOGS);
