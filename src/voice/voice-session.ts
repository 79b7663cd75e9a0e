// One visitor's voice: the microphone's frames through turn-taking to speech recognition, the
// final words out to the conversation, barge-in, and the kiosk's own voice. It decides nothing
// about the flow: it hears, and it tells. No DOM beyond the ports, so Node tests drive it with
// recorded frames.
//
// A turn may come in parts: when the visitor starts speaking again before the words of the part
// before have been handed on (recognition still running), the parts make one utterance. The words
// heard so far shape when a turn ends: a streaming recogniser's words of each pause go to
// turn-taking, and the browser's own recogniser's final words are held while they stop
// mid-thought ("my number is five five five"), for the rest to join them.

import type { Microphone, VoiceFrame } from '../ports/microphone.ts';
import { isAbort, ServiceError } from '../ports/service-error.ts';
import type { LiveRecognizer, SegmentTranscriber, SpeechToText, StreamingTranscriber } from '../ports/speech-to-text.ts';
import type { Speaker } from './speaker.ts';
import { TurnStreamer } from './turn-streamer.ts';
import { HeldWords } from './held-words.ts';
import { TurnTaker, DEFAULT_DETECTOR, DEFAULT_TURN_TAKING, type DetectorSettings, type Listening, type TurnEvent } from './turn-taking.ts';

/** The performance marks of the voice path (docs/voice.md: "Measuring the voice path"). */
export type VoiceMark =
  | 'vk:listening'
  | 'vk:speech-end'
  | 'vk:pause-commit'
  | 'vk:pause-words'
  | 'vk:transcript'
  | 'vk:barge-in'
  | 'vk:tts-hold'
  | 'vk:tts-resume'
  | 'vk:tts-first-chunk'
  | 'vk:tts-start'
  | 'vk:tts-stop'
  | 'vk:vad-default-speech-end';

export type VoiceProblem =
  /** the microphone could not be opened (denied, missing, or the detector failed to load) */
  | 'microphone'
  /** speech recognition failed for a turn, or stopped */
  | 'recognition'
  /** speech recognition answered again after a failure */
  | 'recognition_back';

export interface VoiceEvents {
  /** something the status light depends on changed: read `VoiceSession.state` */
  changed(): void;
  /** the visitor's final words for one turn */
  heard(text: string): void;
  /** words being heard, not final (Web Speech, a streaming recogniser); null when the turn is over */
  interim(text: string | null): void;
  /**
   * The visitor paused and these may be all their words (a streaming recogniser, early start on):
   * the reply may be prepared, never shown or spoken, until `heard` brings the same words.
   */
  likelyTurn?(text: string): void;
  /** the visitor went on after `likelyTurn`: what was prepared for it is of no use */
  wentOn?(): void;
  /** the visitor spoke over the kiosk: stop the model's turn */
  interrupted(): void;
  problem(kind: VoiceProblem, error: ServiceError | null): void;
  mark(name: VoiceMark, detail?: Record<string, unknown>): void;
}

/** What the status light shows, in the order it wins: speaking, hearing, thinking, listening. */
export interface VoiceState {
  /**
   * `opening`: asking the browser; `preparing`: given, the detector still loading; `unused`:
   * nothing could recognise speech, so the microphone is never opened
   */
  microphone: 'off' | 'opening' | 'preparing' | 'open' | 'failed' | 'unused';
  hearing: boolean;
  transcribing: boolean;
  speaking: boolean;
  /** a reply is queued to be spoken, or sounding: the kiosk is about to speak or speaking */
  replying: boolean;
}

interface Part {
  /** what recognition was asked */
  source: Promise<string>;
  text: string | null;
  done: boolean;
}

export interface VoiceSessionOptions {
  /** how loud a frame must be to count as speech (the operator's microphone sensitivity) */
  detector?: DetectorSettings;
  /** with a streaming recogniser, start on the reply at a pause that may end the turn */
  earlyStart?: boolean;
}

