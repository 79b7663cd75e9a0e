// The preview's action runner: a flow's HTTP actions answered with what the studio says each tool
// answers (a status and a body, or no answer in time), never sent anywhere. The flow being edited
// is one the kiosk's server does not know, so its actions could not run there; and a test kept
// from the preview gets the same answers (`answers:`), so `vfdl test` sees what the author saw.

import { cannedDone } from '../../cli/play-script.ts';
import type { ActionCall, ActionLookup, ActionOutcome, ActionRunner, OutcomeSink } from '../../ports/action-runner.ts';
import type { PreviewAnswer } from '../preview-link.ts';

/** The answer a tool's actions get when the studio names none: done, with nothing to capture. */
export const DEFAULT_ANSWER: PreviewAnswer = { status: 200, body: {} };

/** A canned answer as the kiosk's server would report it (the same words `vfdl test` gives). */
export function cannedOutcome(answer: PreviewAnswer): ActionOutcome {
  const done = cannedDone('', { ...answer, line: 0 } as Parameters<typeof cannedDone>[1]);
  return done.ok ? { ok: true, data: done.data } : { ok: false, error: done.error ?? 'failed', ...(done.status !== undefined ? { status: done.status } : {}) };
}

export class CannedActions implements ActionRunner, OutcomeSink {
  constructor(private readonly answers: Readonly<Record<string, PreviewAnswer>>) {}

  run(call: ActionCall): Promise<ActionOutcome> {
    const answer = Object.hasOwn(this.answers, call.tool) ? this.answers[call.tool]! : DEFAULT_ANSWER;
    return Promise.resolve(cannedOutcome(answer));
  }

  /** Nothing outlives the preview's page: an action it does not know of is failed. */
  lookup(): Promise<ActionLookup> {
    return Promise.resolve({ ok: false, error: 'the preview does not know this action' });
  }

  /** The preview's visits are not counted for the operator. */
  report(): void {}
}
