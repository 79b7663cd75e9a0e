// The page's side of actions, against the real kiosk server and the local clinic service: each
// action_run goes to /api/actions once under a visit-unique id, its answer comes back to the
// engine as action_done, a server out of reach is a failed action never sent again, an action
// whose answer never came is asked after (404: failed), and outcomes are counted on /api/status.

import { describe, expect, it } from 'vitest';
import { ServerActions } from '../../src/adapters/kiosk-server/server-actions.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { ActionDoneInput, EngineMessage } from '../../src/engine/runtime/messages.ts';
import type { ActionCall, ActionOutcome, OutcomeEvent } from '../../src/ports/action-runner.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import type { Timers } from '../../src/ports/timers.ts';
import { KioskActions, visitNonce } from '../../src/ui/kiosk-actions.ts';
import { startClinicService, type ClinicService } from '../servers/clinic-service.ts';
import { closeServer, listen, useServerHarness } from '../support/server-harness.ts';
import { createServer } from 'node:http';

const TOKEN = 'kiosk-actions-token-5e0c1f9a2b';
const harness = useServerHarness({ rootPrefix: 'kiosk-actions-', secrets: [TOKEN] });

const flowFor = (origin: string) => `
id: clinic_checkin
variables:
  full_name: { type: string, default: Maria Garcia }
  date_of_birth: { type: date, default: "1984-03-05" }
states:
  summary:
    ui:
      artifact_type: card
      actions: [ { event: check_in, label: Check me in, tool: check_in } ]
    agent: { prompt: Check the patient in., tools: [check_in] }
    tools:
      check_in:
        description: Check the patient in.
        confirm: true
        summary: "Check in {full_name}"
        http:
          method: POST
          url: "${origin}/check-ins"
          headers: { Authorization: "Bearer {secret:CLINIC_TOKEN}" }
          body: { name: "{full_name}", dob: "{date_of_birth}", reason: walk_in }
          capture: { queue_number: queue_number }
    transitions:
      on_tool_call: { check_in: checked_in }
      on_action_failed: { check_in: front_desk }
  checked_in: { ui: { artifact_type: card, title: "Number {queue_number}" } }
  front_desk: { ui: { artifact_type: card, title: See the front desk } }
`;

/** Real timers, shortened: recovery polls without waiting a second each time. */
const quickTimers: Timers = {
  schedule(delayMs, fn) {
    const id = setTimeout(fn, Math.min(delayMs, 20));
    return () => clearTimeout(id);
  },
};

/** One visit: an engine, the page's actions module over `runner`, and its answers fed back. */
function visit(origin: string, runner: ServerActions, nonce?: string) {
  const text = flowFor(origin);
  const engine = new FlowEngine(loadFlow(text).loaded!, new VirtualClock());
  const log: EngineMessage[] = [];
  let answered: () => void = () => {};
  const actions = new KioskActions(
    runner,
    runner,
    { flow_id: 'clinic_checkin', ...harness.keepFlow(text, `https://flows.example/${origin}/clinic.yaml`) },
    (done: ActionDoneInput) => {
      const out = engine.send(done);
      log.push(...out);
      actions.observe(out);
      answered();
    },
    quickTimers,
    nonce,
  );
  const feed = (out: EngineMessage[]) => {
    log.push(...out);
    actions.observe(out);
  };
  feed(engine.start());
  return {
    engine,
    actions,
    log,
    tap: (event: string) => feed(engine.send({ type: 'ui_event', event })),
    /** resolves at the next answer fed to the engine */
    nextAnswer: () => new Promise<void>((resolve) => (answered = resolve)),
  };
}

async function clinicAndKiosk(): Promise<{ service: ClinicService; kiosk: string }> {
  const service = await startClinicService({ token: TOKEN });
  harness.onCleanup(() => service.close());
  const kiosk = await harness.startKiosk({ actions: { allowedOrigins: [service.url], secrets: { CLINIC_TOKEN: TOKEN }, secretOrigins: { CLINIC_TOKEN: [service.url] } } });
  return { service, kiosk };
}

