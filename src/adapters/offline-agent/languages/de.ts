// German for the offline assistant: how visitors say numbers ("vierundzwanzig", "am fünften"),
// dates ("5. März 1984"), times ("halb elf"), names ("ich heiße …") and emails, and what the
// assistant says back, with Sie.

import { wordValue } from '../numbers.ts';
import type { Language } from './language.ts';

const CARDINALS: Readonly<Record<string, number>> = {
  null: 0, eins: 1, ein: 1, eine: 1, zwei: 2, zwo: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9,
  zehn: 10, elf: 11, zwölf: 12, dreizehn: 13, vierzehn: 14, fünfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18,
  neunzehn: 19, zwanzig: 20, dreißig: 30, dreissig: 30, vierzig: 40, fünfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80,
  neunzig: 90,
};
const MULTIPLIERS: Readonly<Record<string, number>> = { hundert: 100, tausend: 1000, million: 1_000_000, millionen: 1_000_000 };

/** The parts a written number splits into, longest first: "neunzehnhundertvierundachtzig" → neunzehn hundert vier und achtzig. */
const PARTS = [...Object.keys(CARDINALS), ...Object.keys(MULTIPLIERS), 'und']
  .map((p) => p.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss'))
  .sort((a, b) => b.length - a.length);

/** The longest word looked at: the longest German number in words is about 70 letters. */
const MAX_NUMBER_WORD = 100;

/** The word as number words, or undefined; each place is tried once ("achtzehn" splits two ways). */
function split(word: string): string[] | undefined {
  if (word.length > MAX_NUMBER_WORD) return undefined;
  const from = new Map<number, string[] | undefined>([[word.length, []]]);
  for (let at = word.length - 1; at >= 0; at--) {
    const part = PARTS.find((p) => word.startsWith(p, at) && from.get(at + p.length) !== undefined);
    from.set(at, part === undefined ? undefined : [part, ...from.get(at + part.length)!]);
  }
  return from.get(0);
}

/** First to nineteenth by their stems ("erst", "dritt", "siebt"); from twenty on, the number and "st". */
const ORDINAL_STEMS: ReadonlyMap<string, number> = new Map(Object.entries({
  erst: 1, zweit: 2, dritt: 3, viert: 4, funft: 5, sechst: 6, siebt: 7, siebent: 7, acht: 8, neunt: 9, zehnt: 10,
  elft: 11, zwolft: 12, dreizehnt: 13, vierzehnt: 14, funfzehnt: 15, sechzehnt: 16, siebzehnt: 17, achtzehnt: 18,
  neunzehnt: 19,
}));

function ordinal(word: string): number | undefined {
  const m = /^(.+?)(?:e|en|er|em|es)$/.exec(word);
  if (!m) return undefined;
  const stem = m[1]!;
  const known = ORDINAL_STEMS.get(stem);
  if (known !== undefined) return known;
  if (!stem.endsWith('st') || stem.length < 8) return undefined;
  const n = wordValue(stem.slice(0, -2), GERMAN);
  return n !== undefined && n >= 20 && n < 100 ? n : undefined;
}

/** A field's label inside a sentence: nouns keep their capital; an adjective before one loses it ("gewünschte Uhrzeit"). */
function label(text: string): string {
  const words = text.trim().replace(/[:?]\s*$/, '').replace(/^(?:Ihre?|Ihren)\s+/, '').split(/\s+/);
  if (words.length > 1 && /(?:e|er|es|en|em)$/.test(words[0]!) && /^\p{Lu}/u.test(words[1]!)) words[0] = words[0]!.toLowerCase();
  return words.join(' ');
}

/** "Ihr" or "Ihre" before a label: feminine nouns by their ending ("Adresse", "Nummer", "Uhrzeit"). */
function your(text: string): string {
  const words = text.split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && /^(?:des|der|dem|für|von|zum|zur|im|am|bei)$/i.test(w));
  const head = (cut > 0 ? words[cut - 1]! : words[words.length - 1]!).split('-').pop()!.toLowerCase();
  const feminine = /(?:e|ung|heit|keit|schaft|ion|tät|ik|ur|ei|nummer|zahl|zeit|mail|stadt|art|nachricht|antwort|person|firma)$/.test(head);
  const exception = /(?:name|käse|junge|kunde|datum|ende|gebäude|interesse|auge)$/.test(head);
  return feminine && !exception ? 'Ihre' : 'Ihr';
}

