// The Web Speech recogniser against a scripted SpeechRecognition: Chrome's result shape, restarts,
// error codes, the restart-loop limit, stop, and the on-device switch.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSpeechRecognizer, webSpeechAvailable } from '../../src/adapters/browser/web-speech.ts';
import { ServiceError } from '../../src/ports/service-error.ts';

type Said = [transcript: string, isFinal: boolean];

/** A SpeechRecognition that does what the test says, shaped like Chrome's. */
class ScriptedRecognition {
  static made: ScriptedRecognition[] = [];
  lang = '';
  continuous = false;
  interimResults = false;
  onresult: ((event: unknown) => void) | null = null;
  onerror: ((event: { error: string; message: string }) => void) | null = null;
  onend: (() => void) | null = null;
  starts = 0;
  aborts = 0;
  running = false;

  constructor() {
    ScriptedRecognition.made.push(this);
  }

  start(): void {
    if (this.running) throw Object.assign(new Error('already started'), { name: 'InvalidStateError' });
    this.running = true;
    this.starts++;
  }

  /** Like the browser: an `aborted` error and an end, a moment later. */
  abort(): void {
    this.aborts++;
    if (!this.running) return;
    queueMicrotask(() => this.fail('aborted'));
  }

  /** One result event: every result of the session so far, `resultIndex` the first that changed. */
  hear(resultIndex: number, said: Said[]): void {
    const results = said.map(([transcript, isFinal]) => Object.assign([{ transcript, confidence: 0.9 }], { isFinal }));
    this.onresult?.({ resultIndex, results });
  }

  end(): void {
    this.running = false;
    this.onend?.();
  }

  /** An error, then the end the browser sends after it. */
  fail(error: string): void {
    this.onerror?.({ error, message: '' });
    this.end();
  }
}

/** The current draft's instance property. */
class LocalRecognition extends ScriptedRecognition {
  processLocally = false;
}

