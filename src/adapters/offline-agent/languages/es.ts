// Spanish for the offline assistant: how visitors say numbers ("treinta y uno", "mil novecientos
// ochenta y cuatro"), dates ("5 de marzo de 1984"), times ("las diez y media"), names ("me llamo
// …") and emails, and what the assistant says back, with usted.

import type { Language } from './language.ts';

const CARDINALS: Readonly<Record<string, number>> = {
  cero: 0, un: 1, uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10,
  once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciséis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19,
  veinte: 20, veintiuno: 21, veintiún: 21, veintiuna: 21, veintidós: 22, veintitrés: 23, veinticuatro: 24,
  veinticinco: 25, veintiséis: 26, veintisiete: 27, veintiocho: 28, veintinueve: 29, treinta: 30, cuarenta: 40,
  cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90, cien: 100, ciento: 100, doscientos: 200,
  doscientas: 200, trescientos: 300, trescientas: 300, cuatrocientos: 400, cuatrocientas: 400, quinientos: 500,
  quinientas: 500, seiscientos: 600, seiscientas: 600, setecientos: 700, setecientas: 700, ochocientos: 800,
  ochocientas: 800, novecientos: 900, novecientas: 900,
};

/** "Correo electrónico:" → "correo electrónico"; words in capitals are kept. */
function label(text: string): string {
  const t = text.trim().replace(/^[¿]/, '').replace(/\s*[:?]\s*$/, '').replace(/^(?:su|sus)\s+/i, '');
  return /^\p{Lu}\p{Ll}/u.test(t) ? t[0]!.toLowerCase() + t.slice(1) : t;
}

/** Prepositions that carry their article: "del" is de el. */
const CONTRACTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['del', ['de', 'el']],
  ['al', ['a', 'el']],
]);

/** "Número de personas" asks how many, not for "your number of people"; a phone or document number is the visitor's own. */
const COUNT = /^(?:número|cantidad)\s+de\s+(?!tel[ée]fono|m[óo]vil|celular|documento|pasaporte|identificaci[óo]n|cuenta|socio|cliente)/i;

const list = (type: 'conjunction' | 'disjunction') => (items: readonly string[]) => new Intl.ListFormat('es', { type }).format(items);

const NOT_NAMES = (
  'un una el la los las de del al y pero o no sí si aquí allí ahí bien muy ya listo lista cansado cansada en con ' +
  'para por sin yo tú él ella nosotros usted mi mis su sus favor gracias hola buenos buenas días tardes noches qué ' +
  'quién dónde cuándo cómo cuál soy es eres somos son estoy está tengo tiene vengo vine quiero necesito cita ' +
  'ayuda empezar nuevo otra vez repetir cancelar parar volver atrás seguir siguiente dolor visita hoy perdón vale ' +
  'correcto correcta incorrecto incorrecta verdad cierto eso esto mío mía todo nada'
).split(' ');

