// Action gates (SPEC 5): a `confirm: true` tool is proposed, not run; the visitor confirms or
// rejects it; it expires, is cancelled by leaving, runs at most once. Tools with `http:` ask the
// runtime to run the request and apply its answer only while the flow is still where it asked.

import { describe, expect, it } from 'vitest';
import { only, ofType, startFlow, type Harness } from '../support/engine-harness.ts';

const FLOW = `
id: booking
variables:
  patient: { type: string, default: Ann }
  seats: { type: integer, default: 2 }
states:
  book:
    ui:
      artifact_type: card
      title: Book a visit
      actions: [ { event: leave, label: Leave } ]
    agent:
      prompt: Book a cleaning.
      tools: [book_slot, hold_slot, save_booking, lookup]
    tools:
      book_slot:
        description: Book a slot.
        confirm: true
        summary: "Book a cleaning on {date} at {time} for {patient}"
        parameters:
          date: { type: date, required: true }
          time: { type: string, required: true }
      hold_slot:
        description: Hold a slot for a minute.
        confirm: true
        expires_after: 60
        parameters:
          time: { type: string, required: true }
      save_booking:
        description: Save the booking.
        confirm: true
        summary: "Save {date} {time}"
        parameters:
          date: { type: date, required: true }
          time: { type: string, required: true }
        http:
          method: POST
          url: "https://clinic.example/patients/{patient}/bookings"
          body: { date: "{date}", time: "{time}", seats: "{seats}", note: "for {patient}" }
          capture: { booking_id: booking.id }
      lookup:
        description: Find the next free slot on a date.
        parameters:
          date: { type: date, required: true }
        http:
          method: GET
          url: "https://clinic.example/slots?date={date}"
          capture: { next_slot: slot.time, clinic_name: clinic }
    transitions:
      on_tool_call: { book_slot: booked, save_booking: booked, lookup: slot_found }
      on_ui_event: { leave: away }
  booked: { agent: { prompt: Booked. }, transitions: { on_ui_event: { finish: __end__ } } }
  slot_found: { agent: { prompt: "Offer {next_slot}." }, transitions: { on_ui_event: { finish: __end__ } } }
  away: { agent: { prompt: Away. }, transitions: { on_ui_event: { back: book } } }
`;

const BOOK = { date: '2025-03-04', time: '10:30' };

/** Proposes book_slot; returns its action id. */
function propose(h: Harness, args: Record<string, unknown> = BOOK): string {
  return only(h.call('book_slot', args), 'action_pending').action_id;
}

describe('proposing an action', () => {
  it('does not run a confirm: true tool when called: it is pending, with an interpolated summary', () => {
    const h = startFlow(FLOW);
    h.clock.advance(5_000);
    const out = h.call('book_slot', BOOK, { call_id: 'c1' });
    const pending = only(out, 'action_pending');
    expect(pending).toMatchObject({ tool: 'book_slot', summary: 'Book a cleaning on March 4, 2025 at 10:30 for Ann', args: BOOK, expires_at: 305_000 });
    expect(only(out, 'tool_result')).toMatchObject({ call_id: 'c1', ok: true, content: { status: 'pending_confirmation' } });
    expect(ofType(out, 'flow_variable')).toEqual([]);
    expect(ofType(out, 'action_result')).toEqual([]);
    expect(h.engine.view.state).toBe('book');
    expect(h.engine.view.values).toEqual({ patient: 'Ann', seats: 2 });
    expect(h.engine.view.pendingAction).toMatchObject({ id: pending.action_id, tool: 'book_slot' });
    expect(h.engine.view.tools).toEqual(expect.arrayContaining(['confirm_action', 'reject_action']));
  });

  it('a newer call of the same tool is an edit: the pending one ends edited, the new one has its own id', () => {
    const h = startFlow(FLOW);
    const first = propose(h);
    const out = h.call('book_slot', { date: '2025-03-05', time: '09:00' });
    expect(only(out, 'action_result')).toMatchObject({ action_id: first, status: 'edited' });
    const second = only(out, 'action_pending');
    expect(second.action_id).not.toBe(first);
    expect(second.replaces).toBe(first);
    expect(h.engine.view.pendingAction?.id).toBe(second.action_id);
  });
});

