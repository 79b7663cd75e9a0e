// The outside services this kiosk uses, chosen from what its server says is configured
// (`GET /api/config`): the language model (or the offline assistant), speech recognition (the
// server's transcription service, else the browser's Web Speech, else none), and the voice (the
// server's speech service, with the browser's own voice behind it, else the browser's alone).
// The heavy parts (the openai client; vad-web with onnxruntime-web) load only when needed, after
// the first screen is up.

import { primaryLanguage } from '../engine/language/localize.ts';
import { BrowserSpeech, browserSpeechAvailable } from '../adapters/browser/speech-synthesis.ts';
import { WebSpeechRecognizer, webSpeechAvailable } from '../adapters/browser/web-speech.ts';
import { OfflineAgent } from '../adapters/offline-agent/offline-agent.ts';
import type { VadMicrophone } from '../adapters/vad-web/microphone.ts';
import { askForMicrophone, stopTracks } from '../adapters/browser/microphone-access.ts';
import type { LanguageModel } from '../ports/language-model.ts';
import type { Microphone, MicrophoneEvents } from '../ports/microphone.ts';
import { API, NO_SERVICES, type ServiceConfig } from '../ports/services.ts';
import type { SpeechToText } from '../ports/speech-to-text.ts';
import type { TextToSpeech } from '../ports/text-to-speech.ts';
import { whenControlled } from '../pwa/register.ts';
import type { VoiceParts, MarkFn } from './kiosk-voice.svelte.ts';
import type { VoiceSettings } from './kiosk-settings.ts';
import { detectorFor } from '../voice/turn-taking.ts';
import { PageAudio } from './page-audio.ts';

/** What the operator's test of one service came to (src/adapters/openai/service-checks.ts). */
export interface ServiceCheck {
  ok: boolean;
  text: string;
}

/** The settings used when the page gives none: the flow's language, the server's voice. */
const SERVER_VOICE: VoiceSettings = { language: null, voice: null, sensitivity: 'normal' };

/**
 * Reads the server's configuration: null when the server could not be reached (offline, a
 * network fault: try again later), NO_SERVICES when it answered without /api (a static host).
 */
export async function fetchServiceConfig(fetcher: typeof fetch = fetch): Promise<ServiceConfig | null> {
  let response: Response;
  try {
    response = await fetcher(API.config, { headers: { accept: 'application/json' } });
  } catch (error) {
    console.warn(`kiosk: the server's service configuration is out of reach (${(error as Error).message}); the built-in assistant stands in`);
    return null;
  }
  if (response.status >= 500) return null;
  if (!response.ok) return NO_SERVICES;
  try {
    const body = (await response.json()) as Partial<ServiceConfig>;
    return { llm: body.llm ?? null, stt: body.stt ?? null, tts: body.tts ?? null };
  } catch {
    return NO_SERVICES; // a host that answers every path with the page
  }
}

/** How often an unreachable configuration is asked for again (and at once when the network returns). */
const CONFIG_RETRY_MS = 60_000;

type OpenAIAdapters = typeof import('../adapters/openai/index.ts');

/** Whether this site may use the microphone without asking: 'granted', 'denied', 'prompt', or null where the browser will not say. */
async function microphonePermission(): Promise<PermissionState | null> {
  try {
    return (await navigator.permissions.query({ name: 'microphone' as PermissionName })).state;
  } catch {
    return null;
  }
}

/** The microphone, whose code (vad-web, onnxruntime-web) is fetched on first use. */
class LazyMicrophone implements Microphone {
  readonly sampleRate = 16000;
  readonly frameMs = 32;
  private inner: Promise<VadMicrophone> | null = null;
  /** counts opens and closes, so an open that a close overtook lets its microphone go */
  private openings = 0;
  /** lets the page's audio rest again: the microphone listens through it from open to close */
  private releaseAudio: (() => void) | null = null;

  constructor(
    private readonly onDefaultSpeechEnd: () => void,
    private readonly mark: MarkFn,
    /** the page's audio, whose AudioContext the detector runs on: woken in the Start tap, made without waking before it */
    private readonly audio: PageAudio<AudioContext>,
  ) {}

