// The kept visit (src/pwa/visit-store.ts): written to and read from localStorage as JSON with the
// visitor's accessibility choices, a damaged or foreign copy read as none (damaged choices as
// none), and a storage that fails never failing the kiosk.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { VISIT_KEY, localVisitStore, readKeptVisit, type KeptVisit, type StorageLike } from '../../src/pwa/visit-store.ts';

/** A Storage over a Map, optionally refusing every write (as a full or private-mode storage does). */
function memoryStorage(refuse = false): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (refuse) throw new Error('QuotaExceededError');
      data.set(k, v);
    },
    removeItem: (k: string) => {
      data.delete(k);
    },
  };
}

function visit(): KeptVisit {
  const loaded = loadFlow('id: tiny\nstates:\n  ask:\n    agent: { prompt: Ask. }\n    transitions: { on_ui_event: { next: __end__ } }\n').loaded!;
  const engine = new FlowEngine(loaded, new VirtualClock(1000));
  engine.start();
  return {
    format: 1,
    source: 'flows/tiny.yaml',
    savedAt: 5000,
    lastActivity: 4000,
    engine: engine.snapshot(),
    conversation: { history: [{ role: 'user', content: 'hello' }], stepStart: 0 },
    captions: [{ id: 'visitor-1', who: 'visitor', text: 'hello', final: true }],
    captionSeq: 1,
    fields: { first_name: { value: 'Al', status: 'empty', editing: false } },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the kept visit', () => {
  it('is written under its key and read back equal; clear removes it', () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    const store = localVisitStore();
    const v = visit();
    store.save(v);
    expect(JSON.parse(storage.data.get(VISIT_KEY)!)).toEqual(v);
    expect(store.load()).toEqual(v);
    store.clear();
    expect(storage.data.size).toBe(0);
    expect(store.load()).toBeNull();
  });

  it('reads a damaged or foreign copy as none', () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    const store = localVisitStore();
    for (const text of ['{not json', '"text"', JSON.stringify({ ...visit(), format: 2 }), JSON.stringify({ ...visit(), captions: [{ who: 'someone' }] })]) {
      storage.data.set(VISIT_KEY, text);
      expect(store.load(), text).toBeNull();
    }
    expect(readKeptVisit({ ...visit(), conversation: { history: [{ role: 'wizard', content: 'x' }], stepStart: 0 } })).toBeNull();
    expect(readKeptVisit({ ...visit(), fields: { a: { value: 1, status: 'set', editing: false } } })).toBeNull();
  });

  it('keeps the visitor’s accessibility choices with the visit, and a damaged set loses only the choices', () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    const store = localVisitStore();
    const choices = { guidance: true, textSize: 150, contrast: true, lower: true, volume: 3 };
    store.save({ ...visit(), choices });
    expect(store.load()?.choices).toEqual(choices);
    const damaged = readKeptVisit({ ...visit(), choices: { ...choices, guidance: 'yes' } });
    expect(damaged).toEqual(visit());
    expect(readKeptVisit({ ...visit(), choices: null })).toEqual(visit());
    // A copy kept before the choices were: the visit, with none.
    expect(readKeptVisit(visit())?.choices).toBeUndefined();
  });

  it('never fails the kiosk when storage refuses or is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('localStorage', memoryStorage(true));
    const store = localVisitStore();
    expect(() => store.save(visit())).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not keep the visit'));
    expect(store.load()).toBeNull();
    vi.stubGlobal('localStorage', undefined);
    expect(() => store.save(visit())).not.toThrow();
    expect(store.load()).toBeNull();
    expect(() => store.clear()).not.toThrow();
  });
});