describe('confirming an action', () => {
  it('confirm_action needs a user turn after the proposal', () => {
    const h = startFlow(FLOW);
    propose(h);
    const out = h.call('confirm_action');
    expect(only(out, 'tool_rejected').reason).toBe('no_user_turn');
    expect(ofType(out, 'system_message')).toHaveLength(1);
    expect(h.engine.view.pendingAction).not.toBeNull();
    expect(h.engine.view.state).toBe('book');
  });

  it('after the visitor answers, it runs once: the arguments are captured and the tool transition taken', () => {
    const h = startFlow(FLOW);
    const id = propose(h);
    h.say('yes please');
    const out = h.call('confirm_action');
    expect(only(out, 'action_result')).toMatchObject({ action_id: id, tool: 'book_slot', status: 'done' });
    expect(h.engine.view.values).toMatchObject(BOOK);
    expect(h.engine.view.state).toBe('booked');
    expect(h.engine.view.pendingAction).toBeNull();
  });

  it('a replacing proposal needs a new user turn of its own', () => {
    const h = startFlow(FLOW);
    propose(h);
    h.say('yes');
    propose(h, { date: '2025-03-05', time: '09:00' });
    expect(only(h.call('confirm_action'), 'tool_rejected').reason).toBe('no_user_turn');
    h.say('yes, the fifth');
    h.call('confirm_action');
    expect(h.engine.view.values).toMatchObject({ date: '2025-03-05', time: '09:00' });
  });

  it('runs at most once, even when confirmed twice in one step', () => {
    const h = startFlow(FLOW);
    h.call('hold_slot', { time: '10:30' });
    const out = h.send([h.input.ui('confirm_action'), h.input.ui('confirm_action')]);
    expect(ofType(out, 'action_result').map((r) => r.status)).toEqual(['done']);
    const again = h.call('confirm_action');
    expect(only(again, 'tool_rejected').reason).toBe('no_pending_action');
    expect(ofType(again, 'action_result')).toEqual([]);
  });

  it('reject_action cancels it: nothing is set and the LLM is told', () => {
    const h = startFlow(FLOW);
    const id = propose(h);
    const out = h.call('reject_action');
    expect(only(out, 'action_result')).toMatchObject({ action_id: id, status: 'rejected' });
    expect(only(out, 'system_message').text).toContain('Book a cleaning on March 4, 2025');
    expect(h.engine.view.pendingAction).toBeNull();
    expect(h.engine.view.values).toEqual({ patient: 'Ann', seats: 2 });
    expect(h.engine.view.state).toBe('book');
  });

  it.each([
    { event: 'confirm_action', status: 'done', state: 'booked' },
    { event: 'reject_action', status: 'rejected', state: 'book' },
  ])('a $event tap decides it at once ($status)', ({ event, status, state }) => {
    const h = startFlow(FLOW);
    const id = propose(h);
    const out = h.ui(event);
    expect(only(out, 'action_result')).toMatchObject({ action_id: id, status });
    expect(h.engine.view.state).toBe(state);
  });
});

describe('the end of a pending action', () => {
  it.each([
    { tool: 'book_slot', args: BOOK, seconds: 300 },
    { tool: 'hold_slot', args: { time: '10:30' }, seconds: 60 },
  ])('$tool expires after $seconds s', ({ tool, args, seconds }) => {
    const h = startFlow(FLOW);
    const id = only(h.call(tool, args), 'action_pending').action_id;
    expect(h.engine.view.nextDeadline).toBe(seconds * 1000);
    h.say('let me think'); // the visitor's activity does not extend it
    expect(h.wait(seconds - 1)).toEqual([]);
    const out = h.wait(1);
    expect(only(out, 'action_result')).toMatchObject({ action_id: id, status: 'expired' });
    expect(ofType(out, 'system_message')).toHaveLength(1);
    expect(h.engine.view.pendingAction).toBeNull();
    expect(h.ui('confirm_action')).toEqual([]);
  });

  it('leaving the state cancels it', () => {
    const h = startFlow(FLOW);
    const id = propose(h);
    const out = h.ui('leave');
    expect(only(out, 'action_result')).toMatchObject({ action_id: id, status: 'cancelled' });
    expect(h.engine.view.pendingAction).toBeNull();
    h.ui('back');
    expect(h.engine.view.pendingAction).toBeNull();
  });
});

