// The microphone, through @ricky0123/vad-web: getUserMedia with echo cancellation, noise
// suppression and gain control, an audio worklet that resamples to 16 kHz, and Silero v5 on
// onnxruntime-web scoring each 32 ms frame. The files come from the app itself (/vad/). Our own
// turn-taking reads the frames; vad-web's own segmentation runs beside it at its default settings
// only so that the benchmark can compare the two on the same audio.

import { MicVAD } from '@ricky0123/vad-web';
import type { Microphone, MicrophoneEvents } from '../../ports/microphone.ts';
import { ServiceError } from '../../ports/service-error.ts';

const ASSETS = '/vad/';

/** The constraints the kiosk asks for: a voice, cleaned of the room and of the kiosk's own voice. */
export const MICROPHONE_CONSTRAINTS: MediaStreamConstraints = {
  audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
};

export interface VadMicrophoneOptions {
  /** called when vad-web's own segmentation (default settings) ends a segment: for measurement */
  onDefaultSpeechEnd?: () => void;
  /** records a step of getting ready to listen (`vk:detector-ready`, `vk:microphone-open`): for measurement */
  mark?: (name: string) => void;
}

function microphoneError(error: unknown): ServiceError {
  const name = (error as { name?: string } | null)?.name ?? '';
  const message = (error as Error | null)?.message ?? String(error);
  if (name === 'NotAllowedError' || name === 'SecurityError') return new ServiceError('microphone', 'denied', message);
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError' || name === 'TypeError') {
    return new ServiceError('microphone', 'missing', `${name}: ${message}`);
  }
  return new ServiceError('microphone', 'malformed', `${name || 'Error'}: ${message}`);
}

export class VadMicrophone implements Microphone {
  readonly sampleRate = 16000;
  readonly frameMs = 32;
  private vad: MicVAD | null = null;
  private loading: Promise<MicVAD> | null = null;
  private events: MicrophoneEvents | null = null;

  constructor(private readonly options: VadMicrophoneOptions = {}) {}

  /** Loads the detector (model and wasm) without opening the microphone, so Start is quick. */
  preload(): Promise<void> {
    return this.load().then(
      () => undefined,
      () => undefined, // reported when the microphone is opened
    );
  }

  async open(events: MicrophoneEvents): Promise<void> {
    if (!navigator.mediaDevices?.getUserMedia) throw new ServiceError('microphone', 'missing', 'this browser has no getUserMedia (is the page served over https or from localhost?)');
    this.events = events;
    let vad: MicVAD;
    try {
      vad = await this.load();
    } catch (error) {
      this.loading = null;
      throw new ServiceError('microphone', 'malformed', `the voice detector did not load: ${(error as Error).message}`);
    }
    try {
      await vad.start();
      this.options.mark?.('vk:microphone-open');
    } catch (error) {
      // A MicVAD that failed to get the microphone cannot try again: make a new one next time.
      this.vad = null;
      this.loading = null;
      void vad.destroy().catch(() => undefined);
      throw microphoneError(error);
    }
  }

  async close(): Promise<void> {
    this.events = null;
    const vad = this.vad;
    if (vad?.listening) await vad.pause();
  }

  private load(): Promise<MicVAD> {
    this.loading ??= MicVAD.new({
      model: 'v5',
      baseAssetPath: ASSETS,
      onnxWASMBasePath: ASSETS,
      startOnLoad: false,
      getStream: () => navigator.mediaDevices.getUserMedia(MICROPHONE_CONSTRAINTS),
      resumeStream: () => navigator.mediaDevices.getUserMedia(MICROPHONE_CONSTRAINTS),
      ortConfig: (ort) => {
        ort.env.logLevel = 'error';
      },
      onFrameProcessed: (probabilities, frame) => {
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
