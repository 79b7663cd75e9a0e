// The flow studio's state: the flow being written (its text and file name), what the checker and
// the drawing say of it (from the worker, newest text only), its conversation tests and their
// results, and the visit under way in the preview as the studio hears it (for lighting the diagram
// and keeping a test). The components read it and call it; the editor, the worker and the
// preview's frame are its hands.

import { tick } from 'svelte';
import type { Diagnostic } from '../engine/language/diagnostics.ts';
import { EXAMPLES } from './examples.ts';
import { CHECKED_MARK, DIAGNOSTICS_MARK, EDIT_MARK } from './marks.ts';
import type { FlowEditor, FlowNames } from './editor/flow-editor.ts';
import type { CheckResult, DrawResult, FlowSummary } from './flow-checks.ts';
import type { KeptTest, RecordedVisit } from './keep-test.ts';
import type { FromPreview, PreviewInput } from './preview-link.ts';
import { StudioWorker, type TestFile, type TestResult } from './worker-link.ts';


/** A file name a flow may be saved under: letters, digits, - and _, ending in .yaml. */
export function flowFileName(name: string): string {
  const base = name.trim().replace(/\.ya?ml$/i, '').replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${base || 'flow'}.yaml`;
}

/** What the preview shows now, as it says. */
export interface PreviewScreen {
  phase: string;
  state: string;
}

export class Studio {
  fileName = $state('flow.yaml');
  text = $state('');
  /** the text differs from the one last opened or saved */
  dirty = $state(false);
  diagnostics = $state.raw<Diagnostic[]>([]);
  /** the text the diagnostics are about is the text in the editor */
  checked = $state(false);
  runnable = $state(false);
  summary = $state.raw<FlowSummary | null>(null);
  drawn = $state.raw<DrawResult | null>(null);
  /** the drawing is of an older text than the editor's (the newest could not be drawn yet) */
  drawingStale = $state(false);
  tests = $state.raw<TestFile[]>([]);
  results = $state.raw<Record<string, TestResult>>({});
  testsRunning = $state(false);
  /** the text the preview runs (null: no preview started) */
  previewText = $state<string | null>(null);
  previewScreen = $state.raw<PreviewScreen>({ phase: '', state: '' });
  /** the preview could not run the flow, and why */
  previewRefused = $state<string | null>(null);
  /** the visit in the preview, input by input */
  visit = $state.raw<RecordedVisit | null>(null);
  /** the states the preview's visit has been in, in order */
  visited = $state.raw<string[]>([]);
  editor: FlowEditor | null = null;
  private readonly worker: StudioWorker;

  constructor() {
    this.worker = new StudioWorker(
      (result, text) => this.checkedText(result, text),
      (result, text) => this.drawnText(result, text),
    );
  }

  /** The flow's names for the editor's completion (as far as the flow could be read). */
  names(): FlowNames {
    const s = this.summary;
    return { states: s?.states ?? [], variables: s?.variables.map((v) => v.name) ?? [], tools: s?.tools ?? [] };
  }

  /** The text changed in the editor: it is checked again. */
  edited(text: string): void {
    performance.mark(EDIT_MARK);
    this.text = text;
    this.dirty = true;
    this.checked = false;
    this.worker.check(text, this.fileName);
  }

  /** Opens a flow: its text in the editor, its tests (if it comes with some) in the test list. */
  open(name: string, text: string, tests: TestFile[] = []): void {
    this.fileName = flowFileName(name);
    this.text = text;
    this.dirty = false;
    this.checked = false;
    this.tests = tests;
    this.results = {};
    this.editor?.replace(text);
    this.worker.check(text, this.fileName);
  }

  openExample(name: string): void {
    const example = EXAMPLES.find((e) => e.name === name);
    if (example) this.open(example.name, example.text, example.tests);
  }

  private checkedText(result: CheckResult, text: string): void {
    if (text !== this.text) return;
    performance.mark(CHECKED_MARK);
    this.diagnostics = result.diagnostics;
    this.runnable = result.runnable;
    // Kept as it is when it has not changed, so the controls that read it are not drawn again on every key.
    if (result.summary && JSON.stringify(result.summary) !== JSON.stringify(this.summary)) this.summary = result.summary;
    this.checked = true;
    this.editor?.show(result.diagnostics);
    // The mark once the editor and the problem list show them (the page's next paint follows).
    void tick().then(() => {
      if (this.text === text) performance.mark(DIAGNOSTICS_MARK, { detail: { errors: result.diagnostics.filter((d) => d.severity === 'error').length } });
    });
  }

  private drawnText(result: DrawResult, text: string): void {
    if (result.layout) this.drawn = result;
    this.drawingStale = text !== this.text || !result.layout;
  }

  /** Shows a state's text in the editor (a click on the diagram). */
  showState(id: string): void {
    const range = this.drawn?.ranges[id];
    if (range) this.editor?.reveal(range.key, range.end);
  }

  /** The text was saved as `name`. */
  saved(name: string): void {
    this.fileName = flowFileName(name);
    this.dirty = false;
  }

  // ------------------------------------------------------------------ tests

  addTests(files: readonly TestFile[]): void {
    const names = new Set(files.map((f) => f.name));
    this.tests = [...this.tests.filter((t) => !names.has(t.name)), ...files];
    const results = { ...this.results };
    for (const name of names) delete results[name];
    this.results = results;
  }

  removeTest(name: string): void {
    this.tests = this.tests.filter((t) => t.name !== name);
    const { [name]: _gone, ...rest } = this.results;
    this.results = rest;
  }

  /** Runs every test against the text in the editor, with the same code as `vfdl test`. */
  async runTests(): Promise<void> {
    if (this.tests.length === 0) return;
    this.testsRunning = true;
    try {
      const results = await this.worker.tests(this.text, this.fileName, this.tests);
      this.results = Object.fromEntries(results.map((r) => [r.name, r]));
    } finally {
      this.testsRunning = false;
    }
  }

  // ------------------------------------------------------------------ the preview

  /** The preview starts (again) on the text as it is now. */
  previewStarted(): void {
    this.previewText = this.text;
    this.previewRefused = null;
    this.visit = null;
    this.visited = [];
    this.previewScreen = { phase: '', state: '' };
  }

  /** What the preview said. */
  heard(message: FromPreview): void {
    switch (message.kind) {
      case 'screen':
        this.previewScreen = { phase: message.phase, state: message.state };
        if (message.phase === 'running' && message.state && this.visited.at(-1) !== message.state) this.visited = [...this.visited, message.state];
        break;
      case 'visit':
        this.visit = { today: message.today, startedAt: message.startedAt, inputs: [] };
        this.visited = [message.state];
        break;
      case 'input':
        if (this.visit) this.visit = { ...this.visit, inputs: [...this.visit.inputs, message.record as PreviewInput] };
        break;
      case 'refused':
        this.previewRefused = message.problem;
        break;
      case 'ready':
        break;
    }
  }

  /** The visit in the preview as a conversation test, named `name`, its flow `flowPath` (relative to the test). */
  keepTest(name: string, flowPath: string): Promise<KeptTest> {
    if (!this.visit || this.previewText === null) return Promise.resolve({ problem: 'nothing was done in the preview yet' });
    return this.worker.keep(this.previewText, this.fileName, this.visit, flowPath, name);
  }
}