describe('tools with an http effect', () => {
  it('a read tool asks the runtime to run the request at once, interpolating the url', () => {
    const h = startFlow(FLOW);
    const out = h.call('lookup', { date: '2025-03-04' }, { call_id: 'c1' });
    const run = only(out, 'action_run');
    expect(run).toMatchObject({ tool: 'lookup', method: 'GET', url: 'https://clinic.example/slots?date=2025-03-04' });
    expect(run.body).toBeUndefined();
    expect(only(out, 'tool_result')).toMatchObject({ call_id: 'c1', ok: true, content: { status: 'running', action_id: run.action_id } });
    expect(h.engine.view.state).toBe('book');
  });

  it('a confirmed write sends its body interpolated (a lone {var} keeps its type)', () => {
    const h = startFlow(FLOW);
    h.call('save_booking', BOOK);
    const out = h.ui('confirm_action');
    expect(only(out, 'action_run')).toMatchObject({
      tool: 'save_booking',
      method: 'POST',
      url: 'https://clinic.example/patients/Ann/bookings',
      body: { date: '2025-03-04', time: '10:30', seats: 2, note: 'for Ann' },
    });
    expect(h.engine.view.state).toBe('book');
  });

  it('an ok action_done captures variables from the JSON answer (dotted paths), then transitions', () => {
    const h = startFlow(FLOW);
    const id = only(h.call('lookup', { date: '2025-03-04' }), 'action_run').action_id;
    const out = h.send({ type: 'action_done', action_id: id, ok: true, data: { slot: { time: '11:15' }, clinic: 'Riverside' } });
    expect(only(out, 'action_result')).toMatchObject({ action_id: id, status: 'done' });
    expect(h.engine.view.values).toMatchObject({ date: '2025-03-04', next_slot: '11:15', clinic_name: 'Riverside' });
    expect(h.engine.view.state).toBe('slot_found');
    expect(only(out, 'flow_state').agent.system_prompt).toContain('Offer 11:15.');
  });

  it('a confirmed write transitions only once its answer is in', () => {
    const h = startFlow(FLOW);
    h.call('save_booking', BOOK);
    const id = only(h.ui('confirm_action'), 'action_run').action_id;
    h.send({ type: 'action_done', action_id: id, ok: true, data: { booking: { id: 'B-17' } } });
    expect(h.engine.view.values['booking_id']).toBe('B-17');
    expect(h.engine.view.state).toBe('booked');
  });

  it('a failed action_done reports action_result failed and a system_message, and does not transition', () => {
    const h = startFlow(FLOW);
    const id = only(h.call('lookup', { date: '2025-03-04' }), 'action_run').action_id;
    const out = h.send({ type: 'action_done', action_id: id, ok: false, error: 'HTTP 503' });
    expect(only(out, 'action_result')).toMatchObject({ action_id: id, status: 'failed', detail: 'HTTP 503' });
    expect(only(out, 'system_message').text).toContain('HTTP 503');
    expect(h.engine.view.state).toBe('book');
    expect(h.engine.view.values).not.toHaveProperty('next_slot');
  });

  it('an action_done that comes after the visitor left the state is not applied', () => {
    const h = startFlow(FLOW);
    const id = only(h.call('lookup', { date: '2025-03-04' }), 'action_run').action_id;
    h.ui('leave');
    const out = h.send({ type: 'action_done', action_id: id, ok: true, data: { slot: { time: '11:15' }, clinic: 'Riverside' } });
    expect(ofType(out, 'flow_variable')).toEqual([]);
    expect(ofType(out, 'flow_state')).toEqual([]);
    expect(h.engine.view.state).toBe('away');
    expect(h.engine.view.values).not.toHaveProperty('next_slot');
  });

  it('an action_done for an unknown or finished action is ignored', () => {
    const h = startFlow(FLOW);
    const id = only(h.call('lookup', { date: '2025-03-04' }), 'action_run').action_id;
    h.send({ type: 'action_done', action_id: id, ok: false, error: 'timeout' });
    expect(h.send({ type: 'action_done', action_id: id, ok: true, data: { slot: { time: '11:15' } } })).toEqual([]);
    expect(h.send({ type: 'action_done', action_id: 'nope', ok: true })).toEqual([]);
  });
});
