// The studio's worker: the engine's own checker, drawing, test runner and test keeper, off the
// page's thread so that typing never waits for them. Each request names what it wants; the last
// flow text loaded is kept, so the tests and a kept test of the text just checked load nothing anew.

import { loadFlow, type LoadResult } from '../engine/language/load-flow.ts';
import { runScriptText } from '../cli/play-script.ts';
import { checkFlow, drawFlow } from './flow-checks.ts';
import { keepTest } from './keep-test.ts';
import type { WorkerAnswer, WorkerAsk } from './worker-link.ts';

let last: { text: string; file: string; result: LoadResult } | null = null;

function load(text: string, file: string): LoadResult {
  if (last?.text !== text || last.file !== file) last = { text, file, result: loadFlow(text, file) };
  return last.result;
}

/** The newest text checked and not drawn yet: drawn once no newer check waits. */
let toDraw: { id: number; text: string; file: string } | null = null;

function draw(): void {
  const ask = toDraw;
  toDraw = null;
  if (ask) reply({ id: ask.id, kind: 'drawn', result: drawFlow(ask.text, load(ask.text, ask.file)) });
}

function answer(ask: WorkerAsk): WorkerAnswer {
  switch (ask.kind) {
    case 'check':
      // The diagnostics first; the drawing after any check already waiting (only the newest is drawn).
      toDraw = { id: ask.id, text: ask.text, file: ask.file };
      setTimeout(draw, 0);
      return { id: ask.id, kind: 'check', result: checkFlow(ask.text, ask.file, load(ask.text, ask.file)) };
    case 'tests': {
      const loaded = load(ask.text, ask.file).loaded;
      const results = ask.tests.map((t) => {
        const started = performance.now();
        const outcome = loaded ? runScriptText(t.text, t.name, loaded) : { status: 'invalid' as const, message: 'the flow has errors: fix them first' };
        return { name: t.name, outcome, ms: Math.round(performance.now() - started) };
      });
      return { id: ask.id, kind: 'tests', results };
    }
    case 'keep': {
      const loaded = load(ask.text, ask.file).loaded;
      const kept = loaded ? keepTest(loaded, ask.visit, ask.flowPath, ask.name) : { problem: 'the flow has errors: fix them first' };
      return { id: ask.id, kind: 'keep', kept };
    }
  }
}

function reply(message: WorkerAnswer): void {
  (self as unknown as { postMessage(message: WorkerAnswer): void }).postMessage(message);
}

self.addEventListener('message', (event: MessageEvent<WorkerAsk>) => {
  try {
    reply(answer(event.data));
  } catch (error) {
    reply({ id: event.data.id, kind: 'failed', message: (error as Error).message });
  }
});
