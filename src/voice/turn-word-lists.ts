// The words turn-words.ts reads the end of an answer by, in each language the kiosk speaks:
// those after which a visitor has plainly not finished (a hesitation, "and", "of", "my", "my
// name is"), number words (a number may still be being dictated), and the polite words that may
// follow a whole answer ("yes please"). Written as people say them; folded like the visitor's
// words (the engine's words.ts) before comparing. Yes and no come from the engine's own lists.

/** The words of one language for reading where an answer ends. */
export interface TurnWordList {
  /** hesitation sounds: "um", "äh", "euh" */
  hesitations: readonly string[];
  /**
   * words a sentence does not end on: conjunctions, articles, possessives, prepositions that
   * want their noun ("of", "at", "from"), contractions that want a word after them ("it's")
   */
  dangling: readonly string[];
  /** phrases that open an answer and want it to follow: "my name is", "I was born on" */
  leadIns: readonly string[];
  /** number words, from zero up; a number at the end may still be being dictated */
  numbers: readonly string[];
  /** words that only make a number with another before them ("hundred", "double") */
  numberParts: readonly string[];
  /** number words that also stand for a thing ("the blue one"): a number only after another number or alone */
  alsoPronouns?: readonly string[];
  /** words that may follow a whole answer without making it another ("please", "thank you") */
  polite: readonly string[];
}

const ENGLISH: TurnWordList = {
  hesitations: ['um', 'umm', 'uh', 'uhh', 'uhm', 'er', 'erm', 'hmm', 'hm', 'mm', 'mmm'],
  dangling: [
    'and', 'or', 'but', 'because', 'the', 'a', 'an', 'my', 'your', 'our', 'their', 'its', 'of', 'to', 'at', 'for', 'with',
    'from', 'by', 'about', 'than', 'into', "it's", "i'm", "that's", "there's", "he's", "she's", "we're", "they're",
    "you're", 'is', 'are', 'was', 'were', 'am', 'be',
  ],
  leadIns: [
    'my name is', 'name is', 'i am called', "i'm called", 'this is', 'it is', 'my number is', 'number is', 'my phone number is',
    'my email is', 'my email address is', 'email is', 'i was born on', 'i was born in', 'born on', 'born in', 'i am here for',
    "i'm here for", 'i am here to', "i'm here to", 'i need', 'i want', 'i would like', "i'd like", 'it was',
  ],
  numbers: [
    'zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
    'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty',
    'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'thousand',
  ],
  numberParts: ['double', 'triple', 'hundred', 'thousand', 'and'],
  alsoPronouns: ['one'],
  polite: ['please', 'thanks', 'thank you', 'thank you very much', 'thanks a lot', 'i think', 'it is', "that's right"],
};

const GERMAN: TurnWordList = {
  hesitations: ['äh', 'ähm', 'äähm', 'öh', 'öhm', 'hm', 'hmm', 'mh', 'em', 'ehm'],
  dangling: [
    'und', 'oder', 'aber', 'weil', 'dass', 'denn', 'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen',
    'einem', 'einer', 'mein', 'meine', 'meinen', 'meinem', 'meiner', 'ihr', 'ihre', 'von', 'vom', 'zu', 'zum', 'zur',
    'am', 'im', 'an', 'auf', 'für', 'mit', 'aus', 'bei', 'nach', 'über', 'unter', 'als', 'ist', 'bin', 'sind', 'war',
  ],
  leadIns: [
    'ich heiße', 'ich heisse', 'mein name ist', 'name ist', 'ich bin', 'das ist', 'es ist', 'meine nummer ist', 'nummer ist',
    'meine telefonnummer ist', 'meine handynummer ist', 'meine e-mail ist', 'meine e-mail-adresse ist', 'ich bin am',
    'geboren am', 'ich bin geboren am', 'ich wurde am', 'ich möchte', 'ich brauche', 'ich will', 'ich komme wegen',
  ],
  numbers: [
    'null', 'eins', 'zwei', 'zwo', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn', 'elf', 'zwölf',
    'dreizehn', 'vierzehn', 'fünfzehn', 'sechzehn', 'siebzehn', 'achtzehn', 'neunzehn', 'zwanzig', 'dreißig',
    'vierzig', 'fünfzig', 'sechzig', 'siebzig', 'achtzig', 'neunzig', 'hundert', 'tausend',
  ],
  numberParts: ['doppel', 'hundert', 'tausend', 'und'],
  polite: ['bitte', 'danke', 'danke schön', 'danke sehr', 'vielen dank', 'bitte schön', 'ja'],
};

