// Whole visits with the offline assistant alone, in German, French, Spanish and Arabic, on a
// reception of five languages (tests/fixtures/languages/reception.yaml): what the visitor types,
// the tool calls it makes, and everything it says, in the visit's language with formal address. A
// visit that switches language on screen or by asking, and a request for one the flow lacks.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { Clock } from '../../src/ports/clock.ts';
import { AgentLoop } from '../support/agent-loop.ts';
import { inOneLanguage } from '../support/one-language.ts';

const RECEPTION = readFileSync(new URL('../fixtures/languages/reception.yaml', import.meta.url), 'utf8');
/** The clinic example in English alone. */
const CLINIC = inOneLanguage(readFileSync(new URL('../../flows/clinic-checkin.yaml', import.meta.url), 'utf8'), 'en-US');

function load(text: string): LoadedFlow {
  const r = loadFlow(text, 'test.yaml');
  if (!r.loaded) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.loaded;
}

/** Midday on 15 June 2025, the kiosk's "today" in these tests. */
const JUNE_15: Clock = { now: () => new Date(2025, 5, 15, 12).getTime() };

async function visit(language?: string, flow = RECEPTION): Promise<AgentLoop> {
  const loaded = load(flow);
  const loop = new AgentLoop(language ? loaded.inLanguage(language) : loaded, new OfflineAgent(JUNE_15));
  await loop.start();
  return loop;
}

/** The visitor's lines, each with what the kiosk says back (its captions for that line, joined). */
type Exchange = readonly [said: string, answer: string];

async function talk(loop: AgentLoop, exchanges: readonly Exchange[]): Promise<void> {
  for (const [said, answer] of exchanges) {
    const before = loop.captions.length;
    await loop.say(said);
    expect(loop.captions.slice(before).join(' '), `after ${JSON.stringify(said)}`).toBe(answer);
  }
}

const DONE = { full_name: expect.any(String), date_of_birth: '1984-03-05', phone: expect.any(String), guests: expect.any(Number) };

describe('a whole visit typed in each language', () => {
  it('German, with Sie', async () => {
    const loop = await visit('de-DE');
    expect(loop.lastCaption).toBe('Willkommen. Wie lautet Ihr vollständiger Name?');
    await talk(loop, [
      ['Ich heiße Anna Weber', 'Ich habe Anna Weber verstanden. Stimmt das?'],
      ['nein, Anna Becker', 'Ich habe Anna Becker verstanden. Stimmt das?'],
      ['ja', 'Danke, Anna Becker. Wie lautet Ihr Geburtsdatum?'],
      ['am 31. Februar 1990', 'Entschuldigung, der Februar 1990 hat nur 28 Tage. Wie lautet Ihr Geburtsdatum?'],
      ['am fünften März 1984', 'Wie lautet Ihre Telefonnummer?'],
      ['null eins sieben sechs, eins zwei drei vier fünf sechs sieben', 'Danke. Ich habe notiert: Telefon 01761234567. Wie viele Personen?'],
      ['zwei', 'Warum sind Sie heute hier? Bitte wählen Sie: Eine Kontrolle, Befunde abholen oder Etwas anderes.'],
      ['nicht die Kontrolle, die Befunde', ''],
    ]);
    expect(loop.view.ended).toBe(true);
    expect(loop.view.values).toEqual({ ...DONE, full_name: 'Anna Becker', phone: '01761234567', guests: 2, reason: 'results' });
  });

  it('French, with vous', async () => {
    const loop = await visit('fr-FR');
    expect(loop.lastCaption).toBe('Bienvenue. Pouvez-vous m’indiquer votre nom complet\u202f?');
    await talk(loop, [
      ['je m’appelle Hélène Martin', 'J’ai compris Hélène Martin. Est-ce correct ?'],
      ["non, c'est Hélène Morel", 'J’ai compris Hélène Morel. Est-ce correct ?'],
      ["oui c'est ça", 'Merci, Hélène Morel. Pouvez-vous m’indiquer votre date de naissance\u202f?'],
      ['le 5 mars 2090', 'Désolé, le 5 mars 2090 est dans le futur. Pouvez-vous m’indiquer votre date de naissance\u202f?'],
      ['le cinq mars mille neuf cent quatre-vingt-quatre', 'Pouvez-vous m’indiquer votre numéro de téléphone\u202f?'],
      ['zéro six douze trente-quatre cinquante-six soixante-dix-huit', 'Merci. J’ai noté 0612345678 (téléphone). Combien de personnes\u202f?'],
      ['nous sommes trois', 'Pourquoi venez-vous aujourd’hui ? Veuillez choisir\u202f: Un contrôle, Des résultats d’analyses ou Autre chose.'],
      ['un contrôle', ''],
    ]);
    expect(loop.view.values).toEqual({ ...DONE, full_name: 'Hélène Morel', phone: '0612345678', guests: 3, reason: 'checkup' });
  });

  it('Spanish, with usted', async () => {
    const loop = await visit('es-ES');
    expect(loop.lastCaption).toBe('Bienvenido. ¿Cuál es su nombre completo?');
    await talk(loop, [
      ['me llamo María García', 'He entendido María García. ¿Es correcto?'],
      ['no, es María López', 'He entendido María López. ¿Es correcto?'],
      ['sí', 'Gracias, María López. ¿Cuál es su fecha de nacimiento?'],
      ['el cinco de marzo de mil novecientos ochenta y cuatro', '¿Cuál es su número de teléfono?'],
      ['seis uno dos tres cuatro cinco seis siete ocho, somos dos', '¿Por qué viene hoy? Elija, por favor: Una revisión, Resultados de pruebas u Otro motivo.'],
      ['no quiero una revisión, resultados', ''],
    ]);
    expect(loop.view.values).toEqual({ ...DONE, full_name: 'María López', phone: '612345678', guests: 2, reason: 'results' });
  });

  it('Arabic: yes, no, choices by label and digits; for the rest it says that the screen works', async () => {
    const loop = await visit('ar');
    expect(loop.lastCaption).toBe('أهلًا وسهلًا. يُرجى كتابة الاسم الكامل في الخانة على الشاشة.');
    await talk(loop, [['مريم', 'عذرًا، لم أفهم ذلك. يمكن استخدام الشاشة: الضغط على الخيارات والأزرار، أو الكتابة في الحقول. يُرجى كتابة الاسم الكامل في الخانة على الشاشة.']]);
    await loop.tap({ event: 'form_submit', values: { full_name: 'مريم' } });
    await talk(loop, [
      ['٠٥/٠٣/١٩٨٤', 'يُرجى كتابة الهاتف في الخانة على الشاشة.'],
      ['0612345678', 'شكرًا. لدي: الهاتف: 0612345678. يُرجى كتابة عدد الأشخاص في الخانة على الشاشة.'],
      ['2', 'ما سبب زيارتك اليوم؟ يُرجى الاختيار: فحص دوري أو نتائج التحاليل أو سبب آخر.'],
      ['لا أريد فحص، نتائج التحاليل', ''],
    ]);
    expect(loop.view.values).toEqual({ ...DONE, full_name: 'مريم', phone: '0612345678', guests: 2, reason: 'results' });
  });

  it('Arabic: a yes or a no to a value waiting for it', async () => {
    const loop = await visit();
    await loop.say("I'm Maria Garcia");
    await loop.setLanguage('ar');
    expect(loop.lastCaption).toBe('سمعت Maria Garcia. هل هذا صحيح؟');
    await talk(loop, [['لا', 'عذرًا. يُرجى كتابة الاسم الكامل في الخانة على الشاشة.']]);
    expect(loop.view.values['full_name']).toBeUndefined();
  });
});

