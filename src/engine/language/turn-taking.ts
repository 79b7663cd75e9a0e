// `turn_taking` in the flow language: how the kiosk listens (when a spoken answer has ended, what
// is noise, interruptions). Its syntax, what a flow gives as data, and the defaults where it
// says nothing. The engine only carries these to the kiosk's voice, which applies them.

import { asBool, asNum, asObj, asStr } from './raw-values.ts';
import { bool, num, obj, str } from './shapes.ts';

const ms = (doc: string, min: number) => num(doc, { integer: true, min, max: min === 0 ? 2000 : 5000 });

/** The keys of `turn_taking`, at the top of a flow and in a state. */
export const turnTakingShape = obj(
  {
    end_silence_ms: ms('silence (ms) that ends a free answer: a name, yes or no, a choice (default 350)', 100),
    dictation_silence_ms: ms('silence (ms) that ends a dictated number, phone, date or email (default 800)', 100),
    min_speech_ms: ms('sound shorter than this (ms) is noise, not speech (default 150)', 0),
    barge_in: bool('the visitor may talk over the kiosk to interrupt it (default true)'),
    barge_in_ms: ms("speech (ms) over the kiosk's voice before it stops (default 250)", 0),
    expect: str('the answer awaited: auto (from the field being asked), free or dictation', ['auto', 'free', 'dictation']),
    words: bool('the words heard so far shape the wait, where recognition gives them while the visitor speaks (default true)'),
    unfinished_silence_ms: ms('silence (ms) that ends an answer whose words stop mid-thought: "my name is", "and", "um" (default 1200)', 100),
    complete_silence_ms: ms('silence (ms) that ends an answer whose words are plainly whole: yes, no, an option, a full date (default 200)', 100),
  },
  'how the kiosk listens: when a spoken answer has ended, what is noise, and interruptions',
);

/** How the kiosk listens (`turn_taking`): only what the flow says; the voice layer has defaults. */
export interface TurnTakingDef {
  endSilenceMs?: number;
  dictationSilenceMs?: number;
  minSpeechMs?: number;
  bargeIn?: boolean;
  bargeInMs?: number;
  expect?: 'auto' | 'free' | 'dictation';
  words?: boolean;
  unfinishedSilenceMs?: number;
  completeSilenceMs?: number;
}

/** What `turn_taking` means where a flow says nothing. */
export const TURN_TAKING_DEFAULTS = {
  endSilenceMs: 350,
  dictationSilenceMs: 800,
  minSpeechMs: 150,
  bargeIn: true,
  bargeInMs: 250,
  words: true,
  unfinishedSilenceMs: 1200,
  completeSilenceMs: 200,
} as const;

/** A flow's or a state's `turn_taking` as data (what it says, no defaults). */
export function normalizeTurnTaking(raw: unknown): TurnTakingDef {
  const t = asObj(raw);
  const expect = asStr(t['expect']);
  const number = (key: string, name: keyof TurnTakingDef) => (asNum(t[key]) !== undefined ? { [name]: asNum(t[key])! } : {});
  const flag = (key: string, name: keyof TurnTakingDef) => (typeof t[key] === 'boolean' ? { [name]: asBool(t[key], false) } : {});
  return {
    ...number('end_silence_ms', 'endSilenceMs'),
    ...number('dictation_silence_ms', 'dictationSilenceMs'),
    ...number('min_speech_ms', 'minSpeechMs'),
    ...flag('barge_in', 'bargeIn'),
    ...number('barge_in_ms', 'bargeInMs'),
    ...(expect === 'auto' || expect === 'free' || expect === 'dictation' ? { expect } : {}),
    ...flag('words', 'words'),
    ...number('unfinished_silence_ms', 'unfinishedSilenceMs'),
    ...number('complete_silence_ms', 'completeSilenceMs'),
  };
}
