// The outside services this kiosk uses, chosen from what its server says is configured
// (`GET /api/config`): the language model (or the offline assistant), speech recognition (the
// server's transcription service, else the browser's Web Speech, else none), and the voice (the
// server's speech service, with the browser's own voice behind it, else the browser's alone).
// The heavy parts (the openai client; vad-web with onnxruntime-web) load only when needed, after
// the first screen is up.

import { BrowserSpeech, browserSpeechAvailable } from '../adapters/browser/speech-synthesis.ts';
import { WebSpeechRecognizer, webSpeechAvailable } from '../adapters/browser/web-speech.ts';
import { OfflineAgent } from '../adapters/offline-agent/offline-agent.ts';
import type { VadMicrophone } from '../adapters/vad-web/microphone.ts';
import type { LanguageModel } from '../ports/language-model.ts';
import type { Microphone, MicrophoneEvents } from '../ports/microphone.ts';
import { API, NO_SERVICES, type ServiceConfig } from '../ports/services.ts';
import type { SpeechToText } from '../ports/speech-to-text.ts';
import type { TextToSpeech } from '../ports/text-to-speech.ts';
import { whenControlled } from '../pwa/register.ts';
import type { VoiceParts, MarkFn } from './kiosk-voice.svelte.ts';

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

/** The microphone, whose code (vad-web, onnxruntime-web) is fetched on first use. */
class LazyMicrophone implements Microphone {
  readonly sampleRate = 16000;
  readonly frameMs = 32;
  private inner: Promise<VadMicrophone> | null = null;

  constructor(private readonly onDefaultSpeechEnd: () => void) {}

  /** Fetches the code and the detector's model; the microphone stays closed. */
  preload(): void {
    void this.load().then((m) => m.preload());
  }

  async open(events: MicrophoneEvents): Promise<void> {
    return (await this.load()).open(events);
  }

  async close(): Promise<void> {
    if (this.inner) await (await this.inner).close();
  }

  private load(): Promise<VadMicrophone> {
    this.inner ??= import('../adapters/vad-web/microphone.ts').then(({ VadMicrophone }) => new VadMicrophone({ onDefaultSpeechEnd: this.onDefaultSpeechEnd }));
    return this.inner;
  }
}

export class KioskServices {
  config = $state<ServiceConfig>(NO_SERVICES);
  private openai: OpenAIAdapters | null = null;
  private retrying = false;
  private preloaded = false;
  private microphone: LazyMicrophone | null = null;
  private context: AudioContext | null = null;

  constructor(
    private readonly origin: string,
    private readonly mark: MarkFn,
  ) {}

  async load(fetcher?: typeof fetch): Promise<void> {
    const config = await fetchServiceConfig(fetcher);
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

  get hasModel(): boolean {
    return this.config.llm !== null;
  }

  /** A fresh language model for one visit: the configured one, or the offline assistant. */
  model(): LanguageModel {
    const llm = this.config.llm;
    return llm && this.openai ? new this.openai.OpenAIChatModel({ baseURL: this.url(API.llm), model: llm.model }) : new OfflineAgent();
  }

  /** The voice of one visit. Called from the Start tap, so audio may start. */
  voiceParts(language: string): VoiceParts {
    const recognizer = this.recognizer();
    return { microphone: recognizer ? this.mic() : null, recognizer, voices: this.voices(), language };
  }

  private recognizer(): SpeechToText | null {
    const stt = this.config.stt;
    if (stt && this.openai) return new this.openai.OpenAITranscriber({ baseURL: this.url(API.stt), model: stt.model });
    return webSpeechAvailable() ? new WebSpeechRecognizer() : null;
  }

  private voices(): TextToSpeech[] {
    const voices: TextToSpeech[] = [];
    const tts = this.config.tts;
    if (tts && this.openai) {
      voices.push(new this.openai.OpenAISpeech({ baseURL: this.url(API.tts), model: tts.model, voice: tts.voice, audioContext: () => this.audio() }));
      // The tap that starts a visit lets audio play: make the context now, inside it.
      this.audio();
    }
    if (browserSpeechAvailable()) voices.push(new BrowserSpeech());
    return voices;
  }

  private url(path: string): string {
    return new URL(path, this.origin).href;
  }

  private mic(): LazyMicrophone {
    this.microphone ??= new LazyMicrophone(() => this.mark('vk:vad-default-speech-end'));
    return this.microphone;
  }

  private audio(): AudioContext {
    this.context ??= new AudioContext();
    if (this.context.state === 'suspended') void this.context.resume();
    return this.context;
  }
}
