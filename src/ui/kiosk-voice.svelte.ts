// The kiosk's voice as the screen sees it: the status light (listening, hearing you, thinking,
// speaking), the words being heard, and plain notices when the microphone, recognition or speech
// fail. It owns one visit's Speaker and VoiceSession and the sentence splitting of the replies,
// and what the visitor can ask of the voice itself: to say the last thing again, to stop, to speak
// louder or quieter, and the kiosk's own words said aloud (audio guidance, time limits).

import { words, type Words } from './i18n/words.ts';
import type { ServiceError } from '../ports/service-error.ts';
import type { Microphone } from '../ports/microphone.ts';
import type { SpeechToText } from '../ports/speech-to-text.ts';
import type { TextToSpeech } from '../ports/text-to-speech.ts';
import { SentenceSplitter } from '../voice/sentences.ts';
import { Speaker } from '../voice/speaker.ts';
import type { DetectorSettings, Listening } from '../voice/turn-taking.ts';
import { VoiceSession, type VoiceMark, type VoiceProblem } from '../voice/voice-session.ts';

export type VoiceStatus = 'off' | 'starting' | 'preparing' | 'listening' | 'hearing' | 'thinking' | 'speaking' | 'no-microphone';

/** Why the microphone failed: blocked, not there, open but giving no sound, or anything else. */
export type MicrophoneFault = 'denied' | 'missing' | 'silent' | 'broken';

/** The fault a microphone's ServiceError stands for. */
export function microphoneFault(error: ServiceError | null): MicrophoneFault {
  if (error?.failure === 'denied') return 'denied';
  if (error?.failure === 'missing') return 'missing';
  return error?.failure === 'timeout' ? 'silent' : 'broken';
}

/** What one visit's voice is made of; the page builds it from the server's configuration. */
export interface VoiceParts {
  microphone: Microphone | null;
  recognizer: SpeechToText | null;
  /** the voices to speak with, best first; the next takes over when one fails */
  voices: TextToSpeech[];
  language: string;
  /** the detector's thresholds (the operator's microphone sensitivity); default: normal */
  detector?: DetectorSettings;
  /** with a streaming recogniser, prepare the reply at a pause that may end the turn */
  earlyStart?: boolean;
}

export interface KioskVoiceEvents {
  heard(text: string): void;
  interrupted(): void;
  /** the visitor paused, and these may be all their words: the reply may be prepared, not given */
  likelyTurn?(text: string): void;
  /** the visitor went on: what was prepared is of no use */
  wentOn?(): void;
}

/** Records a mark of the voice path for any harness that times it (performance.mark in the page). */
export type MarkFn = (name: string, detail?: Record<string, unknown>) => void;

export const browserMark: MarkFn = (name, detail) => {
  try {
    performance.mark(name, detail ? { detail } : undefined);
  } catch {
    // marks are for measurement only
  }
};


export class KioskVoice {
  status = $state<VoiceStatus>('off');
  /** words being heard, not final (shown greyed) */
  interim = $state<string | null>(null);
  /** a plain sentence about the voice for the visitor; the detail goes to the console */
  note = $state<Words | null>(null);
  /** which voice speaks, for the operator ("captions only" when none) */
  speakingWith = $state<string | null>(null);
  /** the microphone failed to open in the last visit (blocked, missing, broken), for the operator's
   *  status light; kept after the visit, cleared when a microphone opens again */
  microphoneFault = $state<MicrophoneFault | null>(null);
  /** speech recognition failed and has not come back, for the operator's status light */
  recognitionFault = $state(false);
  /** the visit has a voice to speak with (Repeat and Stop are offered); stays so for the visit, even on captions only */
  voiced = $state(false);

  /** the kiosk can hear what the visitor says now or in a moment (so "say 'more time'" may be offered) */
  get hears(): boolean {
    return this.status !== 'off' && this.status !== 'no-microphone';
  }

  private session: VoiceSession | null = null;
  private speaker: Speaker | null = null;
  private splitters = new Map<number, SentenceSplitter>();
  /** replies stopped while they were still coming: the rest of them is not spoken */
  private hushed = new Set<number>();
  private thinking = false;
  /** how loud the kiosk speaks, a gain from 0 to 1 */
  private gain = 1;
  /** what the kiosk has said since the visitor last did something: what Repeat says again */
  private said: string[] = [];
  /** the next thing the kiosk says starts a new `said` (the visitor has acted since) */
  private saidIsOld = true;

  constructor(private readonly mark: MarkFn = browserMark) {}

  /** A visit begins: opens the microphone (the Start tap is the gesture browsers want). */
  begin(parts: VoiceParts, events: KioskVoiceEvents): void {
    this.end();
    this.mark('vk:voice-begin');
    const speaker = new Speaker(parts.voices, parts.language, {
      speaking: (on) => {
        this.mark(on ? 'vk:tts-start' : 'vk:tts-stop');
        this.session?.kioskSpeaking(on);
        this.refresh();
      },
      quiet: () => this.refresh(),
      firstAudio: () => this.mark('vk:tts-first-chunk'),
      failed: (error, fallingBack) => {
        console.warn(`kiosk: speech failed (${error.message}); ${fallingBack ? 'the next voice takes over' : 'captions only'}`);
        this.speakingWith = speaker.voiceName;
      },
    });
    speaker.setVolume(this.gain);
    this.speaker = speaker;
    this.voiced = parts.voices.length > 0;
    this.speakingWith = speaker.voiceName;
    const session = new VoiceSession(parts.microphone, parts.recognizer, speaker, parts.language, {
      changed: () => this.refresh(),
      heard: (text) => events.heard(text),
      interim: (text) => (this.interim = text),
      interrupted: () => events.interrupted(),
      likelyTurn: (text) => events.likelyTurn?.(text),
      wentOn: () => events.wentOn?.(),
      problem: (kind, error) => this.problem(kind, error),
      mark: (name: VoiceMark, detail) => this.mark(name, detail),
    }, { ...(parts.detector ? { detector: parts.detector } : {}), earlyStart: parts.earlyStart ?? false });
    this.session = session;
    if (!session.canListen) this.note = words('listening.none');
    this.refresh();
    void session.start();
  }