describe('the page hands actions to the kiosk server', () => {
  it('a yes checks the patient in once, under an id unique to the visit, and the answer moves the flow', async () => {
    const { service, kiosk } = await clinicAndKiosk();
    const v = visit(service.url, new ServerActions(kiosk));
    v.tap('check_in');
    const answered = v.nextAnswer();
    v.tap('confirm_action');
    v.tap('confirm_action'); // a double tap
    await answered;
    expect(service.checkIns).toHaveLength(1);
    expect(service.checkIns[0]).toMatchObject({ name: 'Maria Garcia', dob: '1984-03-05', idempotency_key: `${v.actions.nonce}.action_1` });
    expect(v.engine.view.state).toBe('checked_in');
    expect(v.engine.view.values['queue_number']).toBe(1);
  });

  it('two visits (or kiosks) with the same engine ids never share an action id: both check-ins happen', async () => {
    const { service, kiosk } = await clinicAndKiosk();
    for (let i = 0; i < 2; i++) {
      const v = visit(service.url, new ServerActions(kiosk));
      v.tap('check_in');
      const answered = v.nextAnswer();
      v.tap('confirm_action');
      await answered;
      expect(v.engine.view.state).toBe('checked_in');
    }
    expect(service.checkIns.map((c) => c.queue_number)).toEqual([1, 2]);
    expect(new Set(service.checkIns.map((c) => c.idempotency_key)).size).toBe(2);
    expect(visitNonce()).toMatch(/^v[0-9a-f]{32}$/);
  });

  it('a refused host, a service that is down: failed, with the server\'s reason for the model, and the failure path', async () => {
    const { service, kiosk } = await clinicAndKiosk();
    const elsewhere = visit('http://127.0.0.1:9', new ServerActions(kiosk));
    elsewhere.tap('check_in');
    let answered = elsewhere.nextAnswer();
    elsewhere.tap('confirm_action');
    await answered;
    expect(elsewhere.log.find((m) => m.type === 'action_result' && m.status === 'failed')).toMatchObject({ detail: expect.stringMatching(/^refused_host: /) });
    expect(elsewhere.engine.view.state).toBe('front_desk');

    service.fail('http_500', 1);
    const down = visit(service.url, new ServerActions(kiosk));
    down.tap('check_in');
    answered = down.nextAnswer();
    down.tap('confirm_action');
    await answered;
    expect(down.engine.view.state).toBe('front_desk');
    expect(down.log.filter((m) => m.type === 'speech_cue').at(-1)).toMatchObject({ reason: 'action_failed', text: 'Sorry, that did not go through. Nothing was done.' });
    // The clinic's status reaches the engine (a flow may have its own way on for it); a refusal has none.
    expect(down.log.find((m) => m.type === 'action_result' && m.status === 'failed')).toMatchObject({ http_status: 500 });
    expect(elsewhere.log.find((m) => m.type === 'action_result' && m.status === 'failed')).not.toHaveProperty('http_status');
    expect(service.checkIns).toHaveLength(0);
  });

  it('a kiosk server out of reach: the action is failed and never sent again', async () => {
    const gone = createServer();
    const port = await listen(gone);
    await closeServer(gone);
    const calls: ActionCall[] = [];
    const runner = new ServerActions(`http://127.0.0.1:${port}`);
    const run = runner.run.bind(runner);
    runner.run = (call: ActionCall): Promise<ActionOutcome> => {
      calls.push(call);
      return run(call);
    };
    const v = visit('http://127.0.0.1:9', runner);
    v.tap('check_in');
    const answered = v.nextAnswer();
    v.tap('confirm_action');
    await answered;
    expect(v.log.find((m) => m.type === 'action_result')).toMatchObject({ status: 'failed', detail: expect.stringContaining('could not be reached') });
    expect(calls).toHaveLength(1);
    expect(v.actions.unanswered).toEqual([]);
  });
});