/** The ISO 639-1 code of a BCP 47 tag ("en-US" -> "en"), as transcription services want it. */
export function isoLanguage(tag: string): string {
  return (tag.split(/[-_]/)[0] ?? 'en').toLowerCase();
}

export class VoiceSession {
  private readonly turns: TurnTaker;
  private parts: Part[] = [];
  private inFlight = new Set<AbortController>();
  private mic: VoiceState['microphone'] = 'off';
  private framesSeen = 0;
  private sttFailing = false;
  private bargedIn = false;
  private stopped = false;
  private readonly streamer: TurnStreamer | null;
  private listening: Listening;
  /** the kiosk's voice is held for a sound over it that may be the visitor */
  private holding = false;
  /** the browser's recogniser: final words that stop mid-thought, held for the rest of the turn */
  private readonly held = new HeldWords((text) => {
    this.events.mark('vk:transcript', { chars: text.length });
    this.events.heard(text);
  });

  constructor(
    private readonly microphone: Microphone | null,
    private readonly recognizer: SpeechToText | null,
    private readonly speaker: Speaker,
    private language: string,
    private readonly events: VoiceEvents,
    options: VoiceSessionOptions = {},
  ) {
    this.turns = new TurnTaker(DEFAULT_TURN_TAKING, microphone?.frameMs ?? 32, options.detector ?? DEFAULT_DETECTOR);
    this.listening = { settings: DEFAULT_TURN_TAKING, expectation: 'free', language, choices: [] };
    this.configure(this.listening);
    if (!this.canListen) this.mic = 'unused';
    this.streamer = recognizer?.kind === 'stream' ? this.streamTo(recognizer, options.earlyStart ?? false) : null;
    this.turns.expectWordsAtPauses(this.streamer !== null);
  }

  get state(): VoiceState {
    return {
      microphone: this.mic,
      hearing: this.turns.hearing,
      transcribing: this.parts.length > 0,
      speaking: this.speaker.speaking,
      replying: this.speaker.busy,
    };
  }

  /** True when the kiosk can hear the visitor at all (a recogniser exists). */
  get canListen(): boolean {
    return this.recognizer !== null && this.microphone !== null;
  }

  /** Opens the microphone and starts recognition. Never throws: failures become problems. */
  async start(): Promise<void> {
    if (!this.canListen || this.stopped) return;
    if (this.recognizer?.kind === 'stream') this.recognizer.warm?.(isoLanguage(this.language));
    this.mic = 'opening';
    this.events.changed();
    try {
      await this.microphone!.open({
        frame: (f) => this.onFrame(f),
        granted: () => {
          if (this.stopped || this.mic !== 'opening') return;
          this.mic = 'preparing';
          this.events.changed();
        },
        lost: (error) => this.microphoneLost(error),
      });
    } catch (error) {
      if (this.stopped) return;
      this.mic = 'failed';
      this.events.changed();
      this.events.problem('microphone', error instanceof ServiceError ? error : new ServiceError('microphone', 'malformed', String(error)));
      return;
    }
    if (this.stopped) {
      void this.microphone!.close();
      return;
    }
    this.mic = 'open';
    this.events.changed();
    if (this.recognizer?.kind === 'live') this.startLive(this.recognizer);
  }

  /** Listening settings for the step the flow is in now. */
  configure(listening: Listening): void {
    this.listening = listening;
    this.turns.configure(listening.settings, listening.expectation, { language: listening.language, choices: listening.choices });
  }

  /**
   * The visitor chose another language: the next turn is recognised in it (a streaming
   * recogniser connects again for it; the browser's own restarts in it). A turn being heard is
   * finished in the language it began in.
   */
  setLanguage(language: string): void {
    if (language === this.language || this.stopped) return;
    this.language = language;
    this.configure({ ...this.listening, language });
    if (this.recognizer?.kind === 'stream') this.recognizer.warm?.(isoLanguage(language));
    if (this.recognizer?.kind === 'live' && this.mic === 'open') {
      this.recognizer.stop();
      this.startLive(this.recognizer);
    }
  }

