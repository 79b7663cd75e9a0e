// "Keep this as a test" (issue 34): a visit made in the studio's preview, heard input by input from
// its watched engine, becomes a conversation test that `vfdl test` passes on the command line, with
// the preview's action answers as `answers:` and an `expect` after each step that moved the visit.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dayOf, noonOf } from '../../src/engine/language/dates.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineInput } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { runTests } from '../../src/cli/test-command.ts';
import { keepTest } from '../../src/studio/keep-test.ts';
import { cannedOutcome } from '../../src/studio/preview/canned-actions.ts';
import { WatchedEngine } from '../../src/studio/preview/watched-engine.ts';
import type { PreviewAnswer, PreviewInput } from '../../src/studio/preview-link.ts';

const folder = mkdtempSync(join(tmpdir(), 'keep-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const library = readFileSync('tests/fixtures/authoring/library-card.yaml', 'utf8');
const loadedOf = (text: string): LoadedFlow => loadFlow(text, 'flow.yaml').loaded!;

/** A preview: the watched engine on a clock of its own, each action answered at once as the preview's runner does. */
function preview(loaded: LoadedFlow, answers: Record<string, PreviewAnswer>, today = '2025-06-14') {
  const inputs: PreviewInput[] = [];
  const clock = new VirtualClock(noonOf(today));
  const engine = new WatchedEngine(loaded, clock, (r) => inputs.push(r));
  const answer = (ms: ReturnType<WatchedEngine['send']>) => {
    for (const m of ms) {
      if (m.type !== 'action_run') continue;
      const outcome = cannedOutcome(answers[m.tool] ?? { status: 200, body: {} });
      answer(engine.send(outcome.ok ? { type: 'action_done', action_id: m.action_id, ok: true, data: outcome.data } : { type: 'action_done', action_id: m.action_id, ...outcome }));
    }
  };
  answer(engine.start());
  return {
    inputs,
    clock,
    engine,
    send: (input: EngineInput | EngineInput[]) => answer(engine.send(input)),
    visit: () => ({ today: dayOf(noonOf(today)), startedAt: null, inputs }),
  };
}

/** Writes the flow and the kept test side by side and runs `vfdl test` on the test (in this process); its output. */
function vfdlTest(flowText: string, test: string, name: string): string {
  writeFileSync(join(folder, 'flow.yaml'), flowText);
  writeFileSync(join(folder, `${name}.test.yaml`), test);
  const lines: string[] = [];
  const code = runTests([join(folder, `${name}.test.yaml`)], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  return `${lines.join('\n')}\nexit ${code}`;
}

describe('keep this as a test', () => {
  it('turns an adult\'s library card visit by touch into a test vfdl test passes', () => {
    const loaded = loadedOf(library);
    const p = preview(loaded, { find_card: { status: 200, body: { number: 'L123456' } }, lend: { status: 201, body: { ok: true } } });
    p.send({ type: 'ui_event', event: 'form_submit', values: { full_name: 'ada lovelace', date_of_birth: '2007-06-14' } });
    p.send({ type: 'ui_event', event: 'register' });
    p.send({ type: 'ui_event', event: 'confirm_action' });
    expect(p.engine.view.ended).toBe(true);

    const kept = keepTest(loaded, p.visit(), 'flow.yaml', 'adult-card');
    if ('problem' in kept) throw new Error(kept.problem);
    const script = parse(kept.text) as Record<string, unknown>;
    expect(script['answers']).toEqual({ find_card: [{ status: 200, body: { number: 'L123456' } }], lend: [{ status: 200, body: { ok: true } }] });
    expect(script['steps']).toEqual([
      { ui: 'form_submit', values: { full_name: 'ada lovelace', date_of_birth: '2007-06-14' } },
      { expect: { state: 'card', variables: { full_name: 'Ada Lovelace', date_of_birth: '2007-06-14', card_number: 'L123456' } } },
      { ui: 'register' },
      { ui: 'confirm_action' },
      { expect: { ended: true } },
    ]);
    expect(vfdlTest(library, kept.text, 'adult-card')).toMatch(/1 passed, 0 failed\nexit 0$/);
  });

  it('keeps a minor sent to bring an adult on the day the visit was made', () => {
    const loaded = loadedOf(library);
    const p = preview(loaded, {}, '2025-06-14');
    p.send({ type: 'ui_event', event: 'form_submit', values: { full_name: 'tom', date_of_birth: '2010-01-01' } });
    const kept = keepTest(loaded, p.visit(), 'flow.yaml', 'minor');
    if ('problem' in kept) throw new Error(kept.problem);
    expect(kept.text).toContain('today: 2025-06-14');
    expect(kept.text).toContain('ended: true');
    expect(vfdlTest(library, kept.text, 'minor')).toMatch(/1 passed, 0 failed\nexit 0$/);
  });

  it('writes the time that made something happen as a wait, and a typed line as a user step', () => {
    const loaded = loadedOf(library);
    const p = preview(loaded, {});
    p.clock.advance(61_000);
    p.send({ type: 'tick' });
    expect(p.engine.view.state).toBe('librarian');
    const kept = keepTest(loaded, p.visit(), 'flow.yaml', 'walked-away');
    if ('problem' in kept) throw new Error(kept.problem);
    expect((parse(kept.text) as { steps: unknown[] }).steps[0]).toEqual({ wait: 60 });
    expect(vfdlTest(library, kept.text, 'walked-away')).toMatch(/1 passed, 0 failed\nexit 0$/);

    const q = preview(loaded, {});
    q.send({ type: 'utterance', text: 'can I speak to a librarian' });
    const typed = keepTest(loaded, q.visit(), 'flow.yaml', 'typed');
    if ('problem' in typed) throw new Error(typed.problem);
    expect((parse(typed.text) as { steps: unknown[] }).steps[0]).toEqual({ user: 'can I speak to a librarian' });
    expect(vfdlTest(library, typed.text, 'typed')).toMatch(/1 passed, 0 failed\nexit 0$/);
  });

  it('refuses a visit started at a chosen state, and one in which nothing was done', () => {
    const loaded = loadedOf(library);
    const started = keepTest(loaded, { today: '2025-06-14', startedAt: 'card', inputs: [] }, 'flow.yaml', 'x');
    expect(started).toEqual({ problem: expect.stringContaining('a test starts where the flow starts') });
    expect(keepTest(loaded, preview(loaded, {}).visit(), 'flow.yaml', 'x')).toEqual({ problem: expect.stringContaining('nothing was done') });
  });
});