  /**
   * Fetches the code and the detector's model while the kiosk waits, where the microphone is
   * already allowed (a kiosk set up for voice); the microphone stays closed. Where the browser
   * must still ask, or has been told no, the detector loads at Start beside the question, or not at all.
   */
  preload(): void {
    void microphonePermission().then((permission) => {
      if (permission === 'granted' || permission === null) void this.load().then((m) => m.preload());
    });
  }

  /**
   * Asks for the microphone before the detector's code has arrived: a refusal is thrown as soon
   * as the browser gives it, however long that code takes to load on a slow tablet.
   */
  async open(events: MicrophoneEvents): Promise<void> {
    const opening = ++this.openings;
    const asked = askForMicrophone();
    const refused = asked.then(() => new Promise<never>(() => undefined));
    let microphone: VadMicrophone;
    try {
      microphone = await Promise.race([this.load(), refused]);
    } catch (error) {
      void asked.then(stopTracks, () => undefined); // the detector's code did not arrive: nothing will use the microphone
      throw error;
    }
    if (opening !== this.openings) {
      void asked.then(stopTracks, () => undefined); // closed while the code was arriving
      return;
    }
    this.releaseAudio ??= this.audio.listen();
    try {
      await microphone.open(events, asked);
    } catch (error) {
      this.letAudioRest();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.openings++;
    this.letAudioRest();
    if (this.inner) await (await this.inner).close();
  }

  private letAudioRest(): void {
    this.releaseAudio?.();
    this.releaseAudio = null;
  }

  private load(): Promise<VadMicrophone> {
    if (!this.inner) {
      this.mark('vk:detector-load');
      this.inner = import('../adapters/vad-web/microphone.ts').then(
        ({ VadMicrophone }) => new VadMicrophone({ onDefaultSpeechEnd: this.onDefaultSpeechEnd, mark: this.mark, audioContext: (wake) => this.audio.get(wake) }),
        (error: unknown) => {
          this.inner = null; // a network that failed once may not fail at the next Start
          throw error;
        },
      );
    }
    return this.inner;
  }
}

export class KioskServices {
  config = $state<ServiceConfig>(NO_SERVICES);
  /** whether the server answered for its configuration: null before it was asked */
  reachable = $state<boolean | null>(null);
  private openai: OpenAIAdapters | null = null;
  private retrying = false;
  private preloaded = false;
  private microphone: LazyMicrophone | null = null;
  /** the state of the page's AudioContext (`none` before it is made): `suspended` while it rests */
  audioState = $state<AudioContextState | 'none'>('none');
  /** the page's one AudioContext, resting while nothing plays and no microphone listens */
  private readonly audio = new PageAudio({
    make: () => {
      const context = new AudioContext();
      context.addEventListener('statechange', () => (this.audioState = context.state));
      this.audioState = context.state;
      return context;
    },
  });

  constructor(
    private readonly origin: string,
    private readonly mark: MarkFn,
    /** the language, voice and microphone sensitivity the page's settings ask for */
    private readonly voiceSettings: VoiceSettings = SERVER_VOICE,
  ) {}

  async load(fetcher?: typeof fetch): Promise<void> {
    // A browser that recognises speech itself listens whatever the server says: its detector
    // starts loading now, beside the configuration, so a visitor who taps Start at once waits less.
    this.preloadMicrophone();
    const config = await fetchServiceConfig(fetcher);
    this.reachable = config !== null;
    if (config === null) {
      this.retryLater(fetcher);
      this.preloadMicrophone();
      return;
    }
    if (config.llm || config.stt || config.tts) {
      try {
        this.openai = await import('../adapters/openai/index.ts');
      } catch (error) {
        console.warn(`kiosk: the service adapters did not load (${(error as Error).message}); running on the built-in assistant`);
        this.retryLater(fetcher);
        return;
      }
    }
    this.config = config;
    this.preloadMicrophone();
  }

  /**
   * The server was out of reach (the page came from the offline cache): ask again when the
   * network returns and every minute, so the next visit has its services without a reload.
   */
  private retryLater(fetcher?: typeof fetch): void {
    if (this.retrying || typeof window === 'undefined') return;
    this.retrying = true;
    const again = () => {
      clearInterval(timer);
      window.removeEventListener('online', again);
      this.retrying = false;
      void this.load(fetcher);
    };
    const timer = setInterval(again, CONFIG_RETRY_MS);
    window.addEventListener('online', again);
  }