describe('the server adapter', () => {
  it('a reused id with another request is refused by the server and is a failed action; a repeat gets the first answer', async () => {
    const { service, kiosk } = await clinicAndKiosk();
    const runner = new ServerActions(kiosk);
    const call = {
      action_id: 'v0.action_1',
      flow_id: 'clinic_checkin',
      ...harness.keepFlow(flowFor(service.url)),
      state: 'summary',
      tool: 'check_in',
      values: { full_name: 'Li Wei', date_of_birth: '1992-11-03' },
      // what the engine built; the server builds its own from the flow
      method: 'POST',
      url: `${service.url}/check-ins`,
    };
    const first = await runner.run(call);
    expect(first).toEqual({ ok: true, data: { check_in_id: 'chk-1', queue_number: 1 } });
    expect(await runner.run(call)).toEqual(first);
    expect(await runner.run({ ...call, values: { ...call.values, full_name: 'Someone Else' } })).toMatchObject({ ok: false, error: expect.stringMatching(/^action_id_reused: /) });
    expect(service.checkIns).toHaveLength(1);
    expect(await runner.lookup('v0.action_1')).toEqual({ ok: true, data: null });
  });
});

describe('after a reload: asking, never re-sending', () => {
  it('an action the server ran is asked after (done); one it never saw is failed (404); nothing reaches the clinic again', async () => {
    const { service, kiosk } = await clinicAndKiosk();
    const runner = new ServerActions(kiosk);
    const first = visit(service.url, runner);
    first.tap('check_in');
    const answered = first.nextAnswer();
    first.tap('confirm_action');
    await answered;
    const sent = { actionId: 'action_1', serverId: `${first.actions.nonce}.action_1`, tool: 'check_in' };

    // The reloaded page: the engine resumed with action_1 running (here: a fresh one that sent it).
    const again = visit(service.url, { run: () => new Promise<ActionOutcome>(() => {}), lookup: (id: string) => runner.lookup(id), report: () => {} } as unknown as ServerActions, first.actions.nonce);
    again.tap('check_in');
    again.tap('confirm_action');
    const recovered = again.nextAnswer();
    again.actions.recover(sent);
    await recovered;
    expect(again.engine.view.state).toBe('checked_in');

    // An action sent by a page that reloaded before the server got it: the server never saw it.
    const lost = visit(service.url, { run: () => new Promise<ActionOutcome>(() => {}), lookup: (id: string) => runner.lookup(id), report: () => {} } as unknown as ServerActions);
    lost.tap('check_in');
    lost.tap('confirm_action');
    const failed = lost.nextAnswer();
    lost.actions.recover({ actionId: 'action_1', serverId: `${lost.actions.nonce}.action_1`, tool: 'check_in' });
    await failed;
    expect(lost.log.find((m) => m.type === 'action_result')).toMatchObject({ status: 'failed', detail: expect.stringContaining('no record') });
    expect(lost.engine.view.state).toBe('front_desk');
    expect(service.checkIns).toHaveLength(1);
    expect(service.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});

describe('outcomes', () => {
  it('proposed, edited, confirmed and done are counted per flow on /api/status, with names only', async () => {
    const { service, kiosk } = await clinicAndKiosk();
    const runner = new ServerActions(kiosk);
    const reports: Promise<void>[] = [];
    const sent: OutcomeEvent[] = [];
    const report = runner.report.bind(runner);
    runner.report = (event: OutcomeEvent) => {
      sent.push(event);
      const p = report(event);
      reports.push(p);
      return p;
    };
    const v = visit(service.url, runner);
    v.tap('check_in');
    v.tap('check_in'); // proposed again: the first ends edited
    const answered = v.nextAnswer();
    v.tap('confirm_action');
    await answered;
    await Promise.all(reports);
    const status = (await (await fetch(`${kiosk}/api/status`)).json()) as { actions: { counts: Record<string, unknown> } };
    expect(status.actions.counts['clinic_checkin']).toEqual({ proposed: 2, edited: 1, confirmed: 1, done: 1, failed: 0, rejected: 0, expired: 0, replaced: 0 });
    expect(sent[0]).toEqual({ event: 'action', flow_id: 'clinic_checkin', state: 'summary', tool: 'check_in', outcome: 'proposed' });
    for (const e of sent) expect(Object.keys(e).sort()).toEqual(['event', 'flow_id', 'outcome', 'state', 'tool']);
  });
});