describe('the visit’s language changes', () => {
  it('on screen: the value waiting for its yes is asked about again in German, and a German yes confirms it', async () => {
    const loop = await visit();
    await loop.say('My name is Anna Weber');
    await loop.setLanguage('de-DE');
    expect(loop.lastCaption).toBe('Ich habe Anna Weber verstanden. Stimmt das?');
    await talk(loop, [['ja, genau', 'Danke, Anna Weber. Wie lautet Ihr Geburtsdatum?']]);
  });

  it('by asking: set_language with the flow’s tag, then the step again in that language', async () => {
    const loop = await visit();
    await talk(loop, [
      ['can we speak Spanish?', 'De acuerdo, seguimos en español. Bienvenido. ¿Cuál es su nombre completo?'],
      ['auf Deutsch bitte', 'Gern, ab jetzt spreche ich Deutsch. Willkommen. Wie lautet Ihr vollständiger Name?'],
      ['Sprechen Sie Deutsch?', 'Wir sprechen bereits Deutsch. Wie lautet Ihr vollständiger Name?'],
      ['Italian, please', 'Entschuldigung, hier kann ich nur Englisch, Deutsch, Französisch, Spanisch oder Arabisch sprechen. Wie lautet Ihr vollständiger Name?'],
      ["en français s'il vous plaît", 'Très bien, continuons en français. Bienvenue. Pouvez-vous m’indiquer votre nom complet\u202f?'],
      ['بالعربية', 'حسنًا، سنتابع بالعربية. أهلًا وسهلًا. يُرجى كتابة الاسم الكامل في الخانة على الشاشة.'],
    ]);
    expect(loop.calls.map((c) => c.arguments)).toEqual(['{"language":"es-ES"}', '{"language":"de-DE"}', '{"language":"fr-FR"}', '{"language":"ar"}']);
    expect(loop.view.language).toBe('ar');
  });

  it('keeps what waits for a yes when the visitor asks for another language', async () => {
    const loop = await visit();
    await loop.say("I'm Maria Garcia");
    await talk(loop, [['¿podemos hablar en español?', 'De acuerdo, seguimos en español. He entendido Maria Garcia. ¿Es correcto?']]);
    expect(loop.view.pending).toEqual(['full_name']);
  });

  it('a flow of one language answers plainly that it speaks only that one', async () => {
    const loop = await visit(undefined, CLINIC);
    await talk(loop, [['can we speak German?', "Sorry, here I can only speak English. What's your full name?"]]);
    expect(loop.calls).toEqual([]);
  });
});

