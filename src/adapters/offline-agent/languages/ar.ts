// Arabic for the offline assistant: yes and no (the engine's words), choices by their label, and
// values typed in digits (a phone number, a number, 05/03/1984, an email); everything else is
// left to tapping and typing, which the assistant says plainly. Its words address the visitor
// without assuming their gender, as the kiosk's Arabic screens do.

import type { Language } from './language.ts';

/** "The" and what sticks to its front ("and the", "with the", "for the"): "والأزرق" is "أزرق". */
const ARTICLE = /^(?:و|ف)?(?:بال|كال|فال|لل|ال)(?=\p{L}{2})/u;

/** A word without "the" and what sticks to it ("والأزرق" → "ازرق"). */
function bareWord(word: string): string {
  return word.replace(ARTICLE, '');
}

const list = (type: 'conjunction' | 'disjunction') => (items: readonly string[]) => new Intl.ListFormat('ar', { type }).format(items);

export const ARABIC: Language = {
  code: 'ar',
  understands: 'answers',
  numbers: { cardinals: {}, multipliers: {}, joiners: [], ordinal: () => undefined, ordinalMark: (n) => String(n) },
  dates: { months: [[], [], [], [], [], [], [], [], [], [], [], []], patterns: [], articles: [], capitalMonths: false },
  times: { readers: [] },
  email: { at: ['@'], dot: ['.'], underscore: ['_'], dash: ['-'], plus: ['+'] },
  names: { leads: ['اسمي', 'اسمي هو', 'انا اسمي', 'أنا اسمي', 'إسمي'], weakLeads: ['أنا', 'انا'], titles: ['السيد', 'السيدة', 'الدكتور', 'الدكتورة', 'د'], notNames: ['من', 'في', 'هنا', 'لا', 'نعم', 'و', 'هو', 'هي', 'أريد', 'اريد', 'بخير', 'آسف', 'اسف', 'عفوا', 'شكرا', 'مرحبا', 'هل', 'ماذا', 'جئت', 'لدي', 'عندي', 'موعد', 'لأ'] },
  clauses: {
    negators: ['لا', 'ليس', 'ليست', 'مش', 'مو', 'بدون', 'غير', 'ما'],
    negatingPairs: ['بدلا من'],
    denyRightBefore: [],
    clauseStarts: ['لكن', 'بل', 'ولكن'],
    corrections: ['لا', 'بل', 'عفوا', 'آسف'],
  },
  choices: {
    expand: (word) => {
      const bare = bareWord(word);
      return bare === word ? undefined : [bare];
    },
    titleWords: { دكتور: 'د', الدكتور: 'د', الدكتوره: 'د', دكتوره: 'د' },
    smallWords: ['في', 'من', 'على', 'إلى', 'الى', 'عن', 'مع', 'أنا', 'انا', 'هذا', 'هذه', 'نعم', 'لا', 'أريد', 'اريد', 'من فضلك', 'د'],
  },
  bare: { fillers: [], leadIns: [], tails: [], questionStarts: ['ماذا', 'ما', 'من', 'أين', 'متى', 'لماذا', 'كيف', 'هل'] },
  change: ['تغيير', 'غير', 'تعديل', 'عدل', 'تصحيح', 'صحح', 'خطأ', 'غلط', 'رجوع'],
  startOver: ['البدء من جديد', 'ابدأ من جديد', 'من جديد', 'من البداية', 'إعادة البدء'],
  statements: [],
  birth: ['الميلاد', 'ميلاد'],
  requests: {
    speak: ['تكلم', 'تتكلم', 'نتكلم', 'تحدث', 'تتحدث', 'نتحدث', 'اللغه', 'لغه'],
    inLanguage: [],
    please: ['من فضلك', 'لو سمحت', 'رجاء', 'شكرا'],
    names: { عربي: 'ar', عربيه: 'ar', انجليزي: 'en', انكليزي: 'en', انجليزيه: 'en', الماني: 'de', المانيه: 'de', فرنسي: 'fr', فرنساوي: 'fr', فرنسيه: 'fr', اسباني: 'es', اسبانيه: 'es' },
  },
  talk: {
    corrections: ['لحظة', 'انتظر', 'عفوا', 'عفوًا', 'آسف', 'اسف', 'آسفة', 'اسفة', 'أقصد', 'اقصد', 'قصدي', 'بالأحرى', 'في الحقيقة'],
    spelling: '(?!)',
    spelled: [],
    between: ['و', 'تاريخ الميلاد', 'الاسم', 'البريد الإلكتروني', 'البريد'],
    surname: ['اسم العائلة', 'الكنية', 'اللقب'],
    firstName: ['الاسم الأول', 'اسمي الأول'],
    greetings: ['مرحبا', 'مرحبًا', 'أهلا', 'اهلا', 'السلام عليكم', 'صباح الخير', 'مساء الخير', 'هلا'],
    thanks: ['شكرا', 'شكرًا', 'شكرا جزيلا', 'شكرًا جزيلًا', 'مشكور', 'يعطيك العافية'],
    howAreYou: ['كيف حالك', 'كيفك', 'شلونك', 'ازيك'],
    help: ['مساعدة', 'ساعدني', 'ساعدوني', 'ماذا أفعل', 'ماذا افعل', 'ماذا علي أن أفعل', 'لا أفهم', 'لا افهم', 'كيف يعمل هذا', 'أحتاج مساعدة', 'احتاج مساعدة'],
    back: ['رجوع', 'ارجع', 'الرجوع', 'عودة', 'العودة', 'الخطوة السابقة'],
    lookUp: ['ابحث', 'البحث', 'ابحث عن', 'تحقق'],
  },
  say: {
    sorry: 'عذرًا.',
    stillThere: 'هل ما زلت هنا؟',
    useScreen: 'يمكن أيضًا استخدام الشاشة.',
    yesOrNo: 'عذرًا، هل كانت الإجابة نعم أم لا؟',
    notCaught: 'عذرًا، لم أفهم ذلك. يمكن استخدام الشاشة: الضغط على الخيارات والأزرار، أو الكتابة في الحقول.',
    allRight: 'حسنًا.',
    thankYou: 'شكرًا.',
    thanks: 'شكرًا.',
    gotIt: 'تم.',
    done: 'تم ذلك.',
    wontDo: 'حسنًا، لن أفعل ذلك.',
    couldNot: 'عذرًا، لم أتمكن من ذلك.',
    looksWrong: 'عذرًا، يبدو أن هذا غير صحيح.',
    oneMoment: 'لحظة من فضلك.',
    allCorrect: 'هل كل شيء صحيح؟',
    agree: 'هل توافق على ذلك؟',
    whatToChange: 'ما الذي تود تغييره؟',
    goodbye: 'شكرًا. مع السلامة!',
    hello: 'مرحبًا!',
    welcome: 'عفوًا.',
    fine: 'بخير، شكرًا.',
    takeYourTime: 'لا بأس، لا داعي للعجلة.',
    howTo: {
      form: 'يمكن الكتابة في الخانة على الشاشة.',
      options: 'يمكن اختيار أحد الخيارات أو الضغط عليه على الشاشة.',
      card: 'يمكن الضغط على زر على الشاشة.',
    },
    needFirst: (items) => `أحتاج أولًا إلى: ${items}.`,
    cannotGoBack: 'عذرًا، لا يمكنني تغيير ذلك من هنا.',
    kept: 'شكرًا.',
    startOver: 'للبدء من جديد، يُرجى الضغط على «البدء من جديد».',
    goAhead: (summary) => `${summary}. هل أتابع؟`,
    heard: (values) => `سمعت ${list('conjunction')(values)}. هل هذا صحيح؟`,
    have: (items) => `لدي: ${items.map(([l, v]) => `${l}: ${v}`).join('، ')}.`,
    ask: (what) => `يُرجى كتابة ${what} في الخانة على الشاشة.`,
    youCanSay: (items) => `يمكن اختيار ${items}.`,
    choose: (items) => `يُرجى الاختيار: ${items}.`,
    notThese: (items) => `حسنًا، ليس ${items}.`,
    future: (date) => `عذرًا، ${date} تاريخ في المستقبل.`,
    noSuchDay: (month, days) => `عذرًا، ${month} فيه ${days} يومًا فقط.`,
    changeHint: (button) => `لإجراء تغييرات، يُرجى الضغط على «${button}».`,
    goOnHint: (button) => `للمتابعة، يُرجى الضغط على «${button}».`,
    farewell: (name) => `مع السلامة يا ${name}!`,
    mentioned: (quote) => `ذُكر سابقًا: «${quote}».`,
    nowSpeaking: 'حسنًا، سنتابع بالعربية.',
    alreadySpeaking: 'نحن نتحدث بالعربية بالفعل.',
    onlySpeak: (items) => `عذرًا، يمكنني التحدث هنا ب${items} فقط.`,
    label: (text) => text.trim().replace(/\s*[:؟?]\s*$/, ''),
    phoneLabel: (text) => text,
    orList: list('disjunction'),
    andList: list('conjunction'),
  },
};
