// French for the offline assistant: how visitors say numbers ("soixante-dix-sept", "le premier"),
// dates ("le 5 mars 1984"), times ("quatorze heures trente", "dix heures et demie"), names ("je
// m'appelle …") and emails, and what the assistant says back, with vous.

import type { Language } from './language.ts';

/** The narrow no-break space French puts before ? ! : ; and inside « ». */
const NB = '\u202f';

const CARDINALS: Readonly<Record<string, number>> = {
  zéro: 0, un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11,
  douze: 12, treize: 13, quatorze: 14, quinze: 15, seize: 16, vingt: 20, vingts: 20, trente: 30, quarante: 40,
  cinquante: 50, soixante: 60, septante: 70, huitante: 80, octante: 80, nonante: 90,
};

const CARDINAL_OF: ReadonlyMap<string, number> = new Map(Object.entries(CARDINALS));

/** "cinquième" → 5: the number before "-ième"; "premier" and "unième" apart. */
function ordinal(word: string): number | undefined {
  if (word === 'premier' || word === 'premiere' || word === '1er') return 1;
  if (word === 'second' || word === 'seconde') return 2;
  const stem = /^(.+)ieme$/.exec(word)?.[1];
  if (stem === undefined) return undefined;
  const special = new Map([['un', 1], ['cinqu', 5], ['neuv', 9]]).get(stem);
  if (special !== undefined) return special;
  const value = CARDINAL_OF.get(stem) ?? CARDINAL_OF.get(`${stem}e`);
  return value !== undefined && value > 0 ? value : undefined;
}

/** "Adresse e-mail :" → "adresse e-mail"; words in capitals are kept. */
function label(text: string): string {
  const t = text.trim().replace(/\s*[:?]\s*$/, '').replace(/^(?:votre|vos)\s+/i, '');
  return /^\p{Lu}\p{Ll}/u.test(t) ? t[0]!.toLowerCase() + t.slice(1) : t;
}

/** Prepositions that carry their article: "au" is à le. */
const CONTRACTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['au', ['a', 'le']],
  ['aux', ['a', 'les']],
  ['du', ['de', 'le']],
  ['des', ['de', 'les']],
]);

const list = (type: 'conjunction' | 'disjunction') => (items: readonly string[]) => new Intl.ListFormat('fr', { type }).format(items);

const NOT_NAMES = (
  'un une le la les des de du et mais ou pas non oui ici là bien bon bonne très déjà prêt prête fatigué fatiguée ' +
  'désolé désolée en au aux avec pour sans sur dans je tu il elle nous vous ils elles mon ma mes votre vos moi ' +
  's’il s\'il plaît merci bonjour bonsoir salut comment quoi qui où quand pourquoi quel quelle ça cela ceci voilà ' +
  'suis est es êtes sommes ai as avons avez rendez-vous rendez vous venu venue là-bas recommencer aide aider ' +
  'encore répéter annuler arrêter stop retour continuer suivant douleur mal visite aujourd’hui aujourd\'hui né née'
).split(' ');

