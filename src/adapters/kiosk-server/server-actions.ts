// The kiosk's own server as the ActionRunner and OutcomeSink: `POST /api/actions` performs an
// action (the server builds it from its copy of the flow, checks the origin, puts secrets in,
// remembers the id), `GET /api/actions/<id>`
// tells how one ended, `POST /api/analytics` counts outcomes. Any failure to reach the server is
// a failed action: the page never sends the same action twice.

import { unlessLeaving } from './page-leaving.ts';
import type { ActionCall, ActionLookup, ActionOutcome, ActionRunner, OutcomeEvent, OutcomeSink } from '../../ports/action-runner.ts';

export const ACTIONS_API = { actions: '/api/actions', analytics: '/api/analytics' } as const;

type Fetch = typeof fetch;

/** The server's answer body, as far as the page reads it. */
interface Answer {
  ok?: unknown;
  data?: unknown;
  error?: unknown;
  message?: unknown;
  state?: unknown;
  /** the target's HTTP status, when it answered */
  status?: unknown;
}

async function readAnswer(response: Response): Promise<Answer | null> {
  try {
    const body: unknown = await response.json();
    return body !== null && typeof body === 'object' ? (body as Answer) : null;
  } catch {
    return null;
  }
}

/** "timeout: no answer within 10 s" from the server's code and message. */
function failure(answer: Answer | null, fallback: string): ActionOutcome {
  const code = typeof answer?.error === 'string' ? answer.error : null;
  const message = typeof answer?.message === 'string' ? answer.message : null;
  const status = answer?.status;
  return {
    ok: false,
    error: code && message ? `${code}: ${message}` : (message ?? code ?? fallback),
    ...(typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599 ? { status } : {}),
  };
}

/**
 * What the server is asked: which flow, state and tool, the values the effect uses, and the id.
 * Never the url, method, body or headers: the server builds those from its own copy of the flow.
 */
function askFor(call: ActionCall): Record<string, unknown> {
  return {
    type: 'action_run',
    action_id: call.action_id,
    flow_id: call.flow_id,
    flow_source: call.flow_source,
    ...(call.flow_version ? { flow_version: call.flow_version } : {}),
    state: call.state,
    tool: call.tool,
    values: call.values,
  };
}

export class ServerActions implements ActionRunner, OutcomeSink {
  constructor(
    private readonly base = '',
    private readonly fetcher: Fetch = (...args) => fetch(...args),
  ) {}

  async run(call: ActionCall): Promise<ActionOutcome> {
    let response: Response;
    try {
      response = await this.fetcher(`${this.base}${ACTIONS_API.actions}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(askFor(call)),
      });
    } catch (error) {
      // Cancelled by a reload: said nothing of; the reloaded page asks how it ended.
      await unlessLeaving();
      // Not known whether it reached the target: failed, and never tried again from here.
      return { ok: false, error: `the kiosk's server could not be reached (${(error as Error).message}); the action may or may not have run` };
    }
    const answer = await readAnswer(response);
    if (response.status === 200 && answer?.ok === true) return { ok: true, data: answer.data ?? null };
    return failure(answer, `the kiosk's server answered ${response.status}`);
  }

  async lookup(actionId: string): Promise<ActionLookup> {
    let response: Response;
    try {
      response = await this.fetcher(`${this.base}${ACTIONS_API.actions}/${encodeURIComponent(actionId)}`, { headers: { accept: 'application/json' } });
    } catch (error) {
      await unlessLeaving();
      return { ok: false, error: `the kiosk's server could not be reached to ask how the action ended (${(error as Error).message})` };
    }
    const answer = await readAnswer(response);
    if (response.status === 404) return { ok: false, error: "the kiosk's server has no record of this action; it is taken as failed and not sent again" };
    if (response.status !== 200 || !answer) return failure(answer, `the kiosk's server answered ${response.status}`);
    if (answer.state === 'running') return { running: true };
    // The view never carries the answer's data: a recovered success has none to capture.
    if (answer.state === 'done') return { ok: true, data: null };
    return failure(answer, 'the action failed');
  }

  /** Resolves once the server took the event, or it was lost (the kiosk does not wait for it). */
  report(event: OutcomeEvent): Promise<void> {
    return this.fetcher(`${this.base}${ACTIONS_API.analytics}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
      keepalive: true,
    }).then(
      (response) => void response.body?.cancel(),
      () => undefined, // counting is best effort; the visit goes on
    );
  }
}
