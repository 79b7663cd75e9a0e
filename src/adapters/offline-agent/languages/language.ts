// The shape of one language of the offline assistant: how visitors say things in it (numbers,
// dates, times, names, emails, "not", "change", asking for another language) and what the
// assistant says back, with formal address. One file per language fills it in (en.ts, de.ts, …);
// index.ts lists them. Word lists are written as people spell them; readers fold them (accents,
// case) before comparing. Yes and no are the engine's (engine/runtime/answer-words.ts).

/** Spoken numbers of a language: "twenty two", "vierundzwanzig", "soixante-dix", "veintidós". */
export interface NumberWords {
  /** words with a value of their own ("five" 5, "zwanzig" 20, "doscientos" 200) */
  cardinals: Readonly<Record<string, number>>;
  /** several words with one value ("quatre vingt" 80) */
  phrases?: Readonly<Record<string, number>>;
  /** words that multiply what comes before them ("hundred" 100, "mille" 1000) */
  multipliers: Readonly<Record<string, number>>;
  /** words joining two parts of one number: "and", "und", "et", "y" */
  joiners: readonly string[];
  /** words for one only before a multiplier ("a hundred") */
  articleOnes?: readonly string[];
  /** tens that take 1 to 19 after them ("soixante-douze", "quatre-vingt-dix") */
  tensTakingTeens?: readonly number[];
  /** ten takes 7, 8 and 9 after it ("dix-sept") */
  tenTakesUnits?: boolean;
  /** a unit comes before "und" and its tens ("vierundzwanzig") */
  unitBeforeTens?: boolean;
  /** a decimal number is written with a comma ("72,5") */
  decimalComma?: boolean;
  /** a year said in pairs ("nineteen ninety five") */
  yearPairs?: boolean;
  /** words that say the next digit two or three times ("double five") */
  repeats?: Readonly<Record<string, number>>;
  /** words for zero only next to a digit ("oh") */
  zeroNearDigits?: readonly string[];
  /** a word for "+" before a number */
  plus?: readonly string[];
  /** an ordinal said as a word ("third", "fünften", "premier"), folded; undefined when it is none */
  ordinal(word: string): number | undefined;
  /** how an ordinal is written in digits: "3rd", "5.", "1er", "1º" */
  ordinalMark(n: number): string;
  /** one written word made of several number words ("neunzehnhundertvierundachtzig"), folded, split into them */
  split?(word: string): string[] | undefined;
}

/** Months and how a date is said with them. */
export interface DateWords {
  /** twelve lists, January first: each month's names and short forms */
  months: readonly (readonly string[])[];
  /**
   * Ways of saying a date with a month name, as regular expression sources over the text with
   * numbers in digits: `DAY`, `MONTH` and `YEAR` stand for the day (with its ordinal mark), the
   * month name and the year. The first match in the text wins.
   */
  patterns: readonly string[];
  /** words before a date that are no part of it ("the", "am", "le", "el") */
  articles: readonly string[];
  /** month names are written with a capital ("March", "März"), not in lower case ("mars") */
  capitalMonths: boolean;
  /** a day of the month said alone ("the 6th", "am 6.", "le 6"), `DAY` standing for it: a correction of a date's day */
  dayAlone?: string;
}

/** Times of day said in words. Each reader gets the text with numbers in digits. */
export interface TimeWords {
  /** [regex source, what it means]: the hour and minute from a match (undefined: not a time) */
  readers: readonly (readonly [string, (m: RegExpExecArray) => { h: number; min: number; spoken?: string } | undefined])[];
}

/** Emails said aloud: "alex at example dot com", "alex arroba example punto com". */
export interface EmailWords {
  at: readonly string[];
  dot: readonly string[];
  underscore: readonly string[];
  dash: readonly string[];
  plus: readonly string[];
}

/** How visitors give their name, and words that are never one. */
export interface NameWords {
  /** "my name is", "ich heiße", "je m'appelle", "me llamo": what follows is a name */
  leads: readonly string[];
  /** "I'm", "ich bin", "c'est", "soy": what follows is a name unless it starts with a small word ("soy de Madrid") */
  weakLeads: readonly string[];
  /** forms of address said before a name, not stored ("Dr", "Frau", "Madame", "señora") */
  titles: readonly string[];
  /** common words and commands: never a name, and they end one */
  notNames: readonly string[];
}