/** Prepositions that carry their article: "zum" is zu dem. */
const CONTRACTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['zum', ['zu', 'dem']],
  ['zur', ['zu', 'der']],
  ['im', ['in', 'dem']],
  ['am', ['an', 'dem']],
  ['beim', ['bei', 'dem']],
  ['vom', ['von', 'dem']],
]);

const list = (type: 'conjunction' | 'disjunction') => (items: readonly string[]) => new Intl.ListFormat('de', { type }).format(items);

const NOT_NAMES = (
  'ein eine einen einem einer der die das den dem des und aber oder nicht nein ja doch hier da dort gut schon noch ' +
  'sehr so richtig falsch fertig bereit müde neu wegen für mit von zu zum zur am im in an auf aus bei nach ich du er ' +
  'sie es wir ihr mein meine meinen dein sein unser bitte danke hallo guten tag morgen abend wie was wer wo wann ' +
  'warum welche welcher welches heiße heisse heiße bin ist sind war habe hab hat haben möchte will brauche komme ' +
  'termin weiß weiss keine kein leider eigentlich also äh ähm okay ok nochmal wieder hilfe ändern neu beginnen ' +
  'starten stopp abbrechen zurück weiter schmerzen besuch heute geboren geb'
).split(' ');

export const GERMAN: Language = {
  code: 'de',
  understands: 'all',
  numbers: {
    cardinals: CARDINALS,
    multipliers: MULTIPLIERS,
    joiners: ['und'],
    unitBeforeTens: true,
    decimalComma: true,
    ordinal,
    ordinalMark: (n) => `${n}.`,
    split,
  },
  dates: {
    months: [
      ['januar', 'jänner', 'jan'], ['februar', 'feber', 'feb'], ['märz', 'maerz', 'mär', 'mrz'], ['april', 'apr'], ['mai'],
      ['juni', 'jun'], ['juli', 'jul'], ['august', 'aug'], ['september', 'sept', 'sep'], ['oktober', 'okt'],
      ['november', 'nov'], ['dezember', 'dez'],
    ],
    patterns: ['(?:(?:am|dem|den|der|vom)\\s+)?DAY\\.?\\s*MONTH(?:\\s+YEAR)?'],
    articles: ['am', 'dem', 'den', 'der', 'vom'],
    capitalMonths: true,
    dayAlone: '(?:(?:am|den|der|dem)\\s+)?DAY\\.(?!\\d)',
  },
  times: {
    readers: [
      ['(\\d{1,2})\\s*uhr(?:\\s*(\\d{1,2}))?(?![\\p{L}\\d])', (m) => ({ h: Number(m[1]), min: Number(m[2] ?? 0) })],
      ['(?<!\\p{L})halb\\s+(\\d{1,2})(?!\\d)', (m) => ({ h: Number(m[1]) === 1 ? 12 : Number(m[1]) - 1, min: 30 })],
      ['(?<!\\p{L})viertel\\s+nach\\s+(\\d{1,2})(?!\\d)', (m) => ({ h: Number(m[1]), min: 15 })],
      ['(?<!\\p{L})viertel\\s+vor\\s+(\\d{1,2})(?!\\d)', (m) => ({ h: Number(m[1]) === 1 ? 12 : Number(m[1]) - 1, min: 45 })],
      ['(?<!\\p{L})(?:mittags?|zwolf\\s+uhr\\s+mittags)(?!\\p{L})', () => ({ h: 12, min: 0 })],
      ['(?<!\\p{L})mitternacht(?!\\p{L})', () => ({ h: 0, min: 0 })],
    ],
  },
  email: { at: ['at', 'ät', 'et', 'klammeraffe'], dot: ['punkt'], underscore: ['unterstrich'], dash: ['bindestrich', 'minus'], plus: ['plus'] },
  names: {
    leads: [
      'ich heiße', 'ich heisse', 'mein name ist', 'mein vorname ist', 'mein nachname ist', 'mein familienname ist',
      'mein voller name ist', 'nennen sie mich', 'man nennt mich',
    ],
    weakLeads: ['ich bin', 'hier ist', 'hier spricht', 'das ist', 'es ist'],
    titles: ['herr', 'frau', 'dr', 'doktor', 'prof', 'professor'],
    notNames: NOT_NAMES,
  },
  clauses: {
    negators: ['nicht', 'nie', 'niemals', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'keines', 'ohne', 'weder', 'außer', 'statt', 'anstatt', 'hasse'],
    negatingPairs: ['an stelle', 'anstelle von'],
    denyRightBefore: [],
    clauseStarts: ['aber', 'sondern', 'also', 'eigentlich', 'vielleicht', 'stattdessen', 'dann', 'warte', 'doch', 'lieber', 'sorry', 'entschuldigung'],
    corrections: ['nein', 'eigentlich', 'sorry', 'entschuldigung', 'warte', 'meine', 'lieber', 'stattdessen', 'sondern'],
  },
  choices: {
    expand: (word) => CONTRACTIONS.get(word),
    titleWords: { doktor: 'dr', professor: 'prof', herr: 'hr' },
    smallWords: 'ein eine einen der die das den dem des und oder mit von zu für bei in im an am auf ich mein meine ist bin bitte ja nein nicht dr hr prof frau'.split(' '),
  },
  bare: {
    fillers: ['äh', 'ähm', 'öh', 'hm', 'hmm', 'also', 'ok', 'okay', 'ja', 'na', 'so', 'gut'],
    leadIns: ['es ist', 'das ist', 'ich würde sagen', 'ich glaube', 'ich denke', 'meine antwort ist'],
    tails: ['bitte', 'bitte schön', 'danke', 'danke schön', 'vielen dank'],
    questionStarts: ['was', 'wie', 'wer', 'wo', 'wann', 'warum', 'wieso', 'welche', 'welcher', 'welches', 'können', 'kann', 'könnten', 'ist', 'sind', 'haben', 'gibt', 'soll', 'darf', 'muss'],
  },
  change: ['ändern', 'änderung', 'korrigieren', 'korrektur', 'berichtigen', 'falsch', 'fehler', 'bearbeiten', 'zurück'],
  startOver: ['neu beginnen', 'von vorne', 'von vorn', 'neu anfangen', 'noch mal von vorne', 'neu starten', 'zurücksetzen'],
  statements: ['ich', 'mein', 'meine', 'meinen', 'mir', 'mich', 'wir', 'unser', 'habe', 'hab', 'brauche', 'möchte', 'will', 'komme', 'bin', 'wegen', 'weil'],
  birth: ['geburt', 'geburtsdatum', 'geburtstag', 'geboren'],
  requests: {
    speak: ['sprechen', 'spreche', 'sprichst', 'spricht', 'reden', 'wechseln', 'sprache'],
    inLanguage: ['auf', 'in'],
    please: ['bitte', 'danke'],
  },
  talk: {
    corrections: ['warte', 'warten sie', 'moment', 'halt', 'sorry', 'entschuldigung', 'pardon', 'eigentlich', 'ich meine', 'ich meinte', 'korrektur', 'vielmehr', 'oh nein'],
    spelling: '(?:mit|geschrieben\\s+mit)\\s+(?:einem|einem\\s+einzigen|nur\\s+einem|zwei|drei|doppel|doppeltem|doppelten)[\\s-]+[a-z](?![a-z])(?:\\s+(?:am\\s+ende|am\\s+anfang|in\\s+der\\s+mitte))?',
    spelled: ['buchstabiert', 'geschrieben', 'man schreibt es', 'das schreibt man'],
    between: ['und', 'geboren', 'geboren am', 'ich bin geboren am', 'ich wurde geboren am', 'geburtsdatum', 'geburtstag', 'name', 'e-mail', 'mail'],
    surname: ['nachname', 'familienname', 'zuname'],
    firstName: ['vorname', 'rufname'],
    greetings: ['hallo', 'guten tag', 'guten morgen', 'guten abend', 'grüß gott', 'servus', 'moin', 'hi', 'grüezi'],
    thanks: ['danke', 'danke schön', 'dankeschön', 'vielen dank', 'danke sehr', 'herzlichen dank', 'besten dank', 'ok danke'],
    howAreYou: ['wie geht es ihnen', 'wie geht es dir', 'wie gehts', "wie geht's"],
    help: ['hilfe', 'helfen sie mir', 'was muss ich tun', 'was soll ich tun', 'was muss ich machen', 'was soll ich machen', 'was jetzt', 'ich verstehe nicht', 'ich verstehe das nicht', 'wie funktioniert das', 'was brauchen sie', 'was wollen sie', 'ich weiß nicht was ich tun soll', 'was soll ich eingeben', 'können sie mir helfen', 'ich brauche hilfe'],
    back: ['zurück', 'geh zurück', 'gehen sie zurück', 'einen schritt zurück', 'zurückgehen', 'vorheriger schritt', 'rückgängig'],
    lookUp: ['nachsehen', 'nachschauen', 'nachgucken', 'suchen', 'heraussuchen', 'raussuchen', 'schauen sie nach', 'sehen sie nach'],
  },
  say: {
    sorry: 'Entschuldigung.',
    stillThere: 'Sind Sie noch da?',
    useScreen: 'Sie können auch den Bildschirm benutzen.',
    yesOrNo: 'Entschuldigung, war das ein Ja oder ein Nein?',
    notCaught: 'Entschuldigung, das habe ich nicht verstanden.',
    allRight: 'In Ordnung.',
    thankYou: 'Vielen Dank.',
    thanks: 'Danke.',
    gotIt: 'Verstanden.',
    done: 'Erledigt.',
    wontDo: 'In Ordnung, dann mache ich das nicht.',
    couldNot: 'Das hat leider nicht geklappt.',
    looksWrong: 'Entschuldigung, das sieht nicht richtig aus.',
    oneMoment: 'Einen Moment bitte.',
    allCorrect: 'Stimmt alles?',
    agree: 'Sind Sie einverstanden?',
    whatToChange: 'Was möchten Sie ändern?',
    goodbye: 'Vielen Dank. Auf Wiedersehen!',
    hello: 'Guten Tag!',
    welcome: 'Gern geschehen.',
    fine: 'Danke, gut.',
    takeYourTime: 'Kein Problem, lassen Sie sich Zeit.',
    howTo: {
      form: 'Sie können es mir sagen oder in das Feld auf dem Bildschirm tippen.',
      options: 'Sie können eine der Möglichkeiten nennen oder sie auf dem Bildschirm antippen.',
      card: 'Sie können eine Schaltfläche auf dem Bildschirm antippen oder mir sagen, was Sie möchten.',
    },
    needFirst: (items) => `Zuerst brauche ich noch: ${items}.`,
    cannotGoBack: 'Das kann ich von hier aus leider nicht ändern.',
    kept: 'Danke, das merke ich mir.',
    startOver: 'Um neu zu beginnen, tippen Sie auf „Neu beginnen“.',
    goAhead: (summary) => `${summary}. Soll ich fortfahren?`,
    heard: (values) => `Ich habe ${list('conjunction')(values)} verstanden. Stimmt das?`,
    have: (items) => `Ich habe notiert: ${items.map(([l, v]) => `${l} ${v}`).join(', ')}.`,
    ask: (what) => {
      const count = /^Anzahl\s+(?:der|an)\s+(.+)$/i.exec(what)?.[1];
      return count === undefined ? `Wie lautet ${your(what)} ${what}?` : `Wie viele ${count}?`;
    },
    youCanSay: (items) => `Sie können ${items} sagen.`,
    choose: (items) => `Bitte wählen Sie: ${items}.`,
    notThese: (items) => `In Ordnung, nicht ${items}.`,
    future: (date) => `Entschuldigung, der ${date} liegt in der Zukunft.`,
    noSuchDay: (month, days) => `Entschuldigung, der ${month} hat nur ${days} Tage.`,
    changeHint: (button) => `Um etwas zu ändern, tippen Sie auf „${button}“.`,
    goOnHint: (button) => `Um fortzufahren, tippen Sie auf „${button}“.`,
    farewell: (name) => `Auf Wiedersehen, ${name}!`,
    mentioned: (quote) => `Sie sagten vorhin: „${quote}“.`,
    nowSpeaking: 'Gern, ab jetzt spreche ich Deutsch.',
    alreadySpeaking: 'Wir sprechen bereits Deutsch.',
    onlySpeak: (items) => `Entschuldigung, hier kann ich nur ${items} sprechen.`,
    label,
    phoneLabel: (text) => (/nummer/i.test(text) || /\s/.test(text) ? text : `${text}nummer`),
    orList: list('disjunction'),
    andList: list('conjunction'),
  },
};
