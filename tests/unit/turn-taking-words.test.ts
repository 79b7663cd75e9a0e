// Turn-taking with the words of each pause (a streaming recogniser's): a turn whose words stop
// mid-thought or on a number is not ended at the free wait, a whole answer ends as soon as its
// words are in, words still on their way are waited for (up to the longest wait), words from
// before the visitor went on count for nothing, and without words the waits are as before.

import { describe, expect, it } from 'vitest';
import { DEFAULT_TURN_TAKING, TurnTaker, type TurnEvent, type TurnTakingSettings } from '../../src/voice/turn-taking.ts';

const FRAME_MS = 32;
const FRAME = 512;

/** One step of a script: `[probability, ms]` of detector frames, or the words the recogniser gives back at that moment. */
type Step = [number, number] | { words: string | null };

function run(script: Step[], options: { words?: boolean; settings?: Partial<TurnTakingSettings>; choices?: string[] } = {}) {
  const settings = { ...DEFAULT_TURN_TAKING, ...options.settings };
  const taker = new TurnTaker(settings, FRAME_MS);
  taker.configure(settings, 'free', { language: 'en-US', choices: options.choices ?? [] });
  taker.expectWordsAtPauses(options.words ?? true);
  const events: (TurnEvent & { at: number })[] = [];
  let frame = 0;
  for (const step of script) {
    if ('words' in step) {
      for (const e of taker.heard(step.words)) events.push({ ...e, at: frame * FRAME_MS });
      continue;
    }
    const [p, ms] = step;
    for (let i = 0; i < Math.round(ms / FRAME_MS); i++) {
      for (const e of taker.push(new Float32Array(FRAME), p)) events.push({ ...e, at: (frame + 1) * FRAME_MS });
      frame++;
    }
  }
  return events;
}

const segments = (events: TurnEvent[]) => events.filter((e): e is Extract<TurnEvent, { type: 'segment' }> & { at: number } => e.type === 'segment');
/** Silence after the last speech frame when the turn was ended. */
const waited = (e: Extract<TurnEvent, { type: 'segment' }>) => e.atMs - e.speechEndMs;

const SPEECH: Step = [0.9, 960];
/** The 128 ms pause that commits the words so far, and 160 ms of recognition after it. */
const TO_WORDS: Step = [0.05, 288];

describe('turn-taking reads the words of each pause', () => {
  it('keeps a turn open over a 0.5 s pause after a number, and ends it at the free wait after its last words', () => {
    const events = run([[0, 320], SPEECH, TO_WORDS, { words: 'my phone number is five five five' }, [0.05, 224], SPEECH, TO_WORDS, { words: 'my phone number is five five five, zero one nine nine' }, [0.05, 2000]]);
    expect(segments(events)).toHaveLength(0 + 1);
    // the words of the end count: they end on a number, so the dictation wait
    expect(waited(segments(events)[0]!)).toBe(800);
    // without words, the same audio is two turns
    const blind = run([[0, 320], SPEECH, [0.05, 512], SPEECH, [0.05, 2000]], { words: false });
    expect(segments(blind)).toHaveLength(2);
  });

  it('waits the unfinished wait after "my name is"', () => {
    const events = run([[0, 320], SPEECH, TO_WORDS, { words: 'My name is' }, [0.05, 2000]]);
    expect(segments(events).map(waited)).toEqual([1216]); // 1200 ms, in whole frames
  });

  it('ends a whole answer as soon as its words are in, before the free wait', () => {
    const events = run([[0, 320], SPEECH, [0.05, 224], { words: 'Yes.' }, [0.05, 1000]]);
    const [end] = segments(events);
    expect(end!.at - (320 + 960)).toBe(224); // ended by the words, at once
    expect(run([[0, 320], SPEECH, [0.05, 224], { words: 'Blue' }, [0.05, 1000]], { choices: ['Red', 'Blue'] }).filter((e) => e.type === 'segment')[0]!.at).toBe(320 + 960 + 224);
  });

  it('ends plain words at the free wait', () => {
    const events = run([[0, 320], SPEECH, TO_WORDS, { words: 'My name is Maria Garcia.' }, [0.05, 1000]]);
    expect(segments(events).map(waited)).toEqual([352]);
  });

  it('waits for the words of a pause that are still on their way, up to the longest wait', () => {
    // words 600 ms after the pause: the turn is held past 350 ms, and they end it at once
    const late = run([[0, 320], SPEECH, [0.05, 608], { words: 'Maria Garcia' }, [0.05, 1000]]);
    expect(segments(late)[0]!.at - (320 + 960)).toBe(608);
    // words that never come: the turn ends at the longest wait words could ask for
    const never = run([[0, 320], SPEECH, [0.05, 3000]]);
    expect(segments(never).map(waited)).toEqual([1216]);
    // a recognition that failed: nothing more to wait for
    const failed = run([[0, 320], SPEECH, [0.05, 416], { words: null }, [0.05, 1000]]);
    expect(segments(failed)[0]!.at - (320 + 960)).toBe(416);
  });

  it('counts words from before the visitor went on for nothing', () => {
    // "yes" came back while the visitor was saying more: the next silence waits for its own words
    const events = run([[0, 320], [0.9, 320], [0.05, 160], [0.9, 64], { words: 'yes' }, [0.9, 640], [0.05, 224], [0.05, 2000]]);
    expect(segments(events).map(waited)).toEqual([1216]);
  });

  it('counts a softer word after the pause as going on: the words of the pause are no longer all', () => {
    // "yes", then a quiet "and" (voiced, below the speech threshold) after a moment of silence
    expect(segments(run([[0, 320], SPEECH, [0.05, 224], { words: 'yes' }]))).toHaveLength(1); // alone, "yes" ends the turn at once
    const events = run([[0, 320], SPEECH, [0.2, 160], { words: 'yes' }, [0.4, 320], [0.05, 2000]]);
    expect(events.map((e) => e.type)).toContain('resume');
    // the pause after the soft word waits for its own words (none come here: the longest wait)
    expect(segments(events).map(waited)).toEqual([1216]);
    // a voiced tail after the pause is not more speech
    const tail = run([[0, 320], SPEECH, [0.4, 64], [0.05, 192], { words: 'yes' }, [0.05, 500]]);
    expect(segments(tail).map(waited)).toEqual([224]);
  });

  it('without words at pauses (upload, or no stream) ends at the step\'s wait as before', () => {
    const events = run([[0, 320], SPEECH, [0.05, 1000]], { words: false });
    expect(segments(events).map(waited)).toEqual([352]);
  });

  it("with the flow's words: false, reads no words and waits for none", () => {
    const events = run([[0, 320], SPEECH, TO_WORDS, { words: 'My name is' }, [0.05, 1000]], { settings: { words: false } });
    expect(segments(events).map(waited)).toEqual([352]);
  });

  it('reports the silence since the last speech', () => {
    const taker = new TurnTaker(DEFAULT_TURN_TAKING, FRAME_MS);
    for (let i = 0; i < 30; i++) taker.push(new Float32Array(FRAME), 0.9);
    expect(taker.silenceMs).toBe(0);
    for (let i = 0; i < 5; i++) taker.push(new Float32Array(FRAME), 0.05);
    expect(taker.silenceMs).toBe(160);
    for (let i = 0; i < 20; i++) taker.push(new Float32Array(FRAME), 0.05);
    expect(taker.hearing).toBe(false);
    expect(taker.silenceMs).toBe(25 * FRAME_MS);
  });
});