  /** The kiosk's voice started or stopped (from the speaker's events). */
  kioskSpeaking(on: boolean): void {
    if (!on) this.letGo();
    this.turns.setKioskSpeaking(on);
    if (on) this.bargedIn = false;
    this.events.changed();
  }

  /** Closes the microphone, stops recognition and drops every unfinished turn. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const c of this.inFlight) c.abort();
    this.inFlight.clear();
    this.parts = [];
    this.held.clear();
    this.turns.reset();
    this.streamer?.stop();
    if (this.recognizer?.kind === 'live') this.recognizer.stop();
    if (this.recognizer?.kind === 'stream') this.recognizer.close();
    const wasOpen = this.mic === 'open' || this.mic === 'opening' || this.mic === 'preparing';
    if (this.mic !== 'unused') this.mic = 'off';
    if (wasOpen) await this.microphone?.close();
  }

  /** The open microphone went silent (the microphone closed itself): say so, and listen no more this visit. */
  private microphoneLost(error: ServiceError): void {
    if (this.stopped || this.mic !== 'open') return;
    this.mic = 'failed';
    this.turns.reset();
    this.events.changed();
    this.events.problem('microphone', error);
  }

  private onFrame(frame: VoiceFrame): void {
    if (this.stopped) return;
    if (this.framesSeen++ === 0) this.events.mark('vk:listening', { frameMs: this.microphone!.frameMs });
    const wasHearing = this.turns.hearing;
    const events = this.turns.push(frame.samples, frame.probability);
    this.streamer?.frame(frame.samples, wasHearing);
    this.apply(events, wasHearing);
    this.held.check(this.listening, this.turns);
  }

  /** What turn-taking made of a frame or of the words so far. */
  private apply(events: readonly TurnEvent[], wasHearing: boolean): void {
    for (const event of events) this.onTurnEvent(event);
    if (wasHearing !== this.turns.hearing) {
      this.events.changed();
      this.deliver();
    }
  }

  /** The kiosk's voice, held for a sound over it, is heard again (there is nothing more to hold it for). */
  private letGo(): void {
    if (!this.holding) return;
    this.holding = false;
    this.speaker.hold(false);
  }

  /** The streaming recogniser's words of the turn so far (after a pause): they may end it, or ask for a longer wait. */
  private wordsSoFar(text: string | null): void {
    if (this.stopped) return;
    this.events.mark('vk:pause-words', { chars: text?.length ?? -1, silenceMs: this.turns.silenceMs });
    const wasHearing = this.turns.hearing;
    this.apply(this.turns.heard(text), wasHearing);
  }

  private onTurnEvent(event: TurnEvent): void {
    this.streamer?.turnEvent(event);
    switch (event.type) {
      case 'onset':
      case 'resume':
        return;
      case 'hold':
        // Maybe the visitor: the kiosk is silent at once, until the check below says.
        if (!this.speaker.speaking) return;
        this.holding = true;
        this.speaker.hold(true);
        this.events.mark('vk:tts-hold', { streamMs: event.atMs });
        return;
      case 'noise':
        // A cough, a click: the kiosk is heard again, where it was.
        if (!this.holding) return;
        this.holding = false;
        this.speaker.hold(false);
        this.events.mark('vk:tts-resume', { streamMs: event.atMs });
        return;
      case 'pause':
        if (this.streamer && this.parts.length > 0) this.events.mark('vk:pause-commit', { speechEndStreamMs: event.speechEndMs, decidedStreamMs: event.atMs });
        return;
      case 'speech':
        // Over the kiosk's voice (or while it is about to speak): the visitor has the floor.
        if (event.overKiosk || this.speaker.busy) {
          this.holding = false;
          this.bargedIn = true;
          this.events.mark('vk:barge-in', { streamMs: event.atMs });
          this.speaker.stop();
          this.events.interrupted();
        } else this.letGo();
        return;
      case 'segment':
        if (this.recognizer?.kind === 'live') return;
        this.events.mark('vk:speech-end', { speechEndStreamMs: event.speechEndMs, decidedStreamMs: event.atMs, speechMs: event.speechMs });
        if (this.recognizer?.kind === 'segment') this.transcribe(this.recognizer, event);
        else this.events.changed();
        return;
    }
  }