  /** The visit goes on in another language: the kiosk listens and speaks in it from now on. */
  setLanguage(language: string): void {
    this.speaker?.setLanguage(language);
    this.session?.setLanguage(language);
    this.refresh();
  }

  /** Listening settings, the kind of answer awaited and what its words are read against, for the step on screen. */
  listenFor(listening: Listening): void {
    this.session?.configure(listening);
  }

  /** A reply of the kiosk, growing while streamed: each finished sentence is spoken. */
  reply(id: number, text: string, final: boolean): void {
    if (!this.speaker) return;
    if (this.hushed.has(id)) {
      if (final) this.hushed.delete(id);
      return;
    }
    let splitter = this.splitters.get(id);
    if (!splitter) {
      splitter = new SentenceSplitter();
      this.splitters.set(id, splitter);
    }
    for (const sentence of final ? splitter.finish(text) : splitter.push(text)) {
      if (!this.speaker.busy) this.mark('vk:sentence', { chars: sentence.length });
      this.speak(sentence);
    }
    if (final) this.splitters.delete(id);
  }

  /** The kiosk's own words, said aloud (and said again by Repeat): a screen read out, a time limit. */
  announce(text: string): void {
    if (!this.speaker) return;
    for (const sentence of new SentenceSplitter().finish(text)) this.speak(sentence);
  }

  /** Says `text` at once, instead of whatever was being said: where the keys have moved to. Repeat does not say it again. */
  echo(text: string): void {
    if (!this.speaker) return;
    this.silence();
    this.speaker.say(text);
    this.refresh();
  }

  /** The visitor did something: what the kiosk says next is the new last thing, for Repeat. */
  visitorActed(): void {
    this.saidIsOld = true;
  }

  /** Says again what the kiosk has said since the visitor last did something; false when it has said nothing. */
  repeat(): boolean {
    if (!this.speaker || this.said.length === 0) return false;
    this.silence();
    for (const sentence of this.said) this.speaker.say(sentence);
    this.refresh();
    return true;
  }

  /** How loud the kiosk speaks from now on (a gain from 0 to 1), every voice and the sentence being said. */
  setVolume(gain: number): void {
    this.gain = gain;
    this.speaker?.setVolume(gain);
  }

  /** Stops the kiosk's voice now (the visitor tapped on, asked it to stop, or spoke over it); a reply still coming is not spoken. */
  silence(): void {
    this.speaker?.stop();
    for (const id of this.splitters.keys()) this.hushed.add(id);
    this.splitters.clear();
  }

  private speak(sentence: string): void {
    if (this.saidIsOld) {
      this.said = [];
      this.saidIsOld = false;
    }
    this.said.push(sentence);
    this.speaker!.say(sentence);
    this.refresh();
  }

  /** The model is working on a turn. */
  setThinking(on: boolean): void {
    this.thinking = on;
    this.refresh();
  }

  /** The flow has ended: the microphone closes; the kiosk may still say its last words. */
  stopListening(): void {
    void this.session?.stop();
    this.interim = null;
    this.refresh();
  }

  /** The visit is over: microphone closed, voice silenced, nothing kept. */
  end(): void {
    this.silence();
    void this.session?.stop();
    this.session = null;
    this.speaker = null;
    this.hushed.clear();
    this.said = [];
    this.saidIsOld = true;
    this.interim = null;
    this.note = null;
    this.thinking = false;
    this.voiced = false;
    this.status = 'off';
  }

  private problem(kind: VoiceProblem, error: ServiceError | null): void {
    if (error) console.warn(`kiosk: ${error.message}`);
    if (kind === 'recognition_back') {
      this.recognitionFault = false;
      if (this.note?.key === 'listening.recognition') this.note = null;
      return;
    }
    if (kind === 'recognition') this.recognitionFault = true;
    else {
      this.microphoneFault = microphoneFault(error);
      this.mark('vk:microphone-problem', { failure: this.microphoneFault });
    }
    // The browser's own recogniser without a microphone or a language: it will not come back.
    if (kind === 'recognition') this.note = words(error?.failure === 'missing' || error?.failure === 'denied' ? 'listening.none' : 'listening.recognition');
    else this.note = words(`listening.${this.microphoneFault ?? 'broken'}`);
    this.refresh();
  }

  private refresh(): void {
    const s = this.session?.state;
    if (!s) {
      this.status = 'off';
      return;
    }
    if (s.microphone === 'open') this.microphoneFault = null;
    if (s.speaking) this.status = 'speaking';
    else if (s.hearing) this.status = 'hearing';
    // A reply on its way to being spoken is thinking, not listening: the visitor waits for it.
    else if (s.transcribing || this.thinking || s.replying) this.status = 'thinking';
    else if (s.microphone === 'open') this.status = 'listening';
    else if (s.microphone === 'opening') this.status = 'starting';
    else if (s.microphone === 'preparing') this.status = 'preparing';
    else if (s.microphone === 'off') this.status = 'off';
    else this.status = 'no-microphone';
  }
}