  /** The detector loads while the kiosk waits for a visitor (from the offline cache once it is there); the microphone stays closed. */
  private preloadMicrophone(): void {
    if (this.preloaded || !(this.config.stt || webSpeechAvailable())) return;
    this.preloaded = true;
    void whenControlled().then(() => this.mic().preload());
  }

  /** A tap or a key: the page's audio, if it rests, wakes inside the gesture (Safari resumes a context only from one). */
  wakeAudio(): void {
    this.audio.wake();
  }

  get hasModel(): boolean {
    return this.config.llm !== null;
  }

  /** A fresh language model for one visit: the configured one, or the offline assistant. */
  model(): LanguageModel {
    const llm = this.config.llm;
    return llm && this.openai ? new this.openai.OpenAIChatModel({ baseURL: this.url(API.llm), model: llm.model }) : new OfflineAgent();
  }

  /**
   * The language the voice listens and speaks in for a visit in `language`: the operator's
   * language setting when the visit is in the flow's default language (`home`) or in the same
   * language as the setting (en-GB refines en), else the visit's own.
   */
  spokenLanguage(language: string, home: boolean): string {
    const chosen = this.voiceSettings.language;
    if (chosen === null) return language;
    return home || primaryLanguage(chosen) === primaryLanguage(language) ? chosen : language;
  }

  /** The voice of one visit. Called from the Start tap, so audio may start. */
  voiceParts(visitLanguage: string, home: boolean): VoiceParts {
    const recognizer = this.recognizer();
    const language = this.spokenLanguage(visitLanguage, home);
    // The detector hears through the page's AudioContext: made, or woken, inside this tap, as
    // Safari and Firefox let audio run only from a tap.
    if (recognizer) this.audio.get();
    return {
      microphone: recognizer ? this.mic() : null,
      recognizer,
      voices: this.voices(),
      language,
      detector: detectorFor(this.voiceSettings.sensitivity),
      earlyStart: recognizer?.kind === 'stream' && this.config.llm?.earlyStart !== false,
    };
  }

  /**
   * The operator's test of one service: a short real request through the server's /api/ route.
   * Null when the server has no such service.
   */
  async check(service: 'llm' | 'stt' | 'tts', language: string): Promise<ServiceCheck | null> {
    const { llm, stt, tts } = this.config;
    if (!this.openai) return null;
    if (service === 'llm') return llm ? this.openai.checkChat(this.url(API.llm), llm.model) : null;
    if (service === 'stt') return stt ? this.openai.checkTranscription(this.url(API.stt), stt.model, this.voiceSettings.language ?? language) : null;
    return tts ? this.openai.checkSpeech(this.url(API.tts), tts.model, this.voiceSettings.voice ?? tts.voice, tts.format) : null;
  }

  private recognizer(): SpeechToText | null {
    const stt = this.config.stt;
    if (stt && this.openai) {
      const upload = new this.openai.OpenAITranscriber({ baseURL: this.url(API.stt), model: stt.model });
      if (stt.mode !== 'realtime') return upload;
      const url = new URL(API.sttRealtime, this.origin);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      return new this.openai.RealtimeTranscriber({ url: url.href, model: stt.model, fallback: upload, onFallback: (why) => console.warn(`kiosk: streaming recognition failed (${why}); this turn goes by upload`) });
    }
    return webSpeechAvailable() ? new WebSpeechRecognizer() : null;
  }

  private voices(): TextToSpeech[] {
    const voices: TextToSpeech[] = [];
    const tts = this.config.tts;
    if (tts && this.openai) {
      const voice = this.voiceSettings.voice ?? tts.voice;
      const byLanguage = tts.byLanguage ?? {};
      voices.push(new this.openai.OpenAISpeech({ baseURL: this.url(API.tts), model: tts.model, voice, byLanguage, format: tts.format ?? 'auto', audioContext: () => this.audio.get(), queuedUntil: (end) => this.audio.playsUntil(end) }));
      // The tap that starts a visit lets audio play: make the context now, inside it.
      this.audio.get();
    }
    if (browserSpeechAvailable()) voices.push(new BrowserSpeech());
    return voices;
  }

  private url(path: string): string {
    return new URL(path, this.origin).href;
  }

  private mic(): LazyMicrophone {
    this.microphone ??= new LazyMicrophone(() => this.mark('vk:vad-default-speech-end'), this.mark, this.audio);
    return this.microphone;
  }
}
