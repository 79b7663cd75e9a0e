// One sentence fetched whole (a WAV, decoded), played through one AudioBufferSourceNode. It goes
// on the audio clock behind whatever the same voice has queued, so a sentence prepared in time
// follows the one before it with no gap.

import type { SpokenClip } from '../../ports/text-to-speech.ts';
import { atClockTime, ensureRunning, type AudioOutput, type Playhead, type SoundBuffer } from './audio-out.ts';
import { watchClipEnd } from './clip-end-watch.ts';

export class BufferClip implements SpokenClip {
  constructor(
    private readonly context: AudioOutput,
    private readonly playhead: Playhead,
    private readonly buffer: SoundBuffer,
  ) {}

  async play(signal: AbortSignal, started: () => void, scheduled?: () => void): Promise<void> {
    if (signal.aborted) return;
    await ensureRunning(this.context);
    if (signal.aborted) return;
    const context = this.context;
    const clock = { now: () => context.currentTime };
    const source = context.createBufferSource();
    source.buffer = this.buffer;
    source.connect(context.destination);
    await new Promise<void>((resolve) => {
      let unwatch = () => {};
      let cancelStarted = () => {};
      const finish = () => {
        unwatch();
        cancelStarted();
        signal.removeEventListener('abort', stop);
        source.removeEventListener('ended', finish);
        source.disconnect();
        resolve();
      };
      const stop = () => {
        source.stop();
        this.playhead.clear();
        finish();
      };
      source.addEventListener('ended', finish);
      signal.addEventListener('abort', stop, { once: true });
      const at = this.playhead.place(this.buffer.duration);
      source.start(at);
      // The `ended` event alone must not decide when the kiosk may listen again.
      const overdue = () => {
        source.stop();
        finish();
      };
      unwatch = watchClipEnd({ clock, startedAt: at, duration: this.buffer.duration, overdue });
      cancelStarted = atClockTime(clock, at, () => {
        if (!signal.aborted) started();
      });
      scheduled?.();
    });
  }
}
