// The microphone, through @ricky0123/vad-web: getUserMedia with echo cancellation, noise
// suppression and gain control, an audio worklet that resamples to 16 kHz, and Silero v5 on
// onnxruntime-web scoring each 32 ms frame. The files come from the app itself (/vad/). Our own
// turn-taking reads the frames; vad-web's own segmentation runs beside it at its default settings
// only so that the benchmark can compare the two on the same audio.
//
// Opening asks the browser for the microphone first: a blocked or missing one is known in
// milliseconds and is said at once, however long the detector (14 MB of wasm) takes to load on a
// slow tablet, and a detector is never loaded for a microphone that is not there. Once the
// microphone is given, or while the browser is still asking the visitor, the detector loads
// beside it.
//
// The detector runs on the page's one AudioContext, made and resumed inside the tap that started
// the visit (Safari and Firefox let audio run only from a tap; a context vad-web made itself, after
// the microphone's answer, could stay suspended). The microphone counts as open only once its
// first frame has reached the detector, and a watch (frame-watch.ts) says so when frames stop
// coming: the kiosk never shows "Listening" while it hears nothing.

import { MicVAD } from '@ricky0123/vad-web';
import type { Microphone, MicrophoneEvents } from '../../ports/microphone.ts';
import { ServiceError } from '../../ports/service-error.ts';
import { askForMicrophone, microphoneError, stopTracks } from '../browser/microphone-access.ts';
import { FrameWatch } from './frame-watch.ts';

const ASSETS = '/vad/';

/** How long the browser may take to answer before the detector starts loading beside the question. */
const ANSWER_GRACE_MS = 150;

/**
 * How long an open microphone may give no frame before the kiosk says it cannot hear. Frames come
 * every 32 ms; the first one follows the detector's start by a few tens of milliseconds, longer
 * only on a machine too busy to run the audio thread.
 */
export const SILENT_LIMIT_MS = 5000;

export interface VadMicrophoneOptions {
  /** called when vad-web's own segmentation (default settings) ends a segment: for measurement */
  onDefaultSpeechEnd?: () => void;
  /** records a step of getting ready to listen (`vk:detector-ready`, `vk:microphone-open`): for measurement */
  mark?: (name: string) => void;
  /** the page's AudioContext, made and resumed in the Start tap; without it vad-web makes its own */
  audioContext?: () => AudioContext;
  /** how long the microphone may give no frame before it counts as silent (default SILENT_LIMIT_MS) */
  silentLimitMs?: number;
}

export class VadMicrophone implements Microphone {
  readonly sampleRate = 16000;
  readonly frameMs = 32;
  private vad: MicVAD | null = null;
  private loading: Promise<MicVAD> | null = null;
  private events: MicrophoneEvents | null = null;
  /** the stream the browser gave at open(), for the detector to take when it starts */
  private given: MediaStream | null = null;
  /** the watch on this opening's frames */
  private watch: FrameWatch | null = null;

  constructor(private readonly options: VadMicrophoneOptions = {}) {}

  /** Loads the detector (model and wasm) without opening the microphone, so Start is quick. */
  preload(): Promise<void> {
    return this.load().then(
      () => undefined,
      () => undefined, // reported when the microphone is opened
    );
  }

  /**
   * Opens the microphone. `asked` is the browser's answer when the caller already asked for it
   * (before this module's code had arrived); otherwise the question is asked here.
   */
  async open(events: MicrophoneEvents, asked: Promise<MediaStream> = askForMicrophone()): Promise<void> {
    this.events = events;
    // A quick answer decides alone; a slow one (the browser is asking the visitor) has the detector load beside it.
    const quick = await Promise.race([asked.then(() => 'answered', () => 'answered'), new Promise<'slow'>((r) => setTimeout(() => r('slow'), ANSWER_GRACE_MS))]);
    const detector = quick === 'slow' ? this.loadQuietly() : null;
    const stream = await asked;
    if (this.events !== events) {
      stopTracks(stream); // closed while the browser was asking
      return;
    }
    this.given = stream;
    this.options.mark?.('vk:microphone-granted');
    events.granted?.();
    let vad: MicVAD;
    try {
      vad = await (detector ?? this.load());
    } catch (error) {
      this.loading = null;
      this.dropGiven();
      throw new ServiceError('microphone', 'malformed', `the voice detector did not load: ${(error as Error).message}`);
    }
    if (this.events !== events) {
      this.dropGiven(); // closed while the detector was loading
      return;
    }
    try {
      if (this.options.audioContext) vad.options.audioContext ??= this.options.audioContext();
      await vad.start();
      this.options.mark?.('vk:microphone-open');
    } catch (error) {
      // A MicVAD that failed to get the microphone cannot try again: make a new one next time.
      this.vad = null;
      this.loading = null;
      this.dropGiven();
      void vad.destroy().catch(() => undefined);
      throw microphoneError(error);
    }
    if (this.events !== events) return; // closed while the detector started: the caller closes it again
    // Open means heard: the first frame has reached the detector (or the watch says none came).
    await this.watchFrames(events, vad).firstFrame;
  }

  async close(): Promise<void> {
    this.events = null;
    this.watch?.stop();
    this.watch = null;
    this.dropGiven();
    const vad = this.vad;
    if (vad?.listening) await vad.pause();
  }

  /**
   * Watches this opening's frames: a suspended audio context is woken halfway to the limit, and a
   * microphone that gives nothing for the whole of it is closed and said to be silent (through
   * `events.lost` once it had been heard; before that, open() rejects with the same error).
   */
  private watchFrames(events: MicrophoneEvents, vad: MicVAD): FrameWatch {
    const context = () => vad.options.audioContext;
    const watch = new FrameWatch(this.options.silentLimitMs ?? SILENT_LIMIT_MS, {
      wake: () => {
        const audio = context();
        if (audio && audio.state !== 'running' && audio.state !== 'closed') void audio.resume().catch(() => undefined);
      },
      describe: () => `audio context ${context()?.state ?? 'not made'}`,
      silent: (error) => {
        if (this.events !== events) return;
        void this.close();
        if (watch.heard) events.lost?.(error);
      },
    });
    this.watch?.stop();
    this.watch = watch;
    return watch;
  }

  /** The stream given at open(), once; a later start (the next visit) asks the browser again. */
  private takeStream(): Promise<MediaStream> {
    const stream = this.given;
    this.given = null;
    return stream ? Promise.resolve(stream) : askForMicrophone();
  }

  private dropGiven(): void {
    if (this.given) stopTracks(this.given);
    this.given = null;
  }

  /** The detector's load, its failure left for open() to report when it awaits it. */
  private loadQuietly(): Promise<MicVAD> {
    const loading = this.load();
    loading.catch(() => undefined);
    return loading;
  }

  private load(): Promise<MicVAD> {
    this.loading ??= MicVAD.new({
      model: 'v5',
      baseAssetPath: ASSETS,
      onnxWASMBasePath: ASSETS,
      startOnLoad: false,
      getStream: () => this.takeStream(),
      resumeStream: () => this.takeStream(),
      ortConfig: (ort) => {
        ort.env.logLevel = 'error';
      },
      onFrameProcessed: (probabilities, frame) => {
        this.watch?.frame();
        this.events?.frame({ samples: frame, probability: probabilities.isSpeech });
      },
      onSpeechEnd: () => this.options.onDefaultSpeechEnd?.(),
    }).then((vad) => {
      this.options.mark?.('vk:detector-ready');
      return (this.vad = vad);
    });
    return this.loading;
  }
}