/** An earlier draft's instance property. */
class ModeRecognition extends ScriptedRecognition {
  mode = 'ondevice-preferred';
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function listen(recognizer = new WebSpeechRecognizer(), language = 'en-US') {
  const log: string[] = [];
  const failures: ServiceError[] = [];
  recognizer.start(language, {
    interim: (text) => log.push(`interim ${text}`),
    final: (text) => log.push(`final ${text}`),
    failed: (error) => failures.push(error),
  });
  const current = () => ScriptedRecognition.made.at(-1)!;
  return { recognizer, log, failures, current };
}

afterEach(() => {
  vi.unstubAllGlobals();
  ScriptedRecognition.made = [];
});

describe('WebSpeechRecognizer', () => {
  it('listens continuously with interim results in the flow language', async () => {
    vi.stubGlobal('SpeechRecognition', ScriptedRecognition);
    const { current } = listen(undefined, 'de-DE');
    await settle();
    expect(current()).toMatchObject({ lang: 'de-DE', continuous: true, interimResults: true, starts: 1 });
  });

  it('falls back to the webkit prefix, and says when neither is there', async () => {
    expect(webSpeechAvailable()).toBe(false);
    const missing = listen();
    await settle();
    expect(missing.failures.map((e) => [e.service, e.failure])).toEqual([['stt', 'missing']]);
    vi.stubGlobal('webkitSpeechRecognition', ScriptedRecognition);
    expect(webSpeechAvailable()).toBe(true);
    const { current } = listen();
    await settle();
    expect(current().starts).toBe(1);
  });

  it('gives interim text, then each final once, in Chrome result-list shape', async () => {
    vi.stubGlobal('SpeechRecognition', ScriptedRecognition);
    const { log, current } = listen();
    await settle();
    const r = current();
    r.hear(0, [['my name', false]]);
    r.hear(0, [['my name', false], [' is', false]]);
    r.hear(0, [['my name is Alex ', true]]);
    r.hear(0, [['my name is Alex ', true]]); // the same final again
    r.hear(1, [['my name is Alex ', true], [' yes', false]]);
    r.hear(1, [['my name is Alex ', true], [' yes', true]]);
    r.hear(2, [['my name is Alex ', true], [' yes', true], ['  ', true]]);
    expect(log).toEqual(['interim my name', 'interim my name is', 'final my name is Alex', 'interim yes', 'final yes']);
  });

  it('restarts when a session ends, and counts results afresh in the new session', async () => {
    vi.stubGlobal('SpeechRecognition', ScriptedRecognition);
    const { log, failures, current } = listen();
    await settle();
    const r = current();
    r.hear(0, [['blue', true]]);
    r.end();
    expect(r.starts).toBe(2);
    r.hear(0, [['green', true]]);
    expect(log).toEqual(['final blue', 'final green']);
    expect(failures).toEqual([]);
    expect(ScriptedRecognition.made).toHaveLength(1);
  });

  it.each([
    ['not-allowed', 'denied'],
    ['service-not-allowed', 'denied'],
    ['network', 'network'],
    ['audio-capture', 'missing'],
    ['language-not-supported', 'missing'],
  ])('%s fails with %s and stops for good', async (code, failure) => {
    vi.stubGlobal('SpeechRecognition', ScriptedRecognition);
    const { failures, current } = listen();
    await settle();
    current().fail(code);
    await settle();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(ServiceError);
    expect(failures[0]).toMatchObject({ service: 'stt', failure });
    expect(current().starts).toBe(1);
  });

  it.each(['no-speech', 'aborted'])('%s is normal: the session restarts', async (code) => {
    vi.stubGlobal('SpeechRecognition', ScriptedRecognition);
    const { failures, current } = listen();
    await settle();
    current().fail(code);
    expect(current().starts).toBe(2);
    expect(failures).toEqual([]);
  });

  it('gives up with network after more than five ends in ten seconds without a result', async () => {
    vi.stubGlobal('SpeechRecognition', ScriptedRecognition);
    let now = 0;
    const { failures, current } = listen(new WebSpeechRecognizer({ now: () => now }));
    await settle();
    const r = current();
    for (let i = 0; i < 5; i++, now += 1000) r.fail('no-speech');
    expect(failures).toEqual([]);
    r.fail('no-speech');
    expect(failures.map((e) => e.failure)).toEqual(['network']);
    expect(r.starts).toBe(6);
  });

  it('does not give up while results come, nor when ends are spread out', async () => {
    vi.stubGlobal('SpeechRecognition', ScriptedRecognition);
    let now = 0;
    const { failures, current } = listen(new WebSpeechRecognizer({ now: () => now }));
    await settle();
    const r = current();
    for (let i = 0; i < 20; i++, now += 500) {
      if (i % 4 === 0) r.hear(0, [['yes', true]]);
      r.end();
    }
    r.hear(0, [['no', true]]);
    for (let i = 0; i < 20; i++, now += 2500) r.fail('no-speech'); // four ends in any ten seconds
    expect(failures).toEqual([]);
    expect(r.starts).toBe(41);
  });

  it('stop() ends listening: no restart, no more results, no failure', async () => {
    vi.stubGlobal('SpeechRecognition', ScriptedRecognition);
    const { recognizer, log, failures, current } = listen();
    await settle();
    const r = current();
    recognizer.stop();
    await settle(); // the browser's aborted error and end arrive now
    r.hear(0, [['too late', true]]);
    expect(r.aborts).toBe(1);
    expect(r.starts).toBe(1);
    expect(log).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('stop() during the on-device check never opens the microphone', async () => {
    vi.stubGlobal('SpeechRecognition', Object.assign(class extends LocalRecognition {}, { available: async () => 'available' }));
    const { recognizer } = listen();
    recognizer.stop();
    await settle();
    expect(ScriptedRecognition.made).toEqual([]);
  });
});

describe('WebSpeechRecognizer on the device', () => {
  it('asks for on-device recognition when the language is available there', async () => {
    const available = vi.fn(async () => 'available');
    vi.stubGlobal('SpeechRecognition', Object.assign(class extends LocalRecognition {}, { available }));
    const { recognizer, current } = listen(undefined, 'en-GB');
    await settle();
    expect(available).toHaveBeenCalledWith({ langs: ['en-GB'], processLocally: true });
    expect((current() as LocalRecognition).processLocally).toBe(true);
    expect(recognizer.onDevice).toBe(true);
  });

  it.each(['downloadable', 'downloading', 'unavailable'])('uses the default recognition when on-device is %s', async (status) => {
    vi.stubGlobal('SpeechRecognition', Object.assign(class extends LocalRecognition {}, { available: async () => status }));
    const { recognizer, current } = listen();
    await settle();
    expect((current() as LocalRecognition).processLocally).toBe(false);
    expect(recognizer.onDevice).toBe(false);
    expect(current().starts).toBe(1);
  });

  it('uses the default when the check fails or never answers', async () => {
    vi.stubGlobal('SpeechRecognition', Object.assign(class extends LocalRecognition {}, { available: () => Promise.reject(new Error('blocked by policy')) }));
    const refused = listen();
    await settle();
    expect(refused.recognizer.onDevice).toBe(false);
    expect(refused.current().starts).toBe(1);

    vi.stubGlobal('SpeechRecognition', Object.assign(class extends LocalRecognition {}, { available: () => new Promise<string>(() => {}) }));
    const silent = listen(new WebSpeechRecognizer({ onDeviceCheckMs: 20 }));
    await settle();
    expect(ScriptedRecognition.made).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(silent.current().starts).toBe(1);
    expect(silent.recognizer.onDevice).toBe(false);
  });

  it("sets an earlier draft's mode to ondevice-only", async () => {
    vi.stubGlobal('webkitSpeechRecognition', Object.assign(class extends ModeRecognition {}, { availableOnDevice: async () => true }));
    const { recognizer, current } = listen();
    await settle();
    expect((current() as ModeRecognition).mode).toBe('ondevice-only');
    expect(recognizer.onDevice).toBe(true);
  });

  it('goes to the default recognition when on-device is refused after all', async () => {
    vi.stubGlobal('SpeechRecognition', Object.assign(class extends LocalRecognition {}, { available: async () => 'available' }));
    const { recognizer, log, failures, current } = listen();
    await settle();
    const first = current();
    first.fail('service-not-allowed');
    const second = current();
    expect(second).not.toBe(first);
    expect((second as LocalRecognition).processLocally).toBe(false);
    expect(second.starts).toBe(1);
    expect(recognizer.onDevice).toBe(false);
    second.hear(0, [['hello', true]]);
    expect(log).toEqual(['final hello']);
    expect(failures).toEqual([]);
  });
});
