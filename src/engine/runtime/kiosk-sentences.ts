// The few sentences the kiosk says of its own accord while a visit runs (not the flow's texts,
// which are the author's, nor the screen's words, which are the UI's catalogs): that an action
// failed, that the model is in trouble, that the built-in assistant took over. They are spoken as
// well as shown, so they live here, beside the engine and the voice that say them, in each
// language the kiosk's screens speak. Any other language gets English.

export type KioskSentence = 'action_failed' | 'trouble' | 'model_fallback';

const SENTENCES: Readonly<Record<string, Readonly<Record<KioskSentence, string>>>> = {
  en: {
    action_failed: 'Sorry, that did not go through. Nothing was done.',
    trouble: "Sorry, I'm having trouble. You can carry on using the screen.",
    model_fallback: 'The online assistant is not answering. The kiosk carries on with its built-in assistant.',
  },
  de: {
    action_failed: 'Das hat leider nicht geklappt. Es wurde nichts ausgeführt.',
    trouble: 'Entschuldigung, ich habe gerade Schwierigkeiten. Sie können am Bildschirm weitermachen.',
    model_fallback: 'Der Online-Assistent antwortet nicht. Das Terminal macht mit seinem eingebauten Assistenten weiter.',
  },
  fr: {
    action_failed: "Désolé, cela n'a pas abouti. Rien n'a été fait.",
    trouble: "Désolé, je rencontre un problème. Vous pouvez continuer sur l'écran.",
    model_fallback: "L'assistant en ligne ne répond pas. La borne continue avec son assistant intégré.",
  },
  es: {
    action_failed: 'Lo siento, no se ha podido completar. No se ha hecho nada.',
    trouble: 'Lo siento, tengo problemas. Puede continuar usando la pantalla.',
    model_fallback: 'El asistente en línea no responde. El quiosco continúa con su asistente integrado.',
  },
  ar: {
    action_failed: 'عذرًا، لم تنجح العملية. لم يُنفَّذ أي شيء.',
    trouble: 'عذرًا، أواجه مشكلة. يمكنك المتابعة باستخدام الشاشة.',
    model_fallback: 'المساعد عبر الإنترنت لا يستجيب. يتابع الجهاز بمساعده المدمج.',
  },
};

/** The sentence in the visit's language (by its primary subtag), or in English. */
export function kioskSentence(name: KioskSentence, language: string): string {
  const primary = language.split('-')[0]!.toLowerCase();
  return (SENTENCES[primary] ?? SENTENCES['en']!)[name];
}
