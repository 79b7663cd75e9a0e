// What a visitor says to the kiosk itself rather than to the flow, in the kiosk's five languages:
// "repeat", "read it to me", "more time", "louder", "quieter", "stop", the words around them that
// change nothing ("please", "can you"), and the numbers that choose an option ("two", "number 2").
// Written as said, in lower case; spoken-commands.ts reads an utterance against them.

/** Something the visitor asks of the kiosk itself. */
export type SpokenCommand = 'repeat' | 'guidance' | 'more_time' | 'louder' | 'quieter' | 'stop';

/** One language's phrases. */
export interface CommandPhrases {
  commands: Readonly<Record<SpokenCommand, readonly string[]>>;
  /** words said before or after a command that do not change it */
  polite: readonly string[];
  /** 1 to 10 as words, in order */
  numbers: readonly string[];
  /** "first" to "fifth", in order */
  ordinals: readonly string[];
  /** words that may come before a number: "number", "option", "the" */
  numberWords: readonly string[];
}

const en: CommandPhrases = {
  commands: {
    repeat: ['repeat', 'repeat that', 'repeat it', 'say that again', 'say it again', 'repeat that again', 'what did you say', 'pardon', 'come again', 'one more time', 'again'],
    guidance: ['read it to me', 'read it out', 'read it out loud', 'read it aloud', 'read the screen', 'read the screen to me', 'read me the screen', 'read to me', 'audio guidance', 'turn on audio guidance', 'i cannot see the screen', "i can't see the screen"],
    more_time: ['more time', 'i need more time', 'give me more time', 'i need a moment', 'just a moment', 'one moment', 'hold on', 'wait'],
    louder: ['louder', 'speak up', 'speak louder', 'volume up', 'turn it up', 'turn the volume up', 'i cannot hear you', "i can't hear you"],
    quieter: ['quieter', 'softer', 'speak more quietly', 'not so loud', 'too loud', 'volume down', 'turn it down', 'turn the volume down'],
    stop: ['stop', 'stop talking', 'stop speaking', 'be quiet', 'quiet', 'silence', 'shush'],
  },
  polite: ['please', 'can you', 'could you', 'would you', 'will you', 'okay', 'ok', 'um', 'uh', 'sorry', 'kiosk', 'thanks', 'thank you'],
  numbers: ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'],
  ordinals: ['first', 'second', 'third', 'fourth', 'fifth'],
  numberWords: ['number', 'option', 'choice', 'the', 'one', 'i choose', 'i pick', "i'll take"],
};

