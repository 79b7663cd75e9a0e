// Is this answer a yes or a no? The engine's own reading (engine/runtime/yes-no.ts), so the assistant and
// the engine's "no means no" rule agree; and does the visitor ask to change something?

import { wordsOf } from './text.ts';

export { classifyYesNo, readAnswer, type Answer, type YesNo } from '../../engine/runtime/yes-no.ts';

/** Words that ask to change what was said or shown ("change my details", "the date is wrong"). */
const CHANGE = new Set(['change', 'edit', 'correct', 'correction', 'fix', 'wrong', 'mistake', 'update', 'amend', 'back']);

/** True when the visitor asks to change something ("change my details", "my date of birth is wrong"). */
export function wantsChange(text: string): boolean {
  return wordsOf(text).some((w) => CHANGE.has(w.text));
}
