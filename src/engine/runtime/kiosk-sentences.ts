// The few sentences the kiosk says of its own accord while a visit runs (not the flow's texts,
// which are the author's, nor the screen's words, which are the UI's catalogs): that an action
// failed, that the model is in trouble, that the built-in assistant took over, and the engine's
// own cues (thanks and what comes next, the gate's question when the flow has none, a pending
// action's question, an answer too long to take). They are spoken as well as shown, so they live
// here, beside the engine and the voice that say them, in each language the kiosk's screens speak.
// So do the few words the engine itself puts in a step (a form's Continue, yes and no for a
// true/false value, the error card where a flow has none of its own). Any other language gets
// English. `{name}` stands for a value given when the sentence is said.

export type KioskSentence =
  | 'action_failed'
  | 'trouble'
  | 'model_fallback'
  | 'thanks'
  | 'thanks_next'
  | 'heard'
  | 'go_ahead'
  | 'too_long'
  | 'yes'
  | 'no'
  | 'continue'
  | 'error_title'
  | 'error_text'
  | 'start_over'
  | 'tick_box'
  | 'still_running'
  | 'already_done';

const SENTENCES: Readonly<Record<string, Readonly<Record<KioskSentence, string>>>> = {
  en: {
    action_failed: 'Sorry, that did not go through. Nothing was done.',
    trouble: "Sorry, I'm having trouble. You can carry on using the screen.",
    model_fallback: 'The online assistant is not answering. The kiosk carries on with its built-in assistant.',
    thanks: 'Thank you.',
    thanks_next: 'Thank you. Next: {fields}.',
    heard: 'I heard {values}. Is that right?',
    go_ahead: '{summary}. Shall I go ahead?',
    too_long: 'That was more than I can take in at once. Please say it again in fewer words.',
    yes: 'Yes',
    no: 'No',
    continue: 'Continue',
    error_title: 'Sorry, something went wrong',
    error_text: 'Nothing you entered has been kept. Please start over, or ask a member of staff for help.',
    start_over: 'Start over',
    tick_box: 'Please tick “{fields}” on the screen to go on.',
    still_running: 'One moment: that is still under way.',
    already_done: 'That has been done already.',
  },
  de: {
    action_failed: 'Das hat leider nicht geklappt. Es wurde nichts ausgeführt.',
    trouble: 'Entschuldigung, ich habe gerade Schwierigkeiten. Sie können am Bildschirm weitermachen.',
    model_fallback: 'Der Online-Assistent antwortet nicht. Das Terminal macht mit seinem eingebauten Assistenten weiter.',
    thanks: 'Vielen Dank.',
    thanks_next: 'Vielen Dank. Als Nächstes: {fields}.',
    heard: 'Ich habe {values} verstanden. Stimmt das?',
    go_ahead: '{summary}. Soll ich fortfahren?',
    too_long: 'Das war mehr, als ich auf einmal aufnehmen kann. Bitte sagen Sie es noch einmal kürzer.',
    yes: 'Ja',
    no: 'Nein',
    continue: 'Weiter',
    error_title: 'Entschuldigung, da ist etwas schiefgegangen',
    error_text: 'Nichts von Ihren Angaben wurde gespeichert. Bitte beginnen Sie neu, oder wenden Sie sich an das Personal.',
    start_over: 'Neu beginnen',
    tick_box: 'Bitte kreuzen Sie „{fields}“ auf dem Bildschirm an, um fortzufahren.',
    still_running: 'Einen Moment bitte, das läuft noch.',
    already_done: 'Das ist bereits erledigt.',
  },
  fr: {
    action_failed: "Désolé, cela n'a pas abouti. Rien n'a été fait.",
    trouble: "Désolé, je rencontre un problème. Vous pouvez continuer sur l'écran.",
    model_fallback: "L'assistant en ligne ne répond pas. La borne continue avec son assistant intégré.",
    thanks: 'Merci.',
    thanks_next: 'Merci. Ensuite\u202f: {fields}.',
    heard: 'J’ai compris {values}. Est-ce correct\u202f?',
    go_ahead: '{summary}. Voulez-vous que je continue\u202f?',
    too_long: 'C’était trop long pour moi d’un seul coup. Veuillez le redire plus brièvement.',
    yes: 'Oui',
    no: 'Non',
    continue: 'Continuer',
    error_title: 'Désolé, un problème est survenu',
    error_text: 'Rien de ce que vous avez saisi n’a été conservé. Veuillez recommencer, ou demander de l’aide au personnel.',
    start_over: 'Recommencer',
    tick_box: 'Veuillez cocher «\u202f{fields}\u202f» à l’écran pour continuer.',
    still_running: 'Un instant, c’est en cours.',
    already_done: 'C’est déjà fait.',
  },
  es: {
    action_failed: 'Lo siento, no se ha podido completar. No se ha hecho nada.',
    trouble: 'Lo siento, tengo problemas. Puede continuar usando la pantalla.',
    model_fallback: 'El asistente en línea no responde. El quiosco continúa con su asistente integrado.',
    thanks: 'Gracias.',
    thanks_next: 'Gracias. Ahora: {fields}.',
    heard: 'He entendido {values}. ¿Es correcto?',
    go_ahead: '{summary}. ¿Quiere que continúe?',
    too_long: 'Eso ha sido demasiado para mí de una vez. Dígalo de nuevo con menos palabras, por favor.',
    yes: 'Sí',
    no: 'No',
    continue: 'Continuar',
    error_title: 'Lo siento, algo ha salido mal',
    error_text: 'No se ha guardado nada de lo que ha introducido. Vuelva a empezar o pida ayuda al personal.',
    start_over: 'Empezar de nuevo',
    tick_box: 'Marque «{fields}» en la pantalla para continuar, por favor.',
    still_running: 'Un momento, todavía está en curso.',
    already_done: 'Eso ya está hecho.',
  },
  ar: {
    action_failed: 'عذرًا، لم تنجح العملية. لم يُنفَّذ أي شيء.',
    trouble: 'عذرًا، أواجه مشكلة. يمكنك المتابعة باستخدام الشاشة.',
    model_fallback: 'المساعد عبر الإنترنت لا يستجيب. يتابع الجهاز بمساعده المدمج.',
    thanks: 'شكرًا.',
    thanks_next: 'شكرًا. التالي: {fields}.',
    heard: 'سمعت {values}. هل هذا صحيح؟',
    go_ahead: '{summary}. هل أتابع؟',
    too_long: 'كان ذلك أطول مما أستطيع فهمه دفعة واحدة. يُرجى قوله مرة أخرى بكلمات أقل.',
    yes: 'نعم',
    no: 'لا',
    continue: 'متابعة',
    error_title: 'عذرًا، حدث خطأ ما',
    error_text: 'لم يُحفظ أي شيء مما أدخلته. يُرجى البدء من جديد، أو طلب المساعدة من أحد الموظفين.',
    start_over: 'البدء من جديد',
    tick_box: 'يُرجى تحديد «{fields}» على الشاشة للمتابعة.',
    still_running: 'لحظة من فضلك، ما زال ذلك قيد التنفيذ.',
    already_done: 'تم ذلك بالفعل.',
  },
};

/** The sentence in the visit's language (by its primary subtag), or in English, with its `{values}` put in. */
export function kioskSentence(name: KioskSentence, language: string, values: Readonly<Record<string, string>> = {}): string {
  const primary = language.split('-')[0]!.toLowerCase();
  const sentence = (SENTENCES[primary] ?? SENTENCES['en']!)[name];
  return sentence.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** "A and B" in the visit's language (English as the kiosk has always said it: "A and B and C"). */
export function andList(items: readonly string[], language: string): string {
  if (language.split('-')[0]!.toLowerCase() === 'en' || items.length < 2) return items.join(' and ');
  try {
    return new Intl.ListFormat(language, { type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}
