// Diagnostics that teach (issue 20): one error with its fix for each common mistake, where the
// checker used to give several or none: a number where text belongs, a version in quotes, a lone
// condition as a guard, words that mean another (le, retries), one broken YAML construct, and YAML
// merge keys, which now work. And `vfdl test FOLDER` reads only the folder's *.test.yaml files.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.ts';
import { runTests } from '../../src/cli/test-command.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';

const lines = (text: string) => loadFlow(text, 'f.yaml').diagnostics.map(formatDiagnostic);

const card = `states:
  a:
    ui: { artifact_type: card, title: Hi }
    transitions: { on_ui_event: { done: __end__ } }
`;

describe('one error, with its fix', () => {
  it('says to quote a number where text belongs', () => {
    expect(lines(`id: f\nstates:\n  a:\n    ui:\n      artifact_type: options\n      variable: size\n      options: [ { id: 1, label: One } ]\n    transitions: { on_ui_event: { option_select: __end__ } }\n`)).toEqual([
      'f.yaml:7:24: error: expected text, found the number 1: put it in quotes ("1") to give it as text [wrong-type]',
    ]);
  });

  it('says to write a version without quotes, once', () => {
    expect(lines(`vfdl: "1"\nid: f\n${card}`)).toEqual(['f.yaml:1:7: error: expected a whole number, found the text "1": write it without quotes (1) to give it as a number [wrong-type]']);
  });

  it('suggests a word by meaning where spelling would suggest another', () => {
    expect(lines(`id: f\nstates:\n  a:\n    ui: { artifact_type: card }\n    transitions:\n      on_ui_event: { done: __end__ }\n      on_timeout: { seconds: 5, target: a, retries: 2, fallback: __end__ }\n`)).toEqual([
      'f.yaml:7:44: error: unknown key "retries" (did you mean "max_retries"?) [unknown-key]',
    ]);
  });

  it('gives one syntax error for one misplaced mapping, and says what is wrong', () => {
    const misplaced = `id: f
states:
  a:
    ui:
      artifact_type: card
        title: Done
        text: hello
        actions: [ { event: done, label: Done } ]
    transitions:
      on_ui_event: { done: __end__ }
`;
    expect(lines(misplaced)).toEqual([
      'f.yaml:5:22: error: "artifact_type" has its value on its own line ("card"), so the lines indented further below it cannot belong to it: line them up with "artifact_type", or indent them less [yaml-syntax]',
    ]);
    expect(lines(`id: f\nstates:\n  a:\n    agent: prompt: hi\n    transitions: { on_ui_event: { done: __end__ } }\n`)).toEqual([
      'f.yaml:4:12: error: a key cannot follow another key on the same line ("agent: prompt: hi"): put "prompt: hi" on a line of its own under "agent:", indented further [yaml-syntax]',
    ]);
  });
});

describe('YAML merge keys', () => {
  const merged = (ask: string) => `x-ask: &ask
  agent: { prompt: ${ask} }
  transitions: { on_ui_event: { next: b } }
id: f
states:
  a:
    <<: *ask
    ui: { artifact_type: card, title: A }
  b:
    <<: *ask
    transitions: { on_ui_event: { done: __end__ } }
`;

  it('merge a shared piece into states, an x- key holding it', () => {
    const result = loadFlow(merged('Ask.'), 'f.yaml');
    expect(result.diagnostics).toEqual([]);
    const { states } = result.loaded!.flow;
    expect(states['a']!.agent.prompt).toBe('Ask.');
    expect(Object.keys(states['a']!.transitions.onUiEvent)).toEqual(['next']);
    expect(Object.keys(states['b']!.transitions.onUiEvent)).toEqual(['done']);
  });

  it('report a problem in the merged piece where it is written', () => {
    expect(lines(merged('"Ask {nme}."'))).toEqual([
      'f.yaml:2:20: error: the prompt of "a" refers to unknown variable "nme" [unknown-variable]',
      'f.yaml:2:20: error: the prompt of "b" refers to unknown variable "nme" [unknown-variable]',
    ]);
  });
});

describe('folders', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vfdl-folders-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'tests'));
  // The card's button sends done (a ui step may send only what the screen offers).
  writeFileSync(join(dir, 'flow.yaml'), `id: f\n${card.replace('title: Hi }', 'title: Hi, actions: [ { event: done, label: Done } ] }')}`);
  writeFileSync(join(dir, 'tests', 'done.test.yaml'), 'flow: ../flow.yaml\nsteps:\n  - ui: done\n  - expect: { ended: true }\n');

  function run(command: typeof runTests, paths: string[]): { code: number; out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    const code = command(paths, { out: (s) => out.push(s), err: (s) => err.push(s) });
    return { code, out, err };
  }

  it('vfdl test reads only *.test.yaml files in a folder, and says what it skipped', () => {
    const { code, out, err } = run(runTests, [dir]);
    expect(code).toBe(0);
    expect(out).toEqual([`ok    ${join(dir, 'tests', 'done.test.yaml')} (2 steps)`, '1 passed, 0 failed']);
    expect(err).toEqual([`vfdl test: skipped 1 file(s) in the folders given that are not conversation tests (*.test.yaml): ${join(dir, 'flow.yaml')}`]);
  });

  it('vfdl check reads the flows of a folder, not its tests', () => {
    const { code, out, err } = run(runCheck, [dir]);
    expect(code).toBe(0);
    expect(out).toEqual(['1 file(s) checked: 0 error(s), 0 warning(s)']);
    expect(err[0]).toContain('skipped 1 file(s) in the folders given that are conversation tests (*.test.yaml), not flows');
  });
});
