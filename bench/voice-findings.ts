// What the voice benchmark's scenarios hand to the report: samples in ms by figure, context
// lines by section, and failures of the measurement itself (which make the run exit 1).

export type Section = 'end-of-speech' | 'screen' | 'speech' | 'barge-in' | 'load' | 'cold' | 'reply' | 'cutoffs';

export class Findings {
  private readonly samples = new Map<string, number[]>();
  private readonly notes = new Map<Section, string[]>();
  readonly failures: string[] = [];
  /** the first visit's download has been described (once per benchmark) */
  downloadDescribed = false;
  /** the sample rate of the page's audio context (the microphone's) in the last run that read it */
  sampleRate: number | null = null;

  /** Adds samples (ms) to a figure. */
  add(figure: string, ...values: number[]): void {
    const list = this.samples.get(figure) ?? [];
    list.push(...values);
    this.samples.set(figure, list);
  }

  /** The samples of a figure so far; several figures' samples together when given several. */
  of(...figures: string[]): number[] {
    return figures.flatMap((f) => this.samples.get(f) ?? []);
  }

  note(section: Section, text: string): void {
    const list = this.notes.get(section) ?? [];
    list.push(text);
    this.notes.set(section, list);
  }

  notesOf(section: Section): readonly string[] {
    return this.notes.get(section) ?? [];
  }

  /** The measurement failed: say what, and carry on with what can still be measured. */
  fail(text: string): void {
    this.failures.push(text);
  }
}