const FRENCH: TurnWordList = {
  hesitations: ['euh', 'heu', 'euhh', 'hum', 'hmm', 'mmm', 'bah', 'ben'],
  dangling: [
    'et', 'ou', 'mais', 'donc', 'parce', 'que', "qu'", 'qui', 'le', 'la', 'les', "l'", 'un', 'une', 'des', 'du', 'de',
    "d'", 'à', 'au', 'aux', 'en', 'pour', 'avec', 'sur', 'dans', 'chez', 'par', 'mon', 'ma', 'mes', 'ton', 'ta', 'votre',
    'notre', 'son', 'sa', "c'est", 'est', 'suis', 'je', "j'",
  ],
  leadIns: [
    "je m'appelle", 'mon nom est', 'mon nom', "c'est", 'je suis', 'mon numéro est', 'mon numéro de téléphone est',
    'mon numéro', 'mon adresse e-mail est', 'mon e-mail est', 'je suis né le', 'je suis née le', 'né le', 'née le',
    'je voudrais', 'je veux', "j'ai besoin", "j'ai besoin de", 'je viens pour',
  ],
  numbers: [
    'zéro', 'un', 'une', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze',
    'treize', 'quatorze', 'quinze', 'seize', 'vingt', 'trente', 'quarante', 'cinquante', 'soixante', 'cent', 'cents',
    'mille', 'vingts',
  ],
  numberParts: ['double', 'triple', 'cent', 'mille', 'et'],
  polite: ["s'il vous plaît", "s'il te plaît", 'merci', 'merci beaucoup', 'volontiers'],
};

const SPANISH: TurnWordList = {
  hesitations: ['eh', 'ehh', 'em', 'emm', 'mm', 'mmm', 'este', 'esto'],
  dangling: [
    'y', 'e', 'o', 'u', 'pero', 'porque', 'que', 'el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'de', 'del', 'a',
    'al', 'en', 'con', 'para', 'por', 'sin', 'sobre', 'mi', 'mis', 'su', 'sus', 'tu', 'es', 'soy', 'son', 'era',
  ],
  leadIns: [
    'me llamo', 'mi nombre es', 'nombre es', 'soy', 'es', 'mi número es', 'mi número de teléfono es', 'mi teléfono es',
    'mi correo es', 'mi correo electrónico es', 'nací el', 'nací en', 'quiero', 'necesito', 'quisiera', 'vengo a', 'vengo por',
  ],
  numbers: [
    'cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'once', 'doce', 'trece',
    'catorce', 'quince', 'dieciséis', 'diecisiete', 'dieciocho', 'diecinueve', 'veinte', 'veintiuno', 'veintidós',
    'veintitrés', 'veinticuatro', 'veinticinco', 'veintiséis', 'veintisiete', 'veintiocho', 'veintinueve', 'treinta',
    'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa', 'cien', 'ciento', 'mil',
  ],
  numberParts: ['doble', 'triple', 'ciento', 'cientos', 'mil', 'y'],
  alsoPronouns: ['uno', 'una'],
  polite: ['por favor', 'gracias', 'muchas gracias', 'sí'],
};

const ARABIC: TurnWordList = {
  hesitations: ['امم', 'ام', 'اممم', 'همم', 'ممم', 'اه', 'يعني', 'إيه'],
  dangling: ['و', 'أو', 'او', 'لكن', 'ثم', 'في', 'من', 'إلى', 'الى', 'على', 'عن', 'مع', 'ب', 'ل', 'أن', 'ان', 'لأن', 'هو', 'هي'],
  leadIns: [
    'اسمي', 'أنا اسمي', 'انا اسمي', 'أنا', 'انا', 'رقمي', 'رقمي هو', 'رقم هاتفي', 'رقم هاتفي هو', 'رقم جوالي', 'بريدي الإلكتروني',
    'بريدي الالكتروني', 'ولدت في', 'تاريخ ميلادي', 'أريد', 'اريد', 'أحتاج', 'احتاج', 'جئت من أجل',
  ],
  numbers: [
    'صفر', 'واحد', 'واحدة', 'اثنان', 'اثنين', 'اتنين', 'ثلاثة', 'ثلاث', 'أربعة', 'اربعة', 'أربع', 'خمسة', 'خمس', 'ستة', 'ست',
    'سبعة', 'سبع', 'ثمانية', 'ثماني', 'تسعة', 'تسع', 'عشرة', 'عشر', 'عشرون', 'عشرين', 'ثلاثون', 'ثلاثين', 'أربعون',
    'أربعين', 'خمسون', 'خمسين', 'مئة', 'مائة', 'ألف',
  ],
  numberParts: ['مئة', 'مائة', 'ألف', 'و'],
  polite: ['من فضلك', 'لو سمحت', 'شكرا', 'شكرا لك', 'شكرا جزيلا'],
};

/** The lists of each language, by primary subtag; a language not here is read by English's. */
export const TURN_WORDS: Readonly<Record<string, TurnWordList>> = { en: ENGLISH, de: GERMAN, fr: FRENCH, es: SPANISH, ar: ARABIC };