  /** The streaming recogniser's turns, their stretches joined as parts (a stretch sent again whole replacing its pieces), the likely turn passed on. */
  private streamTo(stt: StreamingTranscriber, earlyStart: boolean): TurnStreamer {
    const controller = new AbortController();
    return new TurnStreamer(stt, () => ({ language: isoLanguage(this.language), sampleRate: this.microphone!.sampleRate, signal: controller.signal }), earlyStart, {
      committed: (text, replaces) => {
        this.parts = this.parts.filter((p) => !replaces.includes(p.source));
        this.track(text, null);
        this.events.changed();
      },
      interim: (text) => this.events.interim(text),
      likelyTurn: (text) => this.events.likelyTurn?.(text),
      wentOn: () => this.events.wentOn?.(),
      words: (text) => this.wordsSoFar(text),
    }, () => this.turns.readsWords);
  }

  private transcribe(stt: SegmentTranscriber, segment: Extract<TurnEvent, { type: 'segment' }>): void {
    const controller = new AbortController();
    this.inFlight.add(controller);
    this.events.changed();
    const text = stt.transcribe({ samples: segment.samples, sampleRate: this.microphone!.sampleRate }, { language: isoLanguage(this.language), signal: controller.signal });
    this.track(text, controller);
  }

  /** One part of a turn: its text when recognised, a problem when recognition failed. */
  private track(text: Promise<string>, controller: AbortController | null): void {
    const part: Part = { source: text, text: null, done: false };
    this.parts.push(part);
    text
      .then(
        (text) => {
          part.text = text.trim();
          if (this.sttFailing) {
            this.sttFailing = false;
            this.events.problem('recognition_back', null);
          }
        },
        (error: unknown) => {
          if (controller?.signal.aborted || isAbort(error) || this.stopped) return;
          this.sttFailing = true;
          this.events.problem('recognition', error instanceof ServiceError ? error : new ServiceError('stt', 'malformed', String(error)));
        },
      )
      .finally(() => {
        if (controller) this.inFlight.delete(controller);
        part.done = true;
        if (!this.stopped) this.deliver();
      });
  }

  /** Hands on the turn once every part is recognised and the visitor is not speaking again. */
  private deliver(): void {
    if (this.parts.length === 0 || this.turns.hearing || this.parts.some((p) => !p.done)) return;
    const text = this.parts
      .map((p) => p.text ?? '')
      .filter(Boolean)
      .join(' ');
    this.parts = [];
    this.events.changed();
    if (this.streamer) this.events.interim(null);
    if (!text) return;
    this.events.mark('vk:transcript', { chars: text.length });
    this.events.heard(text);
  }

  private startLive(live: LiveRecognizer): void {
    live.start(this.language, {
      interim: (text) => {
        if (!this.ownVoiceMayBeHeard()) this.events.interim(text);
      },
      final: (text) => {
        this.events.interim(null);
        // Without a barge-in, what is recognised while the kiosk talks is most likely the kiosk.
        if (this.ownVoiceMayBeHeard()) return;
        this.held.add(text, this.listening, this.turns);
      },
      failed: (error) => {
        // The browser's recogniser does not come back by itself: stop listening for this visit.
        this.events.interim(null);
        if (this.mic === 'open') void this.microphone?.close();
        this.mic = 'failed';
        this.events.changed();
        this.events.problem('recognition', error);
      },
    });
  }

  private ownVoiceMayBeHeard(): boolean {
    return this.speaker.speaking && !this.bargedIn;
  }
}