export const SPANISH: Language = {
  code: 'es',
  understands: 'all',
  numbers: {
    cardinals: CARDINALS,
    multipliers: { mil: 1000, millón: 1_000_000, millon: 1_000_000, millones: 1_000_000 },
    joiners: ['y'],
    decimalComma: true,
    ordinal: (word) => (word === 'primero' || word === 'primer' || word === 'primera' ? 1 : undefined),
    ordinalMark: (n) => `${n}º`,
  },
  dates: {
    months: [
      ['enero', 'ene'], ['febrero', 'feb'], ['marzo', 'mar'], ['abril', 'abr'], ['mayo', 'may'], ['junio', 'jun'],
      ['julio', 'jul'], ['agosto', 'ago'], ['septiembre', 'setiembre', 'sept', 'sep'], ['octubre', 'oct'],
      ['noviembre', 'nov'], ['diciembre', 'dic'],
    ],
    patterns: ['(?:el\\s+)?DAY[º°ª]?\\s+(?:de\\s+)?MONTH(?:\\s+(?:de|del)\\s+YEAR|\\s+YEAR)?'],
    articles: ['el'],
    capitalMonths: false,
    dayAlone: '(?:el\\s+)(?:d[ií]a\\s+)?DAY[º°ª]?',
  },
  times: {
    readers: [
      ['(?<!\\p{L})(?:a\\s+)?las?\\s+(\\d{1,2})\\s+y\\s+media(?!\\p{L})', (m) => ({ h: Number(m[1]), min: 30 })],
      ['(?<!\\p{L})(?:a\\s+)?las?\\s+(\\d{1,2})\\s+y\\s+cuarto(?!\\p{L})', (m) => ({ h: Number(m[1]), min: 15 })],
      ['(?<!\\p{L})(?:a\\s+)?las?\\s+(\\d{1,2})\\s+menos\\s+cuarto(?!\\p{L})', (m) => ({ h: Number(m[1]) === 1 ? 12 : Number(m[1]) - 1, min: 45 })],
      ['(?<!\\p{L})(?:a\\s+)?las?\\s+(\\d{1,2})(?:\\s+y\\s+(\\d{1,2}))?(?:\\s+de\\s+la\\s+(tarde|noche))?(?![\\p{L}\\d:])', (m) => {
        const h = Number(m[1]);
        const later = m[3] !== undefined && h >= 1 && h < 12;
        return { h: later ? h + 12 : h, min: Number(m[2] ?? 0) };
      }],
      ['(?<!\\p{L})(\\d{1,2})\\s+y\\s+media(?!\\p{L})', (m) => ({ h: Number(m[1]), min: 30 })],
      ['(?<!\\p{L})mediodia(?!\\p{L})', () => ({ h: 12, min: 0 })],
      ['(?<!\\p{L})medianoche(?!\\p{L})', () => ({ h: 0, min: 0 })],
    ],
  },
  email: { at: ['arroba'], dot: ['punto'], underscore: ['guion bajo', 'guión bajo'], dash: ['guion', 'guión'], plus: ['más'] },
  names: {
    leads: ['me llamo', 'mi nombre es', 'mi apellido es', 'mi nombre completo es', 'llámeme', 'llameme', 'puede llamarme'],
    weakLeads: ['soy', 'yo soy', 'es', 'aquí'],
    titles: ['señor', 'señora', 'señorita', 'sr', 'sra', 'srta', 'don', 'doña', 'dr', 'dra', 'doctor', 'doctora', 'profesor', 'profesora'],
    notNames: NOT_NAMES,
  },
  clauses: {
    negators: ['no', 'nunca', 'jamás', 'sin', 'ni', 'ningún', 'ninguna', 'ninguno', 'excepto', 'salvo', 'odio'],
    negatingPairs: ['en vez', 'en lugar'],
    denyRightBefore: [],
    clauseStarts: ['pero', 'sino', 'mejor', 'entonces', 'quizás', 'quizá', 'bueno', 'perdón', 'espera'],
    corrections: ['no', 'mejor', 'perdón', 'digo', 'espera', 'decir', 'sino'],
  },
  choices: {
    expand: (word) => CONTRACTIONS.get(word),
    titleWords: { doctor: 'dr', doctora: 'dra', señor: 'sr', señora: 'sra', profesor: 'prof' },
    smallWords: 'un una el la los las de y o a en con para por mi mis su es soy sí si no favor dr dra sr sra prof'.split(' '),
  },
  bare: {
    fillers: ['eh', 'em', 'mm', 'mmm', 'pues', 'bueno', 'vale', 'sí', 'este', 'ok'],
    leadIns: ['es', 'son', 'sería', 'diría', 'creo que', 'pienso que', 'mi respuesta es'],
    tails: ['por favor', 'gracias', 'muchas gracias'],
    questionStarts: ['qué', 'quién', 'dónde', 'cuándo', 'cómo', 'por qué', 'cuál', 'cuáles', 'puede', 'puedo', 'podría', 'hay'],
  },
  change: ['cambiar', 'cambio', 'modificar', 'corregir', 'corrección', 'mal', 'error', 'equivocado', 'equivocada', 'volver', 'atrás', 'editar'],
  startOver: ['empezar de nuevo', 'volver a empezar', 'comenzar de nuevo', 'desde el principio', 'reiniciar', 'empezar otra vez'],
  statements: ['yo', 'mi', 'mis', 'me', 'tengo', 'necesito', 'quiero', 'vengo', 'vine', 'estoy', 'soy', 'porque', 'nosotros', 'nuestro', 'nuestra'],
  birth: ['nacimiento', 'nacido', 'nacida', 'nací'],
  requests: {
    speak: ['hablar', 'hablo', 'hablas', 'habla', 'hable', 'hablamos', 'cambiar', 'idioma'],
    inLanguage: ['en'],
    please: ['por favor', 'gracias'],
    names: { castellano: 'es' },
  },
  talk: {
    corrections: ['espera', 'espere', 'un momento', 'perdón', 'perdone', 'disculpe', 'lo siento', 'en realidad', 'quiero decir', 'quise decir', 'digo', 'mejor dicho', 'corrijo', 'uy'],
    spelling: '(?:con|se\\s+escribe\\s+con)\\s+(?:una|una\\s+sola|dos|tres|doble)\\s+[a-z](?![a-z])(?:\\s+(?:al\\s+final|al\\s+principio|en\\s+medio))?',
    spelled: ['se escribe', 'deletreado', 'lo deletreo'],
    between: ['y', 'nacido', 'nacida', 'nacido el', 'nacida el', 'nací el', 'fecha de nacimiento', 'nombre', 'correo', 'email', 'mi correo es'],
    surname: ['apellido', 'primer apellido', 'segundo apellido'],
    firstName: ['nombre de pila', 'nombre'],
    greetings: ['hola', 'buenos días', 'buenas tardes', 'buenas noches', 'buenas', 'qué tal'],
    thanks: ['gracias', 'muchas gracias', 'mil gracias', 'se lo agradezco', 'vale gracias', 'muy amable'],
    howAreYou: ['cómo está', 'cómo estás', 'qué tal está', 'cómo le va'],
    help: ['ayuda', 'ayúdeme', 'ayudeme', 'qué tengo que hacer', 'qué hago', 'qué debo hacer', 'no entiendo', 'no lo entiendo', 'cómo funciona', 'qué necesita', 'no sé qué hacer', 'no sé qué escribir', 'necesito ayuda', 'me puede ayudar', 'puede ayudarme'],
    back: ['volver', 'volver atrás', 'atrás', 'regresar', 'paso anterior', 'el paso anterior', 'deshacer'],
    lookUp: ['buscar', 'búsquela', 'buscarla', 'consultar', 'comprobar', 'mirar'],
  },
  say: {
    sorry: 'Disculpe.',
    stillThere: '¿Sigue ahí?',
    useScreen: 'También puede usar la pantalla.',
    yesOrNo: 'Disculpe, ¿eso ha sido un sí o un no?',
    notCaught: 'Disculpe, no le he entendido.',
    allRight: 'De acuerdo.',
    thankYou: 'Gracias.',
    thanks: 'Gracias.',
    gotIt: 'Entendido.',
    done: 'Hecho.',
    wontDo: 'De acuerdo, no lo haré.',
    couldNot: 'Lo siento, no he podido hacerlo.',
    looksWrong: 'Lo siento, eso no parece correcto.',
    oneMoment: 'Un momento, por favor.',
    allCorrect: '¿Está todo correcto?',
    agree: '¿Está de acuerdo?',
    whatToChange: '¿Qué desea cambiar?',
    goodbye: 'Gracias. ¡Adiós!',
    hello: '¡Hola!',
    welcome: 'De nada.',
    fine: 'Muy bien, gracias.',
    takeYourTime: 'No se preocupe, tómese su tiempo.',
    howTo: {
      form: 'Puede decírmelo o escribirlo en el campo de la pantalla.',
      options: 'Puede decir una de las opciones o tocarla en la pantalla.',
      card: 'Puede tocar un botón de la pantalla o decirme lo que desea.',
    },
    needFirst: (items) => `Primero necesito: ${items}.`,
    cannotGoBack: 'Lo siento, eso no lo puedo cambiar desde aquí.',
    kept: 'Gracias, lo tendré en cuenta.',
    startOver: 'Para empezar de nuevo, toque «Empezar de nuevo».',
    goAhead: (summary) => `${summary}. ¿Quiere que continúe?`,
    heard: (values) => `He entendido ${list('conjunction')(values)}. ¿Es correcto?`,
    have: (items) => `He anotado ${list('conjunction')(items.map(([l, v]) => `${v} (${l})`))}.`,
    ask: (what) => (COUNT.test(what) ? `¿Cuál es el ${what}?` : `¿Cuál es su ${what}?`),
    youCanSay: (items) => `Puede decir ${items}.`,
    choose: (items) => `Elija, por favor: ${items}.`,
    notThese: (items) => `De acuerdo, ${items} no.`,
    future: (date) => `Lo siento, el ${date} es una fecha futura.`,
    noSuchDay: (month, days) => `Lo siento, ${month} solo tiene ${days} días.`,
    changeHint: (button) => `Para hacer cambios, toque «${button}».`,
    goOnHint: (button) => `Para continuar, toque «${button}».`,
    farewell: (name) => `¡Adiós, ${name}!`,
    mentioned: (quote) => `Antes me dijo: «${quote}».`,
    nowSpeaking: 'De acuerdo, seguimos en español.',
    alreadySpeaking: 'Ya estamos hablando en español.',
    onlySpeak: (items) => `Lo siento, aquí solo puedo hablar ${items}.`,
    label,
    phoneLabel: (text) => (/n[úu]mero/i.test(text) || !/^tel[ée]fono|^m[óo]vil|^celular/i.test(text) ? text : `número de ${text}`),
    orList: list('disjunction'),
    andList: list('conjunction'),
  },
};
