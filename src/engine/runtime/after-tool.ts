// What follows a tool the engine has handled (called by the LLM, tapped, or answered by its HTTP
// action): the tool's transition (the state's, else the flow's global one), or a spoken cue when the visitor stays (a question about the
// values waiting for a yes, the tool's own cue, or what the form still needs).

import type { ToolDef } from '../language/flow.ts';
import { globalIn } from '../language/global.ts';
import { confirmQuestion } from './gate.ts';
import { kioskSentence } from './kiosk-sentences.ts';
import { interpolate } from '../language/interpolate.ts';
import type { Turn } from './session.ts';
import { attempt } from './transition.ts';
import { own } from '../language/records.ts';

/** The tool's transition, or a speech cue when it stays. */
export function afterTool(t: Turn, tool: ToolDef): void {
  const state = t.state!;
  const mapped = own(state.transitions.onToolCall, tool.name);
  // The state's own mapping first; a global one is a way out, not held back by the gate.
  const branches = mapped ?? own(globalIn(t.flow, state).onToolCall, tool.name);
  if (branches && attempt(t, branches, 'tool', mapped === undefined)) return;
  if (branches) return; // blocked: reported already
  const pending = t.pendingVars();
  if (pending.length && pending.some((v) => !t.s.heard[v])) {
    t.emit({ type: 'speech_cue', text: confirmQuestion(t), reason: 'confirm_capture' });
    return;
  }
  t.emit({ type: 'speech_cue', text: tool.speechCue ? interpolate(tool.speechCue, t.shown) : stillNeeded(t), reason: 'tool_handled' });
}

/** "Thank you. Next: your email address." from the form fields still empty, in the visit's language. */
export function stillNeeded(t: Turn): string {
  const empty = (t.state?.ui?.fields ?? []).filter((f) => t.s.values[f.id] === undefined || t.s.values[f.id] === '');
  if (empty.length === 0) return kioskSentence('thanks', t.s.language);
  // German nouns keep their capital ("Geburtsdatum"); other labels are said in lower case.
  const german = t.s.language.toLowerCase().startsWith('de');
  const labels = empty.map((f) => interpolate(f.label, t.shown).replace(/\s*[?:]\s*$/, '')).map((l) => (german ? l : l.toLowerCase()));
  return kioskSentence('thanks_next', t.s.language, { fields: labels.join(', ') });
}
