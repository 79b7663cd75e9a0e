// The answers a conversation test gives its flow's HTTP actions instead of a real service
// (docs/vfdl.md, "Actions offline"): each request gets its tool's next canned answer at once, or
// later, when the answer is held (`hold: true`) until a `release` step gives it.

import type { ActionDoneInput, ActionRunMessage } from '../engine/runtime/messages.ts';
import type { CannedAnswer } from './script-types.ts';

/** A canned answer as the kiosk's server would report it to the engine. */
export function cannedDone(actionId: string, answer: CannedAnswer): ActionDoneInput {
  if ('timeout' in answer) return { type: 'action_done', action_id: actionId, ok: false, error: 'timeout: the service did not answer in time' };
  if (answer.status >= 200 && answer.status < 300) return { type: 'action_done', action_id: actionId, ok: true, data: answer.body ?? null };
  return { type: 'action_done', action_id: actionId, ok: false, error: `http: the service answered ${answer.status}`, status: answer.status };
}

/** The test's service: its answers by tool, and the requests whose answer is held. */
export class CannedAnswers {
  private readonly answers: Map<string, CannedAnswer[]>;
  /** by tool, the requests whose answer is held until a `release` step, oldest first */
  private readonly held = new Map<string, { actionId: string; answer: CannedAnswer }[]>();

  constructor(answers: Readonly<Record<string, readonly CannedAnswer[]>>) {
    this.answers = new Map(Object.entries(answers).map(([tool, list]) => [tool, [...list]]));
  }

  /** The answer a request gets now; undefined when it is held, or when its tool has none left (it stays unanswered). */
  answer(run: ActionRunMessage): ActionDoneInput | undefined {
    const answer = this.answers.get(run.tool)?.shift();
    if (!answer?.hold) return answer && cannedDone(run.action_id, answer);
    this.held.set(run.tool, [...(this.held.get(run.tool) ?? []), { actionId: run.action_id, answer }]);
    return undefined;
  }

  /** The held answer of the tool's oldest request that waits, given now; undefined when none waits. */
  release(tool: string): ActionDoneInput | undefined {
    const first = this.held.get(tool)?.shift();
    return first && cannedDone(first.actionId, first.answer);
  }
}
