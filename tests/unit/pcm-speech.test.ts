// The pure parts of streamed speech: pcm16 chunks that split a sample between them, the playhead
// that puts chunks and sentences back to back on the audio clock, and the decision that a
// service does not take pcm (so the kiosk asks for WAV instead).

import { describe, expect, it } from 'vitest';
import { Playhead } from '../../src/adapters/openai/audio-out.ts';
import { Pcm16Decoder } from '../../src/adapters/openai/pcm16.ts';
import { carriesPcm, refusesPcm } from '../../src/adapters/openai/speech-format.ts';

/** Little-endian 16-bit bytes of `values`. */
function le16(...values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 2);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setInt16(i * 2, v, true));
  return bytes;
}

describe('Pcm16Decoder', () => {
  it('turns little-endian 16-bit samples into floats in [-1, 1)', () => {
    expect([...new Pcm16Decoder().decode(le16(0, 16384, -16384, 32767, -32768))]).toEqual([0, 0.5, -0.5, 32767 / 32768, -1]);
  });

  it('keeps the first byte of a sample split between chunks until its second arrives', () => {
    const whole = le16(1000, -2000, 3000, -4000, 5000);
    const expected = [...new Pcm16Decoder().decode(whole)];
    // Every way of cutting the body in three, odd lengths and empty chunks included.
    for (let a = 0; a <= whole.length; a++) {
      for (let b = a; b <= whole.length; b++) {
        const decoder = new Pcm16Decoder();
        const out = [whole.subarray(0, a), whole.subarray(a, b), whole.subarray(b)].flatMap((part) => [...decoder.decode(part)]);
        expect(out, `cut at ${a} and ${b}`).toEqual(expected);
        expect(decoder.unfinished).toBe(false);
      }
    }
  });

  it('makes no sample of a lone byte, and says the body is unfinished', () => {
    const decoder = new Pcm16Decoder();
    expect(decoder.decode(new Uint8Array([0x34])).length).toBe(0);
    expect(decoder.unfinished).toBe(true);
    expect(decoder.decode(new Uint8Array([])).length).toBe(0);
    expect([...decoder.decode(new Uint8Array([0x12, 0xff]))]).toEqual([0x1234 / 32768]);
    expect(decoder.unfinished).toBe(true);
  });
});

describe('Playhead', () => {
  const clockAt = (start: number) => {
    const clock = { t: start, now: () => clock.t };
    return clock;
  };

  it('puts the first piece a lead ahead of now, and each next one where the last ends', () => {
    const clock = clockAt(10);
    const playhead = new Playhead(clock, 0.05);
    expect(playhead.place(0.1)).toBeCloseTo(10.05);
    clock.t = 10.02; // the next chunk arrives while the first still waits to sound
    expect(playhead.place(0.1)).toBeCloseTo(10.15);
    clock.t = 10.2;
    expect(playhead.place(0.2)).toBeCloseTo(10.25);
    expect(playhead.endsAt).toBeCloseTo(10.45);
  });

  it('starts a lead ahead of now once a stream has fallen behind (a gap, never an overlap)', () => {
    const clock = clockAt(0);
    const playhead = new Playhead(clock, 0.05);
    playhead.place(0.1); // 0.05 to 0.15
    clock.t = 0.3;
    expect(playhead.place(0.1)).toBeCloseTo(0.35);
  });

  it('places the next sentence right behind the one before, queued early', () => {
    const clock = clockAt(5);
    const playhead = new Playhead(clock, 0.05);
    for (let i = 0; i < 10; i++) playhead.place(0.1); // one sentence, 5.05 to 6.05
    clock.t = 5.5; // the next is ready while the first plays
    expect(playhead.place(0.1)).toBeCloseTo(6.05);
  });

  it('after a stop, the next piece starts a lead ahead of now, not after what was cut', () => {
    const clock = clockAt(1);
    const playhead = new Playhead(clock, 0.05);
    playhead.place(30);
    clock.t = 2;
    playhead.clear();
    expect(playhead.place(0.1)).toBeCloseTo(2.05);
  });
});

describe('whether a service takes pcm', () => {
  it.each([
    [400, "Invalid value: 'pcm'. Supported values are: 'mp3' and 'wav'.", true],
    [400, "Invalid value for 'response_format'", true],
    [422, "Input should be 'mp3', 'opus', 'aac', 'flac' or 'wav' (format)", true],
    [400, 'The response_format "pcm" is not offered on this kiosk; it speaks wav (TTS_FORMAT).', true],
    [400, "Invalid 'input': string too long.", false],
    [500, 'response_format handling crashed', false],
    [401, 'Incorrect API key provided', false],
    [undefined, 'pcm', false],
  ])('%s "%s" refuses pcm: %s', (status, message, refused) => {
    expect(refusesPcm(status, message)).toBe(refused);
  });

  it.each([
    ['audio/pcm', true],
    ['audio/L16; rate=24000', true],
    ['application/octet-stream', true],
    [null, true],
    ['audio/mpeg', false],
    ['audio/wav', false],
    ['application/json', false],
    ['text/html; charset=utf-8', false],
  ])('an answer of type %s can hold pcm: %s', (type, ok) => {
    expect(carriesPcm(type)).toBe(ok);
  });
});
