// The page's side of the studio's worker (studio-worker.ts): asks it to check a flow, run its
// tests or keep a test, and hands each answer to whoever asked. Checks are coalesced: while one
// runs, only the newest text waits, so a burst of typing costs one check after the one under way.

import type { Outcome } from '../cli/play-script.ts';
import type { CheckResult, DrawResult } from './flow-checks.ts';
import type { KeptTest, RecordedVisit } from './keep-test.ts';

/** A conversation test as the studio holds it: its file name and its text. */
export interface TestFile {
  name: string;
  text: string;
}

export interface TestResult {
  name: string;
  outcome: Outcome;
  ms: number;
}

type Ask =
  | { kind: 'check'; text: string; file: string }
  | { kind: 'tests'; text: string; file: string; tests: readonly TestFile[] }
  | { kind: 'keep'; text: string; file: string; visit: RecordedVisit; flowPath: string; name: string };

export type WorkerAsk = Ask & { id: number };

export type WorkerAnswer =
  | { id: number; kind: 'check'; result: CheckResult }
  | { id: number; kind: 'drawn'; result: DrawResult }
  | { id: number; kind: 'tests'; results: TestResult[] }
  | { id: number; kind: 'keep'; kept: KeptTest }
  | { id: number; kind: 'failed'; message: string };

export class StudioWorker {
  private readonly worker: Worker;
  private next = 1;
  private readonly waiting = new Map<number, (answer: WorkerAnswer) => void>();
  private checking = false;
  private queued: { text: string; file: string } | null = null;

  /** the texts of the checks under way, by request id, until they are drawn */
  private readonly texts = new Map<number, string>();

  /** `checked`: each check's result, with the text it is about; `drawn`: the drawing of a text checked (only the newest is drawn). */
  constructor(
    private readonly checked: (result: CheckResult, text: string) => void,
    private readonly drawn: (result: DrawResult, text: string) => void,
  ) {
    this.worker = new Worker(new URL('./studio-worker.ts', import.meta.url), { type: 'module', name: 'studio' });
    this.worker.addEventListener('message', (event: MessageEvent<WorkerAnswer>) => {
      if (event.data.kind === 'drawn') {
        const text = this.texts.get(event.data.id);
        for (const id of this.texts.keys()) if (id <= event.data.id) this.texts.delete(id);
        if (text !== undefined) this.drawn(event.data.result, text);
        return;
      }
      const done = this.waiting.get(event.data.id);
      this.waiting.delete(event.data.id);
      done?.(event.data);
    });
  }

  private ask(ask: Ask): Promise<WorkerAnswer> {
    const id = this.next++;
    if (ask.kind === 'check') this.texts.set(id, ask.text);
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ ...ask, id });
    });
  }

  /** Checks `text` now, or right after the check under way (only the newest text waits). */
  check(text: string, file: string): void {
    if (this.checking) {
      this.queued = { text, file };
      return;
    }
    this.checking = true;
    void this.ask({ kind: 'check', text, file }).then((answer) => {
      this.checking = false;
      if (answer.kind === 'check') this.checked(answer.result, text);
      else if (answer.kind === 'failed') console.error(`studio: the check failed (${answer.message})`);
      const queued = this.queued;
      this.queued = null;
      if (queued) this.check(queued.text, queued.file);
    });
  }

  async tests(text: string, file: string, tests: readonly TestFile[]): Promise<TestResult[]> {
    const answer = await this.ask({ kind: 'tests', text, file, tests });
    if (answer.kind === 'tests') return answer.results;
    throw new Error(answer.kind === 'failed' ? answer.message : 'unexpected answer');
  }

  async keep(text: string, file: string, visit: RecordedVisit, flowPath: string, name: string): Promise<KeptTest> {
    const answer = await this.ask({ kind: 'keep', text, file, visit, flowPath, name });
    if (answer.kind === 'keep') return answer.kept;
    return { problem: answer.kind === 'failed' ? answer.message : 'unexpected answer' };
  }
}