/** Words that deny or take back what follows or came before (negation.ts). */
export interface ClauseWords {
  /** deny what follows them in the same clause: "not", "kein", "pas", "sin" */
  negators: readonly string[];
  /** elided starts that deny ("n'" in "je n'ai pas") */
  negatorStarts?: readonly string[];
  /** two-word phrases that deny what follows: "rather than", "au lieu" */
  negatingPairs: readonly string[];
  /** deny only what stands right after them ("no appointment") */
  denyRightBefore: readonly string[];
  /** start a new clause: what came before them does not reach past them */
  clauseStarts: readonly string[];
  /** take back what was said just before them ("blue, no, green") */
  corrections: readonly string[];
}

/** Words for telling choices apart (choices.ts). */
export interface ChoiceWords {
  /** a word written as several ("can't" → can not, "del" → de el), folded */
  expand(word: string): readonly string[] | undefined;
  /** spoken forms of titles as labels write them ("doctor" → dr) */
  titleWords: Readonly<Record<string, string>>;
  /** words too common to name a choice on their own */
  smallWords: readonly string[];
}

/** What is said around a short answer: "um", "it's", "please", and how a question starts. */
export interface BareWords {
  fillers: readonly string[];
  leadIns: readonly string[];
  tails: readonly string[];
  questionStarts: readonly string[];
}

/** How a visitor asks for another language: "can we speak Spanish?", "auf Deutsch bitte". */
export interface RequestWords {
  /** words that ask to speak or change language: "speak", "sprechen", "parler", "hablar" */
  speak: readonly string[];
  /** words right before a language's name that mean "in it": "in", "auf", "en" */
  inLanguage: readonly string[];
  /** "please" and the like, said with a bare language name */
  please: readonly string[];
  /** more names of languages than the platform's own (Intl.DisplayNames): "castellano" → es */
  names?: Readonly<Record<string, string>>;
}

/**
 * How visitors correct themselves, go back, ask for help and make small talk (mend.ts,
 * corrections.ts, going-back.ts, talk.ts). Phrases are matched whole, after folding.
 */
export interface TalkWords {
  /** words that start a correction rather than answer: "wait", "sorry", "actually", "I meant" */
  corrections: readonly string[];
  /** a hint on how a name is written, said after it ("with one r", "mit zwei t"): a regular expression source over folded text */
  spelling: string;
  /** "spelled", "it is spelled": said before a name's letters ("G-A-R-C-I-A") */
  spelled: readonly string[];
  /** words that join or name the values of an answer that gives several ("and", "born", "date of birth"): not part of a short answer */
  between: readonly string[];
  /** words naming a surname: a name said with one of them corrects the name's last part */
  surname: readonly string[];
  /** words naming a first name: a name said with one of them corrects the name's first part */
  firstName: readonly string[];
  /** greetings said on their own: "hello", "good morning" */
  greetings: readonly string[];
  /** thanks said on their own: "thanks", "thank you very much" */
  thanks: readonly string[];
  /** asking how the kiosk is: "how are you" */
  howAreYou: readonly string[];
  /** asking for help or what to do: "help", "what do I do", "I don't understand" */
  help: readonly string[];
  /** asking to go back a step: "go back", "the previous step" */
  back: readonly string[];
  /** asking the kiosk to look something up: "look it up", "can you find it" */
  lookUp: readonly string[];
}

