// Changes of mind: the visitor goes back a step, or changes an earlier answer, by saying so, as
// the screen's own buttons allow. The assistant calls the engine's go_back tool with the button
// (which the engine takes only to a step this visit has shown): Back where the step has it, else
// the step's button that changes things ("Change my details", "Change my reason"). The words come
// with it and are read again at that step ("no wait, I meant Priya" chooses Priya there).

import { foldPhrase } from '../../engine/runtime/words.ts';
import { hearChoice } from './choices.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { isQuestion } from './names.ts';
import { backButtonsOffered, type Screen } from './screen.ts';
import { wantsChange } from './yes-no.ts';

const backPhrases = perLanguage((lang: Language) => lang.talk.back.map((p) => ` ${foldPhrase(p)} `));

/** True when the visitor asks to go back a step ("go back", "can I go back?", "zurück"). */
export function asksBack(said: string, lang: Language): boolean {
  const words = ` ${foldPhrase(said)} `;
  return backPhrases(lang).some((p) => words.includes(p));
}

/**
 * The button to go back by from this step (go_back's `button`): `back` where the step has Back;
 * else the step's own button that changes things, the one whose label the visitor names when
 * there are several. Undefined when the engine offers no way back here.
 */
export function wayBack(screen: Screen, said: string): string | undefined {
  const offered = backButtonsOffered(screen);
  if (screen.canGoBack && offered.includes('back')) return 'back';
  const lang = screen.lang;
  const buttons = (screen.artifact?.actions ?? []).filter((a) => offered.includes(a.event) && a.event !== 'back' && (wantsChange(a.event) || wantsChange(a.label, lang)));
  if (buttons.length <= 1) return buttons[0]?.event;
  const named = hearChoice(said, buttons.map((b) => ({ value: b.event, names: [], phrases: [b.label] })), lang).chosen?.value;
  return typeof named === 'string' ? named : buttons[0]!.event;
}

/**
 * Whether what the visitor said asks to go back, when nothing of this step took it: they ask for
 * Back ("go back"), take something back with words for an earlier step ("no wait, I meant Priya",
 * "sorry, I don't have an appointment after all"), or ask to change something shown ("my date of
 * birth is wrong", "I need to change my name"). A plain "no" is not one: it answers the step.
 */
export function goesBack(screen: Screen, said: string, correction: { correcting: boolean; rest: string }): boolean {
  const lang = screen.lang;
  if (asksBack(said, lang)) return true;
  if (correction.correcting && correction.rest !== '' && !isQuestion(correction.rest, lang)) return true;
  return wantsChange(said, lang) && foldPhrase(said).split(' ').length > 1;
}