describe('a button named in the visit’s language', () => {
  it('"Einchecken, bitte" proposes the check-in its button stands for', async () => {
    const flow = `
id: desk
language: de-DE
states:
  summary:
    ui:
      artifact_type: card
      title: Ihre Angaben
      actions: [ { event: check_in, label: Einchecken, tool: check_in }, { event: edit, label: Angaben ändern } ]
    agent: { prompt: "Frage, ob eingecheckt werden soll.", tools: [check_in] }
    tools:
      check_in: { description: Check in., confirm: true, summary: Einchecken, parameters: {} }
    transitions: { on_tool_call: { check_in: __end__ }, on_ui_event: { edit: summary } }
`;
    const loop = await visit(undefined, flow);
    await talk(loop, [
      ['Einchecken, bitte', 'Einchecken. Soll ich fortfahren?'],
      ['ja', ''],
    ]);
    expect(loop.calls.map((c) => c.name)).toEqual(['check_in', 'confirm_action']);
    expect(loop.view.ended).toBe(true);
  });
});

describe('a language the assistant does not speak', () => {
  it('an Italian flow gets the assistant in English, reading English answers', async () => {
    const flow = `
id: italian
language: it-IT
variables: { first_name: { type: name } }
states:
  ask:
    ui: { artifact_type: form, title: Benvenuto, fields: [ { id: first_name, type: text, label: Nome } ] }
    agent: { prompt: Chiedi il nome., tools: [save_name] }
    tools:
      save_name: { parameters: { first_name: { type: name, required: true } } }
    confirmation_gate: { variables: [first_name], on_confirm: __end__ }
    transitions: { on_ui_event: { form_submit: __end__ } }
`;
    const loop = await visit(undefined, flow);
    expect(loop.lastCaption).toBe("Benvenuto. What's your nome?");
    await talk(loop, [["I'm Marco", 'I heard Marco. Is that right?']]);
    await loop.say('yes');
    expect(loop.view.ended).toBe(true);
  });
});

describe('the last words', () => {
  it('a closing step says goodbye by name in the visit’s language, as its prompt asks', async () => {
    const flow = `
id: farewell
language: en-GB
languages: [en-GB, fr-FR]
variables: { first_name: { type: name } }
states:
  ask:
    ui: { artifact_type: form, title: { en: Welcome, fr: Bienvenue }, fields: [ { id: first_name, type: text, label: { en: First name, fr: Prénom } } ] }
    agent: { prompt: Ask the first name., tools: [save_name] }
    tools:
      save_name: { parameters: { first_name: { type: name, required: true } } }
    transitions: { on_tool_call: { save_name: bye }, on_ui_event: { form_submit: bye } }
  bye:
    agent: { prompt: "Say goodbye to {first_name} warmly.", tools: [] }
    transitions: {}
`;
    const loop = await visit('fr-FR', flow);
    await talk(loop, [["je m'appelle Marie", 'Au revoir, Marie\u202f!']]);
  });
});

describe('in any order', () => {
  const LINES: Readonly<Record<string, readonly string[]>> = {
    'de-DE': ['Anna Weber', 'ja', 'nein', 'nein, Anna Becker', 'am 5. März 1984', 'am 31. Februar 1990', '0176 1234567', 'zwei', 'Kontrolle', 'von vorne', 'auf Englisch bitte', 'hm'],
    'fr-FR': ['Marie', 'oui', 'non', "non, c'est Hélène", 'le 5 mars 1984', '06 12 34 56 78', 'trois', 'résultats', 'recommencer', 'en espagnol', 'euh'],
    'es-ES': ['María', 'sí', 'no', 'no, es Lucía', '5 de marzo de 1984', '612 345 678', 'dos', 'otro motivo', 'empezar de nuevo', 'en alemán', 'tengo fiebre'],
    ar: ['نعم', 'لا', 'مريم', '05/03/1984', '0612345678', '2', 'فحص دوري', 'بالإنجليزية'],
  };

  it.each(Object.entries(LINES))('%s: every answer gets words, and the visit never loops', async (language, lines) => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...lines), { maxLength: 10 }), async (said) => {
        const loop = await visit(language);
        for (const line of said) {
          if (loop.view.ended) break;
          const before = loop.captions.length;
          await loop.say(line);
          if (!loop.view.ended) expect(loop.captions.slice(before).join(' '), `after ${JSON.stringify(said)}`).not.toBe('');
        }
      }),
      { numRuns: 40 },
    );
  });
});
