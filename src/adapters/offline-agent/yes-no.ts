// Is this answer a yes or a no? The engine's own reading (engine/runtime/yes-no.ts), so the
// assistant and the engine's "no means no" rule agree; and does the visitor ask to change
// something ("change my details", "das ist falsch", "je veux corriger")?

import { foldPhrase, foldWord } from '../../engine/runtime/words.ts';
import { ENGLISH } from './languages/en.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { wordsOf } from './text.ts';

export { classifyYesNo, readAnswer, type Answer, type YesNo } from '../../engine/runtime/yes-no.ts';

const changeWords = perLanguage((lang: Language) => new Set(lang.change.map(foldWord)));

/** True when the visitor asks to change something ("change my details", "my date of birth is wrong"). */
export function wantsChange(text: string, lang: Language = ENGLISH): boolean {
  const words = changeWords(lang);
  return wordsOf(text).some((w) => words.has(w.text));
}

const startOverPhrases = perLanguage((lang: Language) => lang.startOver.map((p) => ` ${foldPhrase(p)} `));

/** True when the visitor asks to start the visit over ("start over", "von vorne", "recommencer"). */
export function wantsStartOver(text: string, lang: Language = ENGLISH): boolean {
  const said = ` ${foldPhrase(text)} `;
  return startOverPhrases(lang).some((p) => said.includes(p));
}