/** Everything the assistant says in a language: short lines, and sentences built around values. */
export interface Sayings {
  sorry: string;
  stillThere: string;
  useScreen: string;
  yesOrNo: string;
  notCaught: string;
  allRight: string;
  thankYou: string;
  thanks: string;
  gotIt: string;
  done: string;
  wontDo: string;
  couldNot: string;
  looksWrong: string;
  oneMoment: string;
  /** after a read-back: a "no" to it says something shown is wrong, and the assistant asks what */
  allCorrect: string;
  /** after a read-back on a step whose way on is agreeing (site rules): a "no" to it declines */
  agree: string;
  /** a plain "no" to allCorrect, with no button to name */
  whatToChange: string;
  goodbye: string;
  /** a greeting said back */
  hello: string;
  /** thanks answered */
  welcome: string;
  /** "how are you?" answered */
  fine: string;
  /** "no wait" said alone: the visitor may take their time */
  takeYourTime: string;
  /** how the step on screen is answered, by its kind */
  howTo: { form: string; options: string; card: string };
  /** what the step needs before the kiosk can do what was asked: the fields' labels, in a list */
  needFirst(list: string): string;
  /** a correction of an earlier answer that no button of the screen can make */
  cannotGoBack: string;
  /** a statement kept for a later question: "Thank you, I'll keep that in mind." */
  kept: string;
  /** "start over" said: where the button is */
  startOver: string;
  /** the pending action's summary as a question: "Check in Maria. Shall I go ahead?" */
  goAhead(summary: string): string;
  /** the gate's question without the flow's own wording: "I heard Maria. Is that right?" */
  heard(values: readonly string[]): string;
  /** values read back by their labels: "I have first name: Alex, date of birth: March 5, 1984." */
  have(items: readonly (readonly [string, string])[]): string;
  /** the question for a field by its label as `label` writes it ("What's your first name?"; "How many guests?" for "number of guests") */
  ask(label: string): string;
  /** the choices one may say: "You can say red, green or blue." (the list already joined) */
  youCanSay(list: string): string;
  /** an options screen: "Please choose: red, green or blue." */
  choose(list: string): string;
  /** choices the visitor declined: "All right, not blue." */
  notThese(list: string): string;
  /** a date of birth in the future (the date in words) */
  future(date: string): string;
  /** a day the month does not have: the month in words (with its year for February) and its days */
  noSuchDay(month: string, days: number): string;
  /** the button that changes a card's values: "To make changes, tap “Change my details”." */
  changeHint(button: string): string;
  /** a yes on a step whose one way on is a button no tool stands for: "To go on, tap “I agree”." */
  goOnHint(button: string): string;
  /** a farewell to a person by name */
  farewell(name: string): string;
  /** words kept from earlier, said back at the question they may answer */
  mentioned(quote: string): string;
  /** the visit goes on in this language, as the visitor asked */
  nowSpeaking: string;
  /** asked for the language the visit is already in */
  alreadySpeaking: string;
  /** asked for a language the flow does not offer: the ones it does, in a list */
  onlySpeak(list: string): string;
  /** a field's label as it stands inside a sentence ("Email Address:" → "email address") */
  label(label: string): string;
  /** a phone field's label as a thing to ask for ("phone" → "phone number") */
  phoneLabel(label: string): string;
  /** "a, b or c" */
  orList(items: readonly string[]): string;
  /** "a and b" */
  andList(items: readonly string[]): string;
}

/** One language of the offline assistant. */
export interface Language {
  /** its primary subtag: "en", "de" */
  code: string;
  /**
   * 'all': values in words, names and statements are understood; 'answers': yes, no, choices by
   * their label and values typed in digits only, and the rest is left to tapping and typing.
   */
  understands: 'all' | 'answers';
  numbers: NumberWords;
  dates: DateWords;
  times: TimeWords;
  email: EmailWords;
  names: NameWords;
  clauses: ClauseWords;
  choices: ChoiceWords;
  bare: BareWords;
  /** words that ask to change what was said or shown ("change", "ändern", "corriger") */
  change: readonly string[];
  /** phrases asking to start the visit over */
  startOver: readonly string[];
  /** words that make an utterance a statement about the visitor ("I", "my", "ich", "tengo") */
  statements: readonly string[];
  /** words of a birth date's label or name ("birth", "Geburt", "naissance") */
  birth: readonly string[];
  requests: RequestWords;
  talk: TalkWords;
  say: Sayings;
}

/** A function of a language, worked out once for each language and then kept. */
export function perLanguage<T>(build: (lang: Language) => T): (lang: Language) => T {
  const made = new WeakMap<Language, T>();
  return (lang) => {
    let value = made.get(lang);
    if (value === undefined) {
      value = build(lang);
      made.set(lang, value);
    }
    return value;
  };
}
