// Resuming a run from its snapshot (src/engine/runtime/snapshot.ts): plain JSON, the same state and values
// with nothing entered or run again, pending values and actions still pending, deadlines with the
// time they had left, a changed or ended flow refused; and, for every state the example flows
// reach under random input, a restored engine that goes on exactly like the original.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FlowEngine, type EngineView } from '../../src/engine/runtime/engine.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineMessage } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { only, ofType, startFlow, types, type Harness } from '../support/engine-harness.ts';
import { resolveStep, stepsIn, type PlannedStep } from '../support/random-inputs.ts';
import { cases, WALK_CEILING_MS } from '../support/sample-sizes.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const FLOW = `
id: resumable
version: "3"
tools:
  save_name:
    description: Capture the name.
    parameters: { first_name: { type: string, required: true } }
  book:
    description: Book the visit.
    confirm: true
    summary: "Book a visit for {first_name}"
states:
  ask:
    on_enter: [ { emit: asked }, { set: { greeted: "yes" } } ]
    ui:
      artifact_type: form
      fields: [ { id: first_name, type: text, label: Name } ]
    agent: { prompt: Ask for the name., tools: [save_name] }
    confirmation_gate: { variables: [first_name], on_confirm: booking }
    transitions:
      on_utterance: [ { pattern: "my name is (\\\\w+)", capture_to: first_name } ]
      on_timeout: { seconds: 60, target: ask, max_retries: 1, fallback: __end__ }
  booking:
    agent: { prompt: Offer to book., tools: [book] }
    transitions: { on_tool_call: { book: __end__ } }
variables:
  first_name: { type: string }
  greeted: { type: string }
