// What the flow studio and its preview (the kiosk running the flow being edited, in a frame of the
// studio's page) say to each other, by postMessage between two pages of the same origin. The
// studio tells the preview what to run; the preview tells the studio what the kiosk shows and
// every input its engine took, from which the studio lights the diagram and keeps a test.

import type { EngineInput } from '../engine/runtime/messages.ts';
import type { CannedAnswer } from '../cli/script-types.ts';

/** An answer the studio gives for a tool's action in the preview (the kiosk's server is not asked). */
export type PreviewAnswer = CannedAnswer extends infer A ? (A extends unknown ? Omit<A, 'line' | 'hold'> : never) : never;

/** What the preview runs. */
export interface PreviewRun {
  /** the flow's text, as it stood when the preview was (re)started */
  text: string;
  /** the flow's file name, for the kiosk's own messages */
  source: string;
  /** the visit's language (one of the flow's); absent: the flow's default */
  language?: string;
  /** start at this state with these values (and at once, without the idle screen) */
  start?: { state: string; values: Record<string, unknown> };
  /** tool -> the answer each of its actions gets */
  answers: Record<string, PreviewAnswer>;
  /** `built-in`: the offline assistant; `configured`: the services the kiosk's server has */
  assistant: 'built-in' | 'configured';
}

/** One input the preview's engine took, as the studio keeps it for a test. */
export type PreviewInput =
  | { kind: 'send'; input: EngineInput | readonly EngineInput[]; at: number; state: string; ended: boolean; changed: boolean; runs: readonly ActionRun[] }
  | { kind: 'language'; language: string; at: number; state: string; ended: boolean; changed: boolean; runs: readonly ActionRun[] };

/** An action a step asked to run: its id and its tool. */
export interface ActionRun {
  action_id: string;
  tool: string;
}

export type FromStudio = { kind: 'run'; run: PreviewRun };

export type FromPreview =
  /** the preview page is loaded and waits for what to run */
  | { kind: 'ready' }
  /** the kiosk's screen: its phase (idle, running, ended…) and the flow's state on it */
  | { kind: 'screen'; phase: string; state: string }
  /** a visit started: its engine's clock at the start, its day, and its first state */
  | { kind: 'visit'; at: number; today: string; state: string; startedAt: string | null }
  /** the engine took an input */
  | { kind: 'input'; record: PreviewInput }
  /** the flow could not be run (it has errors, or the chosen start does not fit) */
  | { kind: 'refused'; problem: string };

/** The message `data` if it is one of the studio's (a `run`), else null. */
export function fromStudio(data: unknown): FromStudio | null {
  return typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === 'run' ? (data as FromStudio) : null;
}

/** The message `data` if it is one of the preview's, else null. */
export function fromPreview(data: unknown): FromPreview | null {
  const kind = typeof data === 'object' && data !== null ? (data as { kind?: unknown }).kind : undefined;
  return kind === 'ready' || kind === 'screen' || kind === 'visit' || kind === 'input' || kind === 'refused' ? (data as FromPreview) : null;
}
