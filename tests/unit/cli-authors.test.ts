// `vfdl test`, round two (issue 30 points 15 to 17): a ui step the screen does not offer fails
// with the reason, as the kiosk would never send it; an action's answer may be held and released
// later, so a test can act while the action is in flight; and a test can check the end screen's
// list of what the visitor gave.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTests } from '../../src/cli/test-command.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'vfdl-authors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SURVEY = `
id: survey
states:
  q1:
    ui: { artifact_type: options, title: How was your stay?, variable: q1, options: ["1", "2", "3", "4", "5"], actions: [ { event: send, label: Send } ] }
    transitions: { on_ui_event: { option_select: thanks, send: thanks, skip: thanks } }
  thanks:
    ui: { artifact_type: card, title: Thank you }
`;

let count = 0;
function write(name: string, text: string): string {
  const file = join(dir, `${++count}-${name}`);
  writeFileSync(file, text);
  return file;
}

function run(file: string): { code: number; out: string } {
  const out: string[] = [];
  const code = runTests([file], { json: false, out: (s) => out.push(s), err: (s) => out.push(s) });
  return { code, out: out.join('\n') };
}

function survey(steps: string): string {
  const flow = write('survey.yaml', SURVEY);
  return write('survey.test.yaml', `flow: ${flow}\nsteps:\n${steps}`);
}

describe('a ui step the screen does not offer fails with the reason (point 15)', () => {
  it('refuses an event the state does not offer, even one its transitions map', () => {
    const typo = run(survey('  - ui: sned\n'));
    expect(typo.code).toBe(1);
    expect(typo.out).toContain(':3: ui sned refused: "sned" is not offered in state "q1" (did you mean "send"?); the screen offers option_select, send, more_time');
    // skip is mapped, but no button sends it: the kiosk never could.
    expect(run(survey('  - ui: skip\n')).out).toContain('ui skip refused: "skip" is not offered in state "q1"');
    expect(run(survey('  - ui: send\n  - expect: { state: thanks }\n')).code).toBe(0);
  });

  it('refuses an option the screen does not show, and a value for no field', () => {
    const seven = run(survey('  - ui: option_select\n    value: "7"\n'));
    expect(seven.code).toBe(1);
    expect(seven.out).toContain('ui option_select refused: "7" is not one of the options on screen (1, 2, 3, 4, 5)');
    const ok = run(survey('  - ui: option_select\n    value: "5"\n  - expect: { state: thanks, variables: { q1: "5" } }\n'));
    expect(ok.code).toBe(0);
    const onboarding = write('onboarding.test.yaml', `flow: ${join(ROOT, 'flows/onboarding.yaml')}\nsteps:\n  - ui: form_submit\n    values: { first_nmae: Alex }\n`);
    expect(run(onboarding).out).toContain('ui form_submit refused: "first_nmae" is not a field of the form on screen (first_name) (did you mean "first_name"?)');
  });
});

describe('an answer held until it is released (point 16)', () => {
  const hotel = `
id: hotel
tools:
  check_in:
    description: Check the guest in.
    confirm: true
    summary: Check in Ada
    http: { method: POST, url: "{origin:HOTEL}/check-ins", body: { guest: Ada } }
states:
  summary:
    ui: { artifact_type: card, title: Your stay, actions: [ { event: check_in, label: Check me in, tool: check_in } ] }
    agent: { prompt: Check the guest in., tools: [check_in] }
    transitions:
      on_action_done: { check_in: welcome }
      on_timeout: { seconds: 120, target: __end__ }
  welcome:
    ui: { artifact_type: card, title: Welcome }
`;
  const script = (answers: string, steps: string) => {
    const flow = write('hotel.yaml', hotel);
    return write('hotel.test.yaml', `flow: ${flow}\nanswers:\n${answers}steps:\n${steps}`);
  };

  it('keeps the action in flight until the release step', () => {
    const file = script(
      '  check_in:\n    - { status: 201, body: { room: "214" }, hold: true }\n',
      '  - ui: check_in\n  - ui: confirm_action\n  - expect: { state: summary, tools: [confirm_action, reject_action] }\n  - tool: check_in\n  - expect: { rejected: [action_running], requests: [] }\n  - release: check_in\n  - expect: { state: welcome }\n',
    );
    const { code, out } = run(file);
    expect(out).toContain('1 passed');
    expect(code).toBe(0);
  });

  it('fails a release with nothing waiting, and refuses one for a tool with no held answer', () => {
    const early = run(script('  check_in:\n    - { status: 201, body: {}, hold: true }\n', '  - release: check_in\n'));
    expect(early.code).toBe(1);
    expect(early.out).toContain(':6: release failed: no request of check_in waits for its held answer');
    const none = run(script('  check_in:\n    - { status: 201, body: {} }\n', '  - release: check_in\n'));
    expect(none.code).toBe(2);
    expect(none.out).toContain(':6:14: error: "check_in" has no answer held (hold: true) in answers, so there is nothing to release [unknown-tool]');
  });
});

describe("the end screen's list in a test (point 17)", () => {
  it('checks the lines a visitor reads at the end, in order, and says how they differ', () => {
    // Onboarding with both answers marked to show at the end (the bundled flow shows none of them).
    const flow = write('onboarding.yaml', readFileSync(join(ROOT, 'flows/onboarding.yaml'), 'utf8').replaceAll(', required: true, label:', ', required: true, show_at_end: true, label:'));
    const steps = `  - ui: form_submit
    values: { first_name: alex }
  - ui: option_select
    value: blue
  - expect:
      ended: true
      given:
        - { label: First name, value: Alex }
        - { label: Colour, value: blue }
`;
    const pass = run(write('given.test.yaml', `flow: ${flow}\nsteps:\n${steps}`));
    expect(pass.out).toContain('1 passed');
    const wrong = run(write('given.test.yaml', `flow: ${flow}\nsteps:\n${steps.replace('value: blue }', 'value: green }')}`));
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain('given[1]');
  });
});