const de: CommandPhrases = {
  commands: {
    repeat: ['wiederholen', 'wiederholen sie das', 'wiederholen sie', 'bitte wiederholen', 'noch einmal', 'nochmal', 'sagen sie das noch einmal', 'wie bitte', 'was haben sie gesagt'],
    guidance: ['lesen sie es mir vor', 'lesen sie mir vor', 'lies es mir vor', 'vorlesen', 'bildschirm vorlesen', 'lesen sie den bildschirm vor', 'audioführung', 'ich kann den bildschirm nicht sehen'],
    more_time: ['mehr zeit', 'ich brauche mehr zeit', 'geben sie mir mehr zeit', 'einen moment', 'moment', 'warten sie', 'augenblick'],
    louder: ['lauter', 'sprechen sie lauter', 'lauter sprechen', 'ich kann sie nicht hören'],
    quieter: ['leiser', 'sprechen sie leiser', 'leiser sprechen', 'zu laut'],
    stop: ['stopp', 'stop', 'halt', 'hören sie auf', 'aufhören', 'ruhe', 'seien sie still'],
  },
  polite: ['bitte', 'danke', 'ok', 'okay', 'äh', 'ähm', 'können sie', 'könnten sie', 'entschuldigung'],
  numbers: ['eins', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn'],
  ordinals: ['erste', 'zweite', 'dritte', 'vierte', 'fünfte'],
  numberWords: ['nummer', 'option', 'die', 'der', 'das', 'ich nehme', 'ich wähle'],
};

const fr: CommandPhrases = {
  commands: {
    repeat: ['répétez', 'répéter', 'répétez ça', 'pouvez vous répéter', 'vous pouvez répéter', 'redites', 'redites le', 'pardon', 'comment', 'encore une fois', "qu'avez vous dit"],
    guidance: ['lisez le moi', 'lisez moi', "lisez moi l'écran", "lisez l'écran", 'lire à voix haute', 'lisez à voix haute', 'guidage audio', "je ne vois pas l'écran"],
    more_time: ['plus de temps', "j'ai besoin de plus de temps", 'encore du temps', 'un instant', 'un moment', 'attendez'],
    louder: ['plus fort', 'parlez plus fort', 'montez le son', 'augmentez le volume', 'je ne vous entends pas'],
    quieter: ['moins fort', 'plus bas', 'parlez moins fort', 'baissez le son', 'baissez le volume', 'trop fort'],
    stop: ['stop', 'arrêtez', 'arrêtez de parler', 'taisez vous', 'silence'],
  },
  polite: ["s'il vous plaît", 'merci', 'ok', 'euh', 'pardon'],
  numbers: ['un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix'],
  ordinals: ['premier', 'deuxième', 'troisième', 'quatrième', 'cinquième'],
  numberWords: ['numéro', 'option', 'choix', 'le', 'la', 'je prends', 'je choisis'],
};

const es: CommandPhrases = {
  commands: {
    repeat: ['repita', 'repetir', 'repítalo', 'repita eso', 'puede repetir', 'dígalo otra vez', 'otra vez', 'cómo', 'perdón', 'qué ha dicho'],
    guidance: ['léamelo', 'léame', 'léame la pantalla', 'lea la pantalla', 'léalo en voz alta', 'guía de audio', 'no veo la pantalla'],
    more_time: ['más tiempo', 'necesito más tiempo', 'deme más tiempo', 'un momento', 'espere'],
    louder: ['más alto', 'más fuerte', 'hable más alto', 'suba el volumen', 'no le oigo'],
    quieter: ['más bajo', 'más suave', 'hable más bajo', 'baje el volumen', 'demasiado alto'],
    stop: ['pare', 'para', 'basta', 'deje de hablar', 'silencio', 'cállese', 'stop'],
  },
  polite: ['por favor', 'gracias', 'vale', 'ok', 'eh', 'perdone'],
  numbers: ['uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez'],
  ordinals: ['primero', 'segundo', 'tercero', 'cuarto', 'quinto'],
  numberWords: ['número', 'opción', 'el', 'la', 'elijo', 'quiero'],
};

const ar: CommandPhrases = {
  commands: {
    repeat: ['كرر', 'اعد', 'اعد ما قلت', 'كرر ما قلت', 'مره اخري', 'ماذا قلت', 'عفوا'],
    guidance: ['اقرا لي', 'اقراها لي', 'اقرا الشاشه', 'اقرا الشاشه لي', 'الارشاد الصوتي', 'لا اري الشاشه'],
    more_time: ['وقت اكثر', 'مزيد من الوقت', 'احتاج وقتا اكثر', 'احتاج مزيدا من الوقت', 'لحظه', 'انتظر'],
    louder: ['اعلي', 'ارفع الصوت', 'صوت اعلي', 'لا اسمعك'],
    quieter: ['اخفض الصوت', 'اخفض', 'صوت اقل', 'الصوت عال جدا'],
    stop: ['توقف', 'قف', 'اسكت', 'كفي'],
  },
  polite: ['من فضلك', 'لو سمحت', 'شكرا'],
  numbers: ['واحد', 'اثنان', 'ثلاثه', 'اربعه', 'خمسه', 'سته', 'سبعه', 'ثمانيه', 'تسعه', 'عشره'],
  ordinals: ['الاول', 'الثاني', 'الثالث', 'الرابع', 'الخامس'],
  numberWords: ['رقم', 'الخيار', 'اختار'],
};

/** The phrases by primary language subtag. */
export const COMMAND_PHRASES: Readonly<Record<string, CommandPhrases>> = { en, de, fr, es, ar };