export const FRENCH: Language = {
  code: 'fr',
  understands: 'all',
  numbers: {
    cardinals: CARDINALS,
    phrases: { 'quatre vingt': 80, 'quatre vingts': 80 },
    multipliers: { cent: 100, cents: 100, mille: 1000, mil: 1000, million: 1_000_000, millions: 1_000_000 },
    joiners: ['et'],
    tensTakingTeens: [60, 80],
    tenTakesUnits: true,
    decimalComma: true,
    ordinal,
    ordinalMark: (n) => (n === 1 ? '1er' : `${n}e`),
  },
  dates: {
    months: [
      ['janvier', 'janv'], ['février', 'févr', 'fevr'], ['mars'], ['avril', 'avr'], ['mai'], ['juin'], ['juillet', 'juil'],
      ['août', 'aout'], ['septembre', 'sept'], ['octobre', 'oct'], ['novembre', 'nov'], ['décembre', 'déc', 'dec'],
    ],
    patterns: ['(?:le\\s+)?DAY(?:er|e|eme)?\\s+MONTH(?:\\s+YEAR)?'],
    articles: ['le'],
    capitalMonths: false,
    dayAlone: 'le\\s+DAY(?:er|e)?',
  },
  times: {
    readers: [
      ['(\\d{1,2})\\s*(?:h|heures?)\\s+et\\s+demie(?!\\p{L})', (m) => ({ h: Number(m[1]), min: 30 })],
      ['(\\d{1,2})\\s*(?:h|heures?)\\s+et\\s+quart(?!\\p{L})', (m) => ({ h: Number(m[1]), min: 15 })],
      ['(\\d{1,2})\\s*(?:h|heures?)\\s+moins\\s+(?:le\\s+)?quart(?!\\p{L})', (m) => ({ h: Number(m[1]) === 0 ? 23 : Number(m[1]) - 1, min: 45 })],
      ['(\\d{1,2})\\s*(?:h|heures?)(?:\\s*(\\d{1,2}))?(?![\\p{L}\\d])', (m) => ({ h: Number(m[1]), min: Number(m[2] ?? 0) })],
      ['(?<!\\p{L})midi(?!\\p{L})', () => ({ h: 12, min: 0 })],
      ['(?<!\\p{L})minuit(?!\\p{L})', () => ({ h: 0, min: 0 })],
    ],
  },
  email: { at: ['arobase', 'at'], dot: ['point'], underscore: ['tiret bas', 'underscore'], dash: ['tiret'], plus: ['plus'] },
  names: {
    leads: [
      "je m'appelle", 'je me nomme', 'mon nom est', "mon nom c'est", 'mon prénom est', "mon prénom c'est",
      'mon nom de famille est', 'appelez-moi', 'appelez moi', 'vous pouvez m’appeler', "vous pouvez m'appeler",
    ],
    weakLeads: ['je suis', "moi c'est", "c'est", 'ici'],
    titles: ['monsieur', 'madame', 'mademoiselle', 'm', 'mme', 'mlle', 'dr', 'docteur', 'pr', 'professeur', 'maître'],
    notNames: NOT_NAMES,
  },
  clauses: {
    negators: ['ne', 'pas', 'jamais', 'aucun', 'aucune', 'sans', 'ni', 'sauf', 'déteste'],
    negatorStarts: ["n'"],
    negatingPairs: ['plutôt que', 'au lieu', 'à la place'],
    denyRightBefore: [],
    clauseStarts: ['mais', 'donc', 'plutôt', 'finalement', 'alors', 'enfin', 'pardon', 'attendez', 'peut'],
    corrections: ['non', 'plutôt', 'pardon', 'enfin', 'attendez', 'dire', 'finalement', 'désolé'],
  },
  choices: {
    expand: (word) => {
      const m = /^(l|d|j|qu|c|s|n|m|t)'(.+)$/.exec(word);
      if (m) return [`${m[1]}'`, m[2]!];
      return CONTRACTIONS.get(word);
    },
    titleWords: { docteur: 'dr', professeur: 'pr', monsieur: 'm', madame: 'mme' },
    smallWords: "un une le la les de du des et ou au aux a en pour avec par sur dans je j' l' d' c' qu' s' n' m' mon ma mes est suis oui non pas ne s'il plait dr m mme pr".split(' '),
  },
  bare: {
    fillers: ['euh', 'heu', 'hum', 'bon', 'alors', 'ben', 'bah', 'ok', 'oui', 'voilà', 'eh bien'],
    leadIns: ["c'est", 'ce serait', 'je dirais', 'je pense', 'je crois', 'ma réponse est'],
    tails: ["s'il vous plaît", "s'il te plaît", 'svp', 'merci', 'merci beaucoup'],
    questionStarts: ['que', 'quoi', 'qui', 'où', 'quand', 'comment', 'pourquoi', 'quel', 'quelle', 'quels', 'quelles', 'est-ce', 'pouvez', 'puis', 'peut-on', 'combien'],
  },
  change: ['changer', 'modifier', 'corriger', 'correction', 'faux', 'fausse', 'erreur', 'retour', 'revenir'],
  startOver: ['recommencer', 'tout recommencer', 'depuis le début', 'reprendre depuis le début', 'reprendre à zéro', 'réinitialiser'],
  statements: ['je', "j'ai", 'mon', 'ma', 'mes', 'moi', 'nous', 'notre', 'ai', 'besoin', 'veux', 'voudrais', 'viens', 'suis', 'parce'],
  birth: ['naissance', 'né', 'née'],
  requests: {
    speak: ['parler', 'parlez', 'parle', 'parles', 'passer', 'langue'],
    inLanguage: ['en'],
    please: ["s'il vous plaît", 'svp', 'merci'],
  },
  talk: {
    corrections: ['attendez', 'attends', 'pardon', 'désolé', 'désolée', 'en fait', 'je veux dire', 'je voulais dire', 'plutôt', 'oups', 'correction', 'finalement', 'excusez-moi'],
    spelling: "(?:avec|ça s'ecrit avec|ca s'ecrit avec)\\s+(?:un|une|un\\s+seul|une\\s+seule|deux|trois|double)\\s+[a-z](?![a-z])(?:\\s+(?:a\\s+la\\s+fin|au\\s+debut|au\\s+milieu))?",
    spelled: ["ça s'écrit", "ca s'ecrit", "ça s'épelle", 'épelé', 'je l’épelle', "je l'épelle"],
    between: ['et', 'né', 'née', 'né le', 'née le', 'je suis né le', 'je suis née le', 'date de naissance', 'nom', 'e-mail', 'mail', 'courriel', 'adresse'],
    surname: ['nom de famille', 'nom'],
    firstName: ['prénom'],
    greetings: ['bonjour', 'bonsoir', 'salut', 'coucou', 'bonjour madame', 'bonjour monsieur'],
    thanks: ['merci', 'merci beaucoup', 'merci bien', 'je vous remercie', 'merci infiniment', 'ok merci', 'super merci'],
    howAreYou: ['comment allez-vous', 'comment allez vous', 'comment ça va', 'ça va', 'comment vas-tu'],
    help: ['aide', 'aidez-moi', 'aidez moi', 'que dois-je faire', 'que dois je faire', "qu'est-ce que je dois faire", 'je dois faire quoi', 'je ne comprends pas', 'comment ça marche', 'de quoi avez-vous besoin', 'que voulez-vous', 'je ne sais pas quoi faire', 'je ne sais pas quoi écrire', "j'ai besoin d'aide", 'pouvez-vous m’aider', "pouvez-vous m'aider"],
    back: ['retour', 'revenir', 'revenir en arrière', 'retourner', 'en arrière', 'étape précédente', "l'étape précédente", 'annuler la dernière étape'],
    lookUp: ['chercher', 'rechercher', 'vérifier', 'regarder', 'trouver'],
  },
  say: {
    sorry: 'Désolé.',
    stillThere: `Êtes-vous toujours là${NB}?`,
    useScreen: 'Vous pouvez aussi utiliser l’écran.',
    yesOrNo: `Pardon, était-ce un oui ou un non${NB}?`,
    notCaught: 'Pardon, je n’ai pas compris.',
    allRight: 'Très bien.',
    thankYou: 'Merci.',
    thanks: 'Merci.',
    gotIt: 'C’est noté.',
    done: 'C’est fait.',
    wontDo: 'Très bien, je ne le fais pas.',
    couldNot: 'Désolé, je n’ai pas pu le faire.',
    looksWrong: 'Désolé, cela ne semble pas correct.',
    oneMoment: 'Un instant, s’il vous plaît.',
    allCorrect: `Tout est-il correct${NB}?`,
    agree: `Êtes-vous d’accord${NB}?`,
    whatToChange: `Que souhaitez-vous modifier${NB}?`,
    goodbye: `Merci. Au revoir${NB}!`,
    hello: `Bonjour${NB}!`,
    welcome: 'Je vous en prie.',
    fine: 'Très bien, merci.',
    takeYourTime: 'Pas de souci, prenez votre temps.',
    howTo: {
      form: 'Vous pouvez me le dire, ou le taper dans le champ à l’écran.',
      options: 'Vous pouvez dire l’un des choix, ou le toucher à l’écran.',
      card: 'Vous pouvez appuyer sur un bouton à l’écran, ou me dire ce que vous souhaitez.',
    },
    needFirst: (items) => `Il me faut d’abord${NB}: ${items}.`,
    cannotGoBack: 'Désolé, je ne peux pas modifier cela d’ici.',
    kept: 'Merci, j’en prends note.',
    startOver: `Pour recommencer, appuyez sur «${NB}Recommencer${NB}».`,
    goAhead: (summary) => `${summary}. Voulez-vous que je continue${NB}?`,
    heard: (values) => `J’ai compris ${list('conjunction')(values)}. Est-ce correct${NB}?`,
    have: (items) => `J’ai noté ${list('conjunction')(items.map(([l, v]) => `${v} (${l})`))}.`,
    ask: (what) => {
      const count = /^nombre\s+(?:de\s+|d[’'])(.+)$/i.exec(what)?.[1];
      return count === undefined ? `Pouvez-vous m’indiquer votre ${what}${NB}?` : `Combien de ${count}${NB}?`;
    },
    youCanSay: (items) => `Vous pouvez dire ${items}.`,
    choose: (items) => `Veuillez choisir${NB}: ${items}.`,
    notThese: (items) => `Très bien, pas ${items}.`,
    future: (date) => `Désolé, le ${date} est dans le futur.`,
    noSuchDay: (month, days) => `Désolé, ${month} ne compte que ${days} jours.`,
    changeHint: (button) => `Pour modifier vos informations, appuyez sur «${NB}${button}${NB}».`,
    goOnHint: (button) => `Pour continuer, appuyez sur «${NB}${button}${NB}».`,
    farewell: (name) => `Au revoir, ${name}${NB}!`,
    mentioned: (quote) => `Vous m’avez dit tout à l’heure${NB}: «${NB}${quote}${NB}».`,
    nowSpeaking: 'Très bien, continuons en français.',
    alreadySpeaking: 'Nous parlons déjà français.',
    onlySpeak: (items) => `Désolé, ici je peux seulement parler ${items}.`,
    label,
    phoneLabel: (text) => (/num[ée]ro/i.test(text) || !/^t[ée]l[ée]phone|^portable|^mobile/i.test(text) ? text : `numéro de ${text}`),
    orList: list('disjunction'),
    andList: list('conjunction'),
  },
};
