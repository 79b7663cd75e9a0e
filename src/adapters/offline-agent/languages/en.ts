// English for the offline assistant: how visitors say numbers, dates, times, names and emails,
// and what the assistant says back.

import type { Language } from './language.ts';

const ORDINALS: ReadonlyMap<string, number> = new Map(Object.entries({
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9,
  tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15,
  sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30,
}));

const CONTRACTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ["can't", ['can', 'not']],
  ["won't", ['will', 'not']],
  ['dont', ['do', 'not']],
  ["i'm", ['i', 'am']],
]);

function suffix(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  if (!teen && n % 10 === 1) return 'st';
  if (!teen && n % 10 === 2) return 'nd';
  if (!teen && n % 10 === 3) return 'rd';
  return 'th';
}

/** "red, green or blue" (no comma before "or", as the kiosk has always said it). */
function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** "Email Address:" → "email address"; words in capitals (IELTS) are kept. */
function label(text: string): string {
  return text
    .trim()
    .replace(/[:?]\s*$/, '')
    .replace(/^your\s+/i, '')
    .split(/\s+/)
    .map((w) => (/^\p{Lu}?[\p{Ll}'’-]*$/u.test(w) ? w.toLowerCase() : w))
    .join(' ');
}

/** Common words and commands that are never a name: "I'm fine", "start over", "I have chest pain". */
const NOT_NAMES = (
  'a an the and but or so not no yes yeah just very really fine good great well okay ok sure here there ready ' +
  'sorry looking trying interested from in on at for to with about back done happy glad new called named ' +
  'going coming doing still also actually my your his her their our is was am are be been i me you ' +
  'he she we they it this that what who how why where when please thanks thank hello hi hey born aged ' +
  'email e mail phone number years year old um uh er erm hmm like maybe perhaps huh pardon wait dunno ' +
  'nothing nobody none whatever again repeat help wrong right correct incorrect mistake change ' +
  'zero one two three four five six seven ' +
  'eight nine ten eleven twelve twenty thirty forty fifty sixty seventy eighty ninety hundred ' +
  // commands a visitor may type or say at any step
  'start over restart reset cancel stop quit exit menu home continue next skip finish submit confirm begin ' +
  'go come get got have has had need needs want wants would could should can do does did make take see know ' +
  'think say said tell give show look find try ask feel leave put mean keep let speak talk use pain ' +
  'appointment check checking sign signing visit visiting today tomorrow morning afternoon evening ' +
  'only just picking collecting dropping waiting seeing meeting late early after before over up down off out'
).split(' ');

export const ENGLISH: Language = {
  code: 'en',
  understands: 'all',
  numbers: {
    cardinals: {
      zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
      ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
      seventeen: 17, eighteen: 18, nineteen: 19,
      twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
    },
    multipliers: { hundred: 100, thousand: 1000, million: 1_000_000 },
    joiners: ['and'],
    articleOnes: ['a'],
    yearPairs: true,
    repeats: { double: 2, triple: 3 },
    zeroNearDigits: ['oh'],
    plus: ['plus'],
    ordinal: (word) => ORDINALS.get(word),
    ordinalMark: (n) => `${n}${suffix(n)}`,
  },
  dates: {
    months: [
      ['january', 'jan'], ['february', 'feb'], ['march', 'mar'], ['april', 'apr'], ['may'], ['june', 'jun'],
      ['july', 'jul'], ['august', 'aug'], ['september', 'sept', 'sep'], ['october', 'oct'], ['november', 'nov'], ['december', 'dec'],
    ],
    patterns: [
      '(?:the\\s+)?DAY(?:st|nd|rd|th)?(?:\\s+of)?\\s+MONTH(?:,?\\s+YEAR)?',
      'MONTH\\s+(?:the\\s+)?DAY(?:st|nd|rd|th)?(?:,?\\s+YEAR)?',
    ],
    articles: ['the'],
    capitalMonths: true,
    dayAlone: '(?:the\\s+)?DAY(?:st|nd|rd|th)',
  },
  times: {
    readers: [
      ["(\\d{1,2})\\s*o'?clock\\b", (m) => ({ h: Number(m[1]), min: 0, spoken: `${Number(m[1])} o'clock` })],
      ['\\b(noon|midday)\\b', () => ({ h: 12, min: 0, spoken: '12 PM' })],
      ['\\bmidnight\\b', () => ({ h: 0, min: 0, spoken: 'midnight' })],
      ['\\b(half|(?:a\\s+)?quarter)\\s+(past|to)\\s+(\\d{1,2})\\b', (m) => {
        const [h, half, past] = [Number(m[3]), m[1]!.toLowerCase() === 'half', m[2]!.toLowerCase() === 'past'];
        if (half && !past) return undefined;
        return past ? { h, min: half ? 30 : 15 } : { h: h === 1 ? 12 : h - 1, min: 45 };
      }],
    ],
  },
  email: { at: ['at', 'at sign'], dot: ['dot'], underscore: ['underscore'], dash: ['dash', 'hyphen'], plus: ['plus'] },
  names: {
    leads: [
      'my name is', 'my first name is', 'my full name is', 'my last name is', 'my given name is', 'my family name is',
      "my name's", "my first name's", "my full name's", "my last name's", "name's", 'the name is', "the name's",
      'surname is', 'my surname is', 'you can call me', 'call me',
    ],
    weakLeads: ['i am', "i'm", 'im', "it's", 'it is', 'this is'],
    titles: ['dr', 'doctor', 'mr', 'mister', 'mrs', 'ms', 'miss', 'mx', 'prof', 'professor', 'sir', 'dame'],
    notNames: NOT_NAMES,
  },
  clauses: {
    negators: ['not', 'never', "don't", 'dont', "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "won't", "can't", 'cannot', 'without', 'nor', 'neither', 'except', 'hate', 'dislike'],
    negatingPairs: ['rather than', 'instead of', 'other than'],
    denyRightBefore: ['no'],
    clauseStarts: ['but', 'so', 'actually', 'maybe', 'perhaps', 'instead', 'wait', 'sorry', 'then', 'mean'],
    corrections: ['no', 'actually', 'sorry', 'wait', 'mean', 'rather', 'instead'],
  },
  choices: {
    expand: (word) => {
      const known = CONTRACTIONS.get(word);
      if (known) return known;
      return word.endsWith("n't") ? [word.slice(0, -3), 'not'] : undefined;
    },
    titleWords: { doctor: 'dr', mister: 'mr', professor: 'prof', saint: 'st' },
    smallWords: 'a an the of in on at to for and or with by my your our i me is am are be it this that no not yes please dr mr mrs ms miss mx prof st sir'.split(' '),
  },
  bare: {
    fillers: ['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'hmm', 'well', 'oh', 'so', 'okay', 'ok', 'right', 'yes', 'yeah', 'sure'],
    leadIns: ["it's", 'it is', "that's", 'that is', 'my answer is', "i'd say", 'i think', 'i guess'],
    tails: ['please', 'thanks', 'thank you'],
    questionStarts: ['what', 'why', 'how', 'who', 'where', 'when', 'which', 'can', 'could', 'would', 'will', 'is', 'are', 'do', 'does', 'did', 'should'],
  },
  change: ['change', 'edit', 'correct', 'correction', 'fix', 'wrong', 'mistake', 'update', 'amend', 'back'],
  startOver: ['start over', 'start again', 'restart', 'begin again', 'start from the beginning', 'from the beginning', 'start from scratch', 'reset'],
  statements: ['i', "i'm", 'im', "i've", "i'd", 'my', 'me', 'we', "we're", 'our', 'have', 'has', 'need', 'want', 'came', 'here', 'because'],
  birth: ['birth', 'birthday', 'birthdate', 'dob', 'born'],
  requests: {
    speak: ['speak', 'talk', 'switch', 'change', 'language'],
    inLanguage: ['in'],
    please: ['please', 'thanks'],
  },
  talk: {
    corrections: ['wait', 'hold on', 'sorry', 'actually', 'oops', 'i mean', 'i meant', 'my mistake', 'my bad', 'correction', 'scratch that', 'rather'],
    spelling: "(?:with|it'?s)\\s+(?:an?|one|two|three|double|a\\s+double|one\\s+single|a\\s+single|only\\s+one)\\s+[a-z](?:'?s)?(?:\\s+(?:at\\s+the\\s+(?:end|start|beginning)|in\\s+the\\s+middle))?(?:\\s+not\\s+(?:an?|one|two)\\s+[a-z](?:'?s)?)?",
    spelled: ['spelled', 'spelt', "it's spelled", 'it is spelled', "that's spelled", 'spelling'],
    between: ['and', 'born', 'born on', 'born in', 'i was born', 'i was born on', 'birthday', 'my birthday is', 'date of birth', 'dob', 'name', 'email', 'my email is', 'e-mail'],
    surname: ['surname', 'last name', 'family name', 'second name'],
    firstName: ['first name', 'given name', 'christian name'],
    greetings: ['hello', 'hi', 'hey', 'hi there', 'hello there', 'good morning', 'good afternoon', 'good evening', 'hiya', 'howdy'],
    thanks: ['thanks', 'thank you', 'thanks a lot', 'thank you very much', 'thanks so much', 'cheers', 'many thanks', 'great thanks', 'ok thanks', 'ok thank you'],
    howAreYou: ['how are you', "how's it going", 'how are you doing', 'how do you do'],
    help: ['help', 'help me', 'what do i do', 'what should i do', 'what do i need to do', 'what now', 'i don\'t understand', 'i dont understand', "i'm confused", 'how does this work', 'what do you need', 'what do you want', "i don't know what to do", "i don't know what to type", "i don't know what to say", 'what do i type', 'what is this', 'what do i do here', 'can you help me', 'i need help'],
    back: ['go back', 'back', 'previous', 'previous step', 'the step before', 'back a step', 'go back a step', 'undo'],
    lookUp: ['look it up', 'look up', 'look me up', 'find it', 'find me', 'find my', 'search', 'check for me', 'can you check'],
  },
  say: {
    sorry: 'Sorry about that.',
    stillThere: 'Are you still there?',
    useScreen: 'You can also use the screen.',
    yesOrNo: 'Sorry, was that a yes or a no?',
    notCaught: "Sorry, I didn't catch that.",
    allRight: 'All right.',
    thankYou: 'Thank you.',
    thanks: 'Thanks.',
    gotIt: 'Got it.',
    done: 'Done.',
    wontDo: "All right, I won't do that.",
    couldNot: "Sorry, I couldn't do that.",
    looksWrong: "Sorry, that doesn't look right.",
    oneMoment: 'One moment, please.',
    allCorrect: 'Is that all correct?',
    agree: 'Do you agree?',
    whatToChange: 'What would you like to change?',
    goodbye: 'Thank you. Goodbye!',
    hello: 'Hello!',
    welcome: "You're welcome.",
    fine: "I'm well, thank you.",
    takeYourTime: 'No problem, take your time.',
    howTo: {
      form: 'You can tell me, or type it in the box on the screen.',
      options: 'You can say one of the choices, or tap it on the screen.',
      card: "You can tap a button on the screen, or tell me what you'd like.",
    },
    needFirst: (list) => `First I need your ${list}.`,
    cannotGoBack: "Sorry, I can't change that from here.",
    kept: "Thank you, I'll keep that in mind.",
    startOver: 'To start over, tap “Start over”.',
    goAhead: (summary) => `${summary}. Shall I go ahead?`,
    heard: (values) => `I heard ${values.join(' and ')}. Is that right?`,
    have: (items) => `I have ${items.map(([l, v]) => `${l}: ${v}`).join(', ')}.`,
    ask: (what) => {
      const count = /^number of (.+)$/i.exec(what)?.[1];
      return count === undefined ? `What's your ${what}?` : `How many ${count}?`;
    },
    youCanSay: (list) => `You can say ${list}.`,
    choose: (list) => `Please choose: ${list}.`,
    notThese: (list) => `All right, not ${list}.`,
    future: (date) => `Sorry, ${date} is in the future.`,
    noSuchDay: (month, days) => `Sorry, ${month} has only ${days} days.`,
    changeHint: (button) => `To make changes, tap “${button}”.`,
    goOnHint: (button) => `To go on, tap “${button}”.`,
    farewell: (name) => `Goodbye, ${name}!`,
    mentioned: (quote) => `You told me earlier: “${quote}”.`,
    nowSpeaking: "All right, let's go on in English.",
    alreadySpeaking: "We're speaking English already.",
    onlySpeak: (list) => `Sorry, here I can only speak ${list}.`,
    label,
    phoneLabel: (text) => (/number/i.test(text) ? text : `${text} number`),
    orList,
    andList: (items) => items.join(' and '),
  },
};
