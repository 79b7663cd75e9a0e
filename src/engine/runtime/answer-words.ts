// How visitors answer yes or no in each language the kiosk speaks: the words yes-no.ts reads
// (written as people say them; they are folded like the visitor's words before comparing). A
// language not here has no plain yes or no for the engine: nothing is a refusal in it.

/** The words of one language for answers. */
export interface AnswerList {
  yes: readonly string[];
  no: readonly string[];
  /** phrases that start like a no (or a yes) but answer neither: "no problem", "not bad" */
  neither: readonly string[];
  /** yes words that also start a statement ("it is Alice"): a yes after a no only on their own */
  weakYes: readonly string[];
  /** words said before an answer that are no part of it ("um", "well") */
  fillers: readonly string[];
}

const ENGLISH: AnswerList = {
  yes: [
    'yes', 'yeah', 'yep', 'yup', 'ya', 'yea', 'aye', 'uh huh', 'mhm', 'sure', 'ok', 'okay', 'alright', 'all right',
    'right', "that's right", 'that is right', "that's it", 'correct', "that's correct", 'that is correct',
    'exactly', 'absolutely', 'definitely', 'of course', 'indeed', 'affirmative', 'perfect', 'great',
    'sounds good', 'looks good', 'go ahead', 'go for it', 'do it', 'please do', 'confirm', 'confirmed',
    'i confirm', 'it is', 'it does', 'spot on', 'you got it', 'true', "it's right", 'it is right', "it's correct",
    'it is correct', "that's fine", 'fine',
  ],
  no: [
    'no', 'nope', 'nah', 'not quite', 'not really', 'not exactly', 'not right', 'not correct', 'wrong',
    "that's wrong", 'that is wrong', "that's not right", 'that is not right', "that's not it", "that's incorrect",
    'incorrect', 'negative', "don't", 'do not', 'cancel', 'stop', "it isn't", "it's not", 'it is not',
    'false', 'never mind', 'nevermind', 'no way', 'not my', "that's not my", 'that is not my', "that isn't my",
    "it's not my", "that's the wrong", 'wrong one',
  ],
  neither: [
    'no problem', 'no worries', 'no doubt', 'no question', 'no kidding', 'not a problem', 'not bad', "don't worry",
    "it's not a problem", "that's not a problem", 'nothing wrong',
  ],
  weakYes: ['it is', 'it does', 'right', 'true', 'fine'],
  fillers: ['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'hmm', 'oh', 'well', 'so', 'ah'],
};

const GERMAN: AnswerList = {
  yes: [
    'ja', 'jawohl', 'jap', 'jo', 'ja bitte', 'ja genau', 'genau', 'richtig', 'stimmt', 'das stimmt', 'stimmt so',
    'korrekt', 'das ist korrekt', 'das ist richtig', 'ist richtig', 'ok', 'okay', 'passt', 'das passt', 'gut',
    'in ordnung', 'alles klar', 'klar', 'na klar', 'natürlich', 'sicher', 'gern', 'gerne', 'sehr gern',
    'einverstanden', 'bestätigen', 'bestätigt', 'ich bestätige', 'auf jeden fall', 'selbstverständlich', 'exakt',
    'so ist es', 'perfekt', 'machen sie das', 'bitte machen', 'los geht',
  ],
  no: [
    'nein', 'nee', 'nö', 'nein danke', 'falsch', 'das ist falsch', 'ist falsch', 'stimmt nicht', 'das stimmt nicht',
    'nicht richtig', 'das ist nicht richtig', 'nicht korrekt', 'das ist nicht korrekt', 'inkorrekt', 'nicht ganz',
    'eher nicht', 'auf keinen fall', 'keinesfalls', 'abbrechen', 'stopp', 'stop', 'nicht mein', 'das ist nicht mein',
    'das ist nicht meine', 'das ist der falsche', 'das ist die falsche', 'das ist das falsche', 'der falsche',
    'die falsche', 'das falsche', 'lieber nicht',
  ],
  neither: ['kein problem', 'keine ursache', 'nicht schlecht', 'keine sorge', 'macht nichts', 'nichts zu danken', 'nein nein das stimmt'],
  weakYes: ['richtig', 'stimmt', 'gut', 'sicher', 'klar'],
  fillers: ['äh', 'ähm', 'öh', 'hm', 'hmm', 'also', 'oh', 'na', 'naja', 'ach', 'tja', 'nun'],
};

const FRENCH: AnswerList = {
  yes: [
    'oui', 'ouais', 'ouaip', 'si', 'oui merci', "oui c'est ça", "c'est ça", "c'est bien ça", "c'est exact", "c'est correct",
    "c'est bon", "c'est juste", 'exact', 'exactement', 'correct', "d'accord", "d'acc", 'ok', 'okay', 'voilà',
    'tout à fait', 'bien sûr', 'absolument', 'parfait', 'en effet', 'effectivement', 'certainement', 'volontiers',
    'allez y', 'je confirme', 'confirmé', 'confirmer', 'très bien', 'bien', 'vas y',
  ],
  no: [
    'non', 'non merci', "c'est faux", 'faux', "ce n'est pas ça", "c'est pas ça", 'pas du tout', 'incorrect',
    "ce n'est pas correct", "c'est pas correct", 'pas correct', 'pas vraiment', 'pas exactement', 'pas tout à fait',
    'erreur', "c'est une erreur", 'annuler', 'annulez', 'stop', 'arrêtez', "ce n'est pas mon", "c'est pas mon",
    "ce n'est pas ma", "c'est pas ma", 'pas mon', 'pas ma', "ce n'est pas le bon", "c'est pas le bon",
    "ce n'est pas la bonne", "c'est pas la bonne", 'pas le bon', 'pas la bonne', 'mais non',
  ],
  neither: ['pas de problème', 'pas de souci', 'pas de soucis', 'pas mal', 'non seulement', 'sans problème', 'pas grave'],
  weakYes: ['bien'],
  fillers: ['euh', 'heu', 'hum', 'ben', 'bah', 'bon', 'ah', 'oh', 'alors', 'eh'],
};

const SPANISH: AnswerList = {
  yes: [
    'sí', 'sip', 'sí por favor', 'sí gracias', 'claro', 'claro que sí', 'correcto', 'es correcto', 'exacto', 'exactamente',
    'vale', 'de acuerdo', 'eso es', 'así es', 'efectivamente', 'por supuesto', 'desde luego', 'perfecto', 'muy bien',
    'está bien', 'ok', 'okey', 'okay', 'confirmo', 'confirmado', 'adelante', 'cierto', 'es cierto', 'afirmativo',
    'venga', 'dale', 'bien',
  ],
  no: [
    'no', 'no gracias', 'incorrecto', 'está mal', 'eso está mal', 'no es correcto', 'no es así', 'no es eso',
    'para nada', 'de ninguna manera', 'en absoluto', 'falso', 'equivocado', 'está equivocado', 'cancelar', 'cancele',
    'nada de eso', 'ese no es', 'esa no es', 'no es mi', 'no es el correcto', 'no es la correcta',
  ],
  neither: ['no hay problema', 'no pasa nada', 'no te preocupes', 'no se preocupe', 'no importa', 'no hay de qué', 'de nada'],
  weakYes: ['bien', 'cierto'],
  fillers: ['eh', 'em', 'mm', 'mmm', 'este', 'pues', 'bueno', 'ah', 'oh', 'vamos'],
};

const ARABIC: AnswerList = {
  yes: [
    'نعم', 'نعم صحيح', 'أجل', 'بلى', 'إيوه', 'أيوه', 'أيوا', 'آه', 'صح', 'صحيح', 'هذا صحيح', 'تمام', 'طيب', 'حسنا',
    'حسنًا', 'موافق', 'موافقة', 'أكيد', 'بالتأكيد', 'بالطبع', 'طبعا', 'مضبوط', 'أوكي', 'ok', 'okay', 'تفضل',
  ],
  no: [
    'لا', 'لأ', 'لا شكرا', 'كلا', 'خطأ', 'خطا', 'غلط', 'هذا خطأ', 'غير صحيح', 'ليس صحيحا', 'ليس صحيح', 'مش صحيح',
    'مو صحيح', 'إلغاء', 'ألغ', 'توقف',
  ],
  neither: ['لا مشكلة', 'لا بأس', 'لا شكر على واجب'],
  weakYes: ['صحيح'],
  fillers: ['يعني', 'امم', 'ام', 'همم'],
};

/** The answer words of each language the engine reads yes and no in, by primary subtag. */
export const ANSWER_WORDS: Readonly<Record<string, AnswerList>> = { en: ENGLISH, de: GERMAN, fr: FRENCH, es: SPANISH, ar: ARABIC };