`;

/** The snapshot as it comes back from storage: through JSON text. */
function kept(h: Harness): unknown {
  return JSON.parse(JSON.stringify(h.engine.snapshot()));
}

function loaded(yaml: string): LoadedFlow {
  const result = loadFlow(yaml, 'inline.yaml');
  if (!result.loaded) throw new Error('flow does not load');
  return result.loaded;
}

function restore(yaml: string, snapshot: unknown, clock = new VirtualClock(), awayMs = 0): { engine: FlowEngine; messages: EngineMessage[] } {
  const result = FlowEngine.restore(loaded(yaml), clock, snapshot, { awayMs });
  if ('problem' in result) throw new Error(result.problem);
  return result;
}

function comparable(view: EngineView): unknown {
  return JSON.parse(JSON.stringify(view));
}

describe('a snapshot', () => {
  it('is plain JSON data: a trip through JSON text gives it back unchanged', () => {
    const h = startFlow(FLOW);
    h.say('my name is Alex');
    const snapshot = h.engine.snapshot();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(snapshot.flow).toMatchObject({ id: 'resumable', version: '3' });
    expect(snapshot.session.values).toEqual({ first_name: 'Alex', greeted: 'yes' });
  });

  it('comes back in the same state, epoch and values, entering nothing again', () => {
    const h = startFlow(FLOW);
    h.say('my name is Alex');
    const { engine, messages } = restore(FLOW, kept(h));
    expect(comparable(engine.view)).toEqual(comparable(h.engine.view));
    // Only the screen again: no on_enter (analytics, set), no model turn, no timer notice.
    expect(types(messages)).toEqual(['flow_state']);
    const shown = only(messages, 'flow_state');
    expect(shown).toMatchObject({ state: 'ask', epoch: h.engine.view.epoch, gate: { first_name: 'pending' }, values: { first_name: 'Alex' } });
    expect(engine.start()).toEqual([]);
  });

  it('keeps a pending value pending: nothing confirms it but the visitor, after the resume', () => {
    const h = startFlow(FLOW);
    h.call('save_name', { first_name: 'Alex' });
    const { engine } = restore(FLOW, kept(h));
    expect(engine.view.pending).toEqual(['first_name']);
    // The model may not confirm for a visitor who has not answered since the value was captured.
    const early = engine.send({ type: 'tool_call', name: 'confirm_first_name', args: {}, epoch: engine.view.epoch, call_id: 'c1' });
    expect(only(early, 'tool_rejected').reason).toBe('no_user_turn');
    expect(engine.view.gate).toEqual({ first_name: 'pending' });
    const tapped = engine.send({ type: 'ui_event', event: 'confirm_variable', variable: 'first_name' });
    expect(only(tapped, 'flow_state').state).toBe('booking');
    expect(engine.view.values).toMatchObject({ first_name: 'Alex' });
  });

  it('keeps a pending action pending, shows its card again and never runs it by itself', () => {
    const h = startFlow(FLOW);
    h.say('my name is Alex');
    h.ui('confirm_variable', { variable: 'first_name' });
    const proposed = only(h.call('book'), 'action_pending');
    const { engine, messages } = restore(FLOW, kept(h));
    expect(types(messages)).toEqual(['flow_state', 'action_pending']);
    expect(only(messages, 'action_pending')).toEqual(proposed);
    expect(engine.view.pendingAction).toMatchObject({ id: proposed.action_id, summary: 'Book a visit for Alex' });
    const done = engine.send({ type: 'ui_event', event: 'confirm_action' });
    expect(ofType(done, 'action_result').map((m) => m.status)).toEqual(['done']);
    expect(engine.view.ended).toBe(true);
  });

  it('lets the visitor start over on the restored engine without any leftover of the old epoch', () => {
    const h = startFlow(FLOW);
    h.say('my name is Alex');
    const { engine } = restore(FLOW, kept(h));
    const stale = engine.send({ type: 'tool_call', name: 'save_name', args: { first_name: 'Bo' }, epoch: engine.view.epoch - 1, call_id: 'old' });
    expect(only(stale, 'tool_rejected').reason).toBe('stale');
  });
});

describe('time across a resume', () => {
  it('re-arms a state timeout with the time it had left, on any clock', () => {
    const h = startFlow(FLOW);
    h.clock.advance(20_000);
    const snapshot = kept(h);
    const later = new VirtualClock(5_000_000);
    const { engine } = restore(FLOW, snapshot, later);
    expect(engine.view.nextDeadline).toBe(5_000_000 + 40_000);
    later.advance(39_999);
    expect(types(engine.tick())).toEqual([]);
    later.advance(1);
    expect(only(engine.tick(), 'flow_state')).toMatchObject({ state: 'ask', agent: { retry: 1 } });
  });

  it('counts the time the runtime says it was away', () => {
    const h = startFlow(FLOW);
    h.clock.advance(20_000);
    const { engine } = restore(FLOW, kept(h), new VirtualClock(1_000_000), 30_000);
    expect(engine.view.nextDeadline).toBe(1_000_000 + 10_000);
  });

  it("moves a pending action's expiry and a value's capture time alike", () => {
    const h = startFlow(FLOW);
    h.say('my name is Alex');
    h.ui('confirm_variable', { variable: 'first_name' });
    h.call('book');
    const before = h.engine.view.pendingAction!;
    const { engine } = restore(FLOW, kept(h), new VirtualClock(h.clock.now() + 7_000));
    expect(engine.view.pendingAction!.expiresAt - before.expiresAt).toBe(7_000);
  });
});

describe('what is never resumed', () => {
  it('a snapshot of another flow, another version or a changed file', () => {
    const h = startFlow(FLOW);
    h.say('my name is Alex');
    const snapshot = kept(h);
    const problem = (yaml: string) => {
      const r = FlowEngine.restore(loaded(yaml), new VirtualClock(), snapshot);
      return 'problem' in r ? r.problem : null;
    };
    expect(problem(FLOW.replace('version: "3"', 'version: "4"'))).toBe('the flow has changed since the snapshot');
    expect(problem(FLOW.replace('id: resumable', 'id: other'))).toBe('the flow has changed since the snapshot');
    expect(problem(FLOW.replace('Offer to book.', 'Offer to book it.'))).toBe('the flow has changed since the snapshot');
    expect(problem(FLOW)).toBeNull();
  });

  it('an ended visit', () => {
    const h = startFlow(FLOW);
    h.say('my name is Alex');
    h.ui('confirm_variable', { variable: 'first_name' });
    h.call('book');
    h.ui('confirm_action');
    expect(h.engine.view.ended).toBe(true);
    const r = FlowEngine.restore(loaded(FLOW), new VirtualClock(), kept(h));
    expect(r).toEqual({ problem: 'the visit had ended' });
  });

  it('a damaged record, whatever is wrong with it', () => {
    const h = startFlow(FLOW);
    h.say('my name is Alex');
    const good = kept(h) as { session: Record<string, unknown> };
    const damaged: [string, (s: Record<string, unknown>) => void][] = [
      ['a state that is not in the flow', (s) => (s['state'] = 'gone')],
      ['values that are not a record', (s) => (s['values'] = ['Alex'])],
      ['a gate status that does not exist', (s) => (s['gate'] = { first_name: 'maybe' })],
      ['a gate of another state', (s) => (s['gate'] = {})],
      ['a time that is not a number', (s) => (s['deadline'] = 'soon')],
      ['a negative epoch', (s) => (s['epoch'] = -1)],
      ['a pending action without its summary', (s) => (s['pendingAction'] = { id: 'a', tool: 'book', args: {} })],
      ['a history through an unknown state', (s) => (s['history'] = ['nowhere'])],
    ];
    for (const [what, damage] of damaged) {
      const copy = structuredClone(good);
      damage(copy.session);
      const r = FlowEngine.restore(loaded(FLOW), new VirtualClock(), copy);
      expect('problem' in r, what).toBe(true);
    }
    for (const junk of [null, 'text', 42, [], {}, { format: 2 }]) {
      expect('problem' in FlowEngine.restore(loaded(FLOW), new VirtualClock(), junk)).toBe(true);
    }
  });
});

// ------------------------------------------------------------------ every state of the examples

const EXAMPLES = readdirSync(join(REPO, 'flows'))
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join(REPO, 'flows', f));

/** A step of a run: random inputs made from the flow, or the answer to the oldest action still running. */
type Move = PlannedStep | { answer: boolean; status?: number };

/** One engine and what it needs to replay moves the same way every time. */
class Player {
  private calls = 0;
  private readonly running: string[] = [];

  /** Where the run stands: its state, and whether an action waits for a yes or for its answer. */
  get where(): string {
    return [this.engine.view.state, this.engine.view.pendingAction ? 'pending action' : '', this.running.length ? 'running' : ''].join('|');
  }

  constructor(
    readonly engine: FlowEngine,
    readonly clock: VirtualClock,
  ) {}

  play(move: Move): EngineMessage[] {
    let out: EngineMessage[];
    if ('answer' in move) {
      const id = this.running.shift();
      if (id === undefined) return [];
      out = this.engine.send({ type: 'action_done', action_id: id, ok: move.answer, ...(move.answer ? { data: {} } : { error: 'refused', ...(move.status ? { status: move.status } : {}) }) });
    } else {
      const { inputs, advanceMs } = resolveStep(move, this.engine.view.epoch, `call_${++this.calls}`);
      this.clock.advance(advanceMs);
      out = this.engine.send(inputs);
    }
    for (const m of out) if (m.type === 'action_run') this.running.push(m.action_id);
    return out;
  }

  /** A copy of this player around a restored engine, at the same time and count. */
  restored(): { player: Player; messages: EngineMessage[] } | { problem: string } {
    const clock = new VirtualClock(this.clock.now());
    const r = FlowEngine.restore(this.engine.loaded, clock, JSON.parse(JSON.stringify(this.engine.snapshot())));
    if ('problem' in r) return r;
    const player = new Player(r.engine, clock);
    player.calls = this.calls;
    player.running.push(...this.running);
    return { player, messages: r.messages };
  }
}

function begin(flow: LoadedFlow, moves: readonly Move[]): Player {
  const clock = new VirtualClock();
  const player = new Player(new FlowEngine(flow, clock), clock);
  player.engine.start();
  for (const move of moves) player.play(move);
  return player;
}

/**
 * Two engines in step: the original plays `before`, is snapshotted (through JSON text) and
 * restored; then both play `after` and must say exactly the same things. Returns the state the
 * resume happened in, or null when the run had ended by then.
 */
function twinRun(file: string, flow: LoadedFlow, before: readonly Move[], after: readonly Move[]): string | null {
  const original = begin(flow, before);
  const view = original.engine.view;
  if (view.ended) return null;
  const where = `${file}, resumed in ${view.state}`;
  const restored = original.restored();
  if ('problem' in restored) throw new Error(`${where}: ${restored.problem}`);
  const { player: copy, messages } = restored;
  expect(comparable(copy.engine.view), where).toEqual(comparable(view));
  expect(
    messages.filter((m) => m.type !== 'flow_state' && m.type !== 'action_pending'),
    `${where}: a resume only shows the state again`,
  ).toEqual([]);
  expect(only(messages, 'flow_state'), where).toMatchObject({ state: view.state, epoch: view.epoch, gate: view.gate });
  for (const move of after) expect(copy.play(move), `${where}: the restored engine went another way`).toEqual(original.play(move));
  return view.state;
}

/**
 * A way into every state the flow's inputs can reach: breadth first, each known state's way
 * extended by random steps made for that state, and by answers to running actions.
 */
function waysIn(flow: LoadedFlow, stepsAt: (state: string) => fc.Arbitrary<PlannedStep>): Map<string, Move[]> {
  // Searched by where a run stands, not only its state: a step is often reached through an action
  // proposed, confirmed and answered while the run stays in one state.
  const start = begin(flow, []).where;
  const ways = new Map<string, Move[]>([[start, []]]);
  let frontier = [start];
  for (let round = 0; round < 12 && frontier.length > 0; round++) {
    const next: string[] = [];
    for (const where of frontier) {
      const way = ways.get(where)!;
      const state = where.split('|')[0]!;
      // A failure the target answered with 404 too: a flow may have its own way on for it (the clinic's "no appointment").
      const moves: Move[] = [{ answer: true }, { answer: false }, { answer: false, status: 404 }, ...fc.sample(stepsAt(state), { numRuns: 150, seed: round })];
      for (const move of moves) {
        const player = begin(flow, [...way, move]);
        if (player.engine.view.ended || ways.has(player.where)) continue;
        ways.set(player.where, [...way, move]);
        next.push(player.where);
      }
    }
    frontier = next;
  }
  // The shortest way found into each state.
  const byState = new Map<string, Move[]>();
  for (const [where, way] of ways) {
    const state = where.split('|')[0]!;
    if (!byState.has(state) || byState.get(state)!.length > way.length) byState.set(state, way);
  }
  return byState;
}

describe('every state of the example flows resumes equal', () => {
  for (const path of EXAMPLES) {
    const file = relative(REPO, path);
    it(`${file}: each state, reached by the shortest way found, and at random points of random runs`, { timeout: WALK_CEILING_MS }, () => {
      const flow = loaded(readFileSync(path, 'utf8'));
      const stepsAt = stepsIn(flow);
      const ways = waysIn(flow, stepsAt);
      const live = flow.flow.stateOrder.filter((id) => !flow.flow.states[id]!.terminal);
      expect([...ways.keys()].sort(), 'states reached').toEqual(expect.arrayContaining(live));
      for (const [state, way] of ways) {
        const after = fc.sample(fc.array(stepsAt(state), { maxLength: 6 }), { numRuns: 5, seed: 1 });
        for (const more of after) expect(twinRun(file, flow, way, [{ answer: true }, ...more])).toBe(state);
      }
      fc.assert(
        fc.property(fc.gen(), (g) => {
          // Steps are drawn for the state a scratch run is in, so they fit where the run has got to.
          const scratch = begin(flow, []);
          const moves: Move[] = [];
          const length = g(fc.integer, { min: 0, max: 30 });
          for (let i = 0; i < length && !scratch.engine.view.ended; i++) {
            const move: Move = g(fc.integer, { min: 0, max: 9 }) === 0 ? { answer: g(fc.boolean) } : g(stepsAt, scratch.engine.view.state);
            scratch.play(move);
            moves.push(move);
          }
          const cut = g(fc.integer, { min: 0, max: moves.length });
          twinRun(file, flow, moves.slice(0, cut), moves.slice(cut));
        }),
        { numRuns: cases(200, 60) },
      );
    });
  }
});
