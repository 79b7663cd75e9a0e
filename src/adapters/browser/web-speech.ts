// Live speech recognition through the browser's Web Speech API (SpeechRecognition, or Chrome's
// webkitSpeechRecognition). Owns on-device detection, the restarts a continuous session needs,
// and turning the browser's error codes into ServiceErrors.

import { ServiceError, type ServiceFailure } from '../../ports/service-error.ts';
import type { LiveRecognitionEvents, LiveRecognizer } from '../../ports/speech-to-text.ts';

interface AlternativeLike {
  readonly transcript: string;
}

interface ResultLike {
  readonly isFinal: boolean;
  readonly length: number;
  readonly [index: number]: AlternativeLike | undefined;
}

/** The parts of SpeechRecognitionEvent this adapter reads. */
interface ResultEventLike {
  readonly resultIndex: number;
  readonly results: { readonly length: number; readonly [index: number]: ResultLike | undefined };
}

interface RecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  /** the current API's on-device switch */
  processLocally?: boolean;
  /** an earlier draft's: 'ondevice-only' | 'ondevice-preferred' | 'cloud-only' */
  mode?: string;
  onresult: ((event: ResultEventLike) => void) | null;
  onerror: ((event: { readonly error: string; readonly message?: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  abort(): void;
}

interface RecognitionConstructor {
  new (): RecognitionLike;
  /** the current API: 'available' | 'downloadable' | 'downloading' | 'unavailable' */
  available?(options: { langs: string[]; processLocally: boolean }): Promise<string>;
  /** an earlier draft's check */
  availableOnDevice?(lang: string): Promise<boolean | string>;
}

function recognitionConstructor(): RecognitionConstructor | null {
  const g = globalThis as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  const ctor = g.SpeechRecognition ?? g.webkitSpeechRecognition;
  return typeof ctor === 'function' ? ctor : null;
}

/** True when the browser has the Web Speech API's recognition. */
export function webSpeechAvailable(): boolean {
  return recognitionConstructor() !== null;
}

/** Asks whether `lang` can be recognised on the device now (its language pack is installed). */
async function onDeviceAvailable(ctor: RecognitionConstructor, lang: string, waitMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
  const ask = async (): Promise<boolean> => {
    if (typeof ctor.available === 'function') return (await ctor.available({ langs: [lang], processLocally: true })) === 'available';
    if (typeof ctor.availableOnDevice === 'function') {
      const answer = await ctor.availableOnDevice(lang);
      return answer === true || answer === 'available';
    }
    return false;
  };
  try {
    return await Promise.race([ask(), giveUp]);
  } catch {
    return false; // a Permissions-Policy block, or a shape we do not know: use the default
  } finally {
    clearTimeout(timer);
  }
}

/** Switches a recognition to on-device only; false when the browser has no such switch. */
function requireOnDevice(recognition: RecognitionLike): boolean {
  if ('processLocally' in recognition) recognition.processLocally = true;
  else if ('mode' in recognition) recognition.mode = 'ondevice-only';
  else return false;
  return true;
}

export interface WebSpeechOptions {
  /** use on-device recognition when the browser has it for the language */
  preferOnDevice: boolean;
  /** how long to wait for the browser's on-device answer before using the default */
  onDeviceCheckMs: number;
  /** more than this many session ends within `loopWindowMs` and no result: give up */
  maxEndsWithoutResult: number;
  loopWindowMs: number;
  /** milliseconds, for the restart-loop window */
  now: () => number;
}

const DEFAULTS: WebSpeechOptions = {
  preferOnDevice: true,
  onDeviceCheckMs: 2000,
  maxEndsWithoutResult: 5,
  loopWindowMs: 10_000,
  now: () => Date.now(),
};

/** What a recognition error means: a failure, or null for one that a restart handles. */
function failureOf(code: string): ServiceFailure | null {
  switch (code) {
    case 'not-allowed':
    case 'service-not-allowed':
      return 'denied';
    case 'network':
      return 'network';
    case 'audio-capture':
    case 'language-not-supported':
      return 'missing';
    default:
      return null; // no-speech, aborted, and codes we do not know: the restart-loop limit catches those
  }
}

/** One start() until stop() or a failure. */
interface Listening {
  language: string;
  events: LiveRecognitionEvents;
  stopped: boolean;
  recognition: RecognitionLike | null;
  /** indexes of the final results given out in the browser's current session */
  given: Set<number>;
  lastInterim: string;
  /** when sessions ended since the last result */
  ends: number[];
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A live recogniser over the Web Speech API, on the device where the browser offers it. */
export class WebSpeechRecognizer implements LiveRecognizer {
  readonly kind = 'live';
  readonly name = 'web-speech';
  private readonly options: WebSpeechOptions;
  private listening: Listening | null = null;
  private local = false;

  constructor(options: Partial<WebSpeechOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** True once the current session is known to run on the device (after start's check). */
  get onDevice(): boolean {
    return this.local;
  }

  start(language: string, events: LiveRecognitionEvents): void {
    this.stop();
    const run: Listening = { language, events, stopped: false, recognition: null, given: new Set(), lastInterim: '', ends: [] };
    this.listening = run;
    void this.open(run);
  }

  stop(): void {
    const run = this.listening;
    if (!run) return;
    this.listening = null;
    run.stopped = true;
    try {
      run.recognition?.abort();
    } catch {
      // already ended
    }
  }

  private async open(run: Listening): Promise<void> {
    await Promise.resolve(); // every event, a failure too, comes after start() has returned
    const ctor = recognitionConstructor();
    if (!ctor) {
      this.fail(run, 'missing', 'this browser has no speech recognition');
      return;
    }
    const local = this.options.preferOnDevice && (await onDeviceAvailable(ctor, run.language, this.options.onDeviceCheckMs));
    if (run.stopped) return;
    run.recognition = this.create(ctor, run, local);
    this.begin(run);
  }

  private create(ctor: RecognitionConstructor, run: Listening, local: boolean): RecognitionLike {
    const recognition = new ctor();
    recognition.lang = run.language;
    recognition.continuous = true;
    recognition.interimResults = true;
    this.local = local && requireOnDevice(recognition);
    recognition.onresult = (event) => {
      if (!run.stopped && run.recognition === recognition) this.heard(run, event);
    };
    recognition.onerror = (event) => {
      if (run.stopped || run.recognition !== recognition) return;
      if (event.error === 'service-not-allowed' && this.local) {
        // On-device was promised but refused (its language pack went away): use the default.
        run.recognition = this.create(ctor, run, false);
        return;
      }
      const failure = failureOf(event.error);
      if (failure) this.fail(run, failure, `speech recognition error: ${event.error}${event.message ? ` (${event.message})` : ''}`);
    };
    // The end of a session (after silence, after about a minute, or after an error): go on.
    recognition.onend = () => this.ended(run);
    return recognition;
  }

  private begin(run: Listening): void {
    run.given = new Set();
    run.lastInterim = '';
    try {
      run.recognition?.start();
    } catch (error) {
      if ((error as Error).name !== 'InvalidStateError') this.fail(run, 'missing', `speech recognition did not start: ${String(error)}`);
    }
  }

  private ended(run: Listening): void {
    if (run.stopped) return;
    const now = this.options.now();
    run.ends = run.ends.filter((t) => now - t < this.options.loopWindowMs);
    run.ends.push(now);
    if (run.ends.length > this.options.maxEndsWithoutResult) {
      this.fail(run, 'network', `speech recognition ended ${run.ends.length} times in ${this.options.loopWindowMs} ms without a result`);
      return;
    }
    this.begin(run);
  }

  /**
   * Chrome's shape: `results` holds every result of the session so far, the finals first;
   * `resultIndex` is the first one that changed. Each final is given out once; the interim text is
   * all the results not yet final.
   */
  private heard(run: Listening, event: ResultEventLike): void {
    run.ends = [];
    const { results } = event;
    for (let i = event.resultIndex; i < results.length; i++) {
      const result = results[i];
      if (!result?.isFinal || run.given.has(i)) continue;
      run.given.add(i);
      run.lastInterim = '';
      const text = squash(result[0]?.transcript ?? '');
      if (text) run.events.final(text);
    }
    let interim = '';
    for (let i = 0; i < results.length; i++) {
      const result = results[i];
      if (result && !result.isFinal) interim += ` ${result[0]?.transcript ?? ''}`;
    }
    interim = squash(interim);
    if (interim && interim !== run.lastInterim) {
      run.lastInterim = interim;
      run.events.interim(interim);
    }
  }

  private fail(run: Listening, failure: ServiceFailure, detail: string): void {
    if (run.stopped) return;
    run.stopped = true;
    if (this.listening === run) this.listening = null;
    try {
      run.recognition?.abort();
    } catch {
      // already ended
    }
    run.events.failed(new ServiceError('stt', failure, detail));
  }
}
