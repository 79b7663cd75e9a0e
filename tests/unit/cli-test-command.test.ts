// `vfdl test`: scripts that pass, scripts whose expectations do not hold (exit 1, naming the
// script, the expect's line and what differed) and scripts that are invalid (exit 2, at the line
// and column of the problem, with a did-you-mean).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { messageFields } from '../../src/cli/read-expectation.ts';
import { runTests } from '../../src/cli/test-command.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import type { EngineMessage } from '../../src/engine/runtime/messages.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ONBOARDING = join(ROOT, 'flows/onboarding.yaml');
const dir = mkdtempSync(join(tmpdir(), 'vfdl-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
/** Writes a script for the onboarding flow; `steps` is YAML starting at line 3 of the file. */
function script(steps: string): string {
  const file = join(dir, `script-${++count}.yaml`);
  writeFileSync(file, `flow: ${ONBOARDING}\nsteps:\n${steps}`);
  return file;
}

function run(files: string[], json = false): { code: number; out: string[] } {
  const out: string[] = [];
  const code = runTests(files, { json, out: (s) => out.push(...s.split('\n')), err: (s) => out.push(s) });
  return { code, out };
}

/** The name is captured and the confirmation is refused: the start of most scripts below. */
const CAPTURED = `  - tool: save_name
    args: { first_name: Alex }
  - tool: confirm_first_name
`;

describe('scripts that pass', () => {
  it('matches fields of messages, the system prompt and a tool schema', () => {
    const file = script(`  - expect:
      rejected: []
      messages:
        - { type: flow_state, state: ask_name, gate: { first_name: empty } }
        - { type: llm_turn, reason: state_entered }
      system_prompt: { $contains: "Ask the visitor for their first name" }
      tool_schema:
        save_name:
          description: { $matches: "^Capture the visitor's first name" }
          required: [first_name]
          properties: { first_name: { type: string } }
${CAPTURED}  - expect:
      messages:
        - { type: flow_variable, name: first_name, value: Alex, status: pending }
        - { type: speech_cue, text: "I heard Alex. Is that right?", reason: confirm_capture }
        - { type: tool_rejected, tool: confirm_first_name, reason: no_user_turn, detail: { $contains: "I heard Alex" } }
      rejected: [no_user_turn]
      variables: { first_name: { $matches: "^Al" }, color: null }
  - expect: { messages: [], emitted: [], rejected: [] }
  - user: "yes"
  - tool: confirm_first_name
  - expect:
      state: choose_color
      messages:
        - { type: flow_state, state: choose_color, agent: { tools: [{ function: { name: save_color } }, { function: { name: go_back } }, { function: { name: set_language } }] } }
      system_prompt: { $contains: "Ask Alex to pick a colour" }
      tool_schema: { save_color: { properties: { color: { enum: { $includes: [blue, red] } } } } }
  - ui: option_select
    value: blue
  - expect:
      messages:
        - { type: flow_end, reason: completed, variables: { first_name: Alex, color: blue } }
`);
    const { code, out } = run([file]);
    expect(out).toEqual([`ok    ${file} (10 steps)`, '1 passed, 0 failed']);
    expect(code).toBe(0);
  });
});

describe('expectations that do not hold (exit 1)', () => {
  it.each([
    [
      'a message field differs: the closest message of that type is shown',
      `${CAPTURED}  - expect:
      messages:
        - { type: speech_cue, text: "I heard Alec. Is that right?" }
`,
      6,
      'messages[0] (line 8) {type: "speech_cue", text: "I heard Alec. Is that right?"}: no speech_cue matched (1 emitted); ' +
        'the closest is {"type":"speech_cue","text":"I heard Alex. Is that right?"}: text is "I heard Alex. Is that right?", expected "I heard Alec. Is that right?"',
    ],
    [
      'no message of the type',
      `${CAPTURED}  - expect:
      messages: [{ type: transition_blocked, reason: pending_confirmation }]
`,
      6,
      'messages[0] (line 7) {type: "transition_blocked", reason: "pending_confirmation"}: no transition_blocked message was emitted ' +
        '(emitted [analytics, flow_state, llm_turn, flow_variable, tool_result, speech_cue, tool_rejected, tool_result, system_message])',
    ],
    [
      'messages in another order',
      `${CAPTURED}  - expect:
      messages:
        - { type: tool_rejected }
        - { type: speech_cue }
`,
      6,
      'messages[1] (line 9) {type: "speech_cue"}: the speech_cue that matches came before the message matched by messages[0]: the order differs',
    ],
    [
      'rejected: [] when a call was refused',
      `${CAPTURED}  - expect: { rejected: [] }
`,
      6,
      'rejected confirm_first_name (no_user_turn: first_name cannot be confirmed before the visitor has answered. ' +
        'Ask: "I heard Alex. Is that right?"), expected no rejection',
    ],
    [
      'emitted: [] when something was',
      `  - expect: { state: ask_name }
  - user: "Hello"
  - expect: { emitted: [] }
`,
      5,
      'emitted [llm_turn], expected nothing',
    ],
    ['messages: [] when there were some', `  - expect: { messages: [] }\n`, 3, 'messages: expected none, got [analytics, flow_state, llm_turn]'],
    [
      'the system prompt',
      `  - expect: { system_prompt: { $contains: "Ask the guest" } }\n`,
      3,
      'system_prompt is "You are the voice of a welcome kiosk.',
    ],
    [
      'a tool schema',
      `  - expect: { tool_schema: { save_name: { required: [] } } }\n`,
      3,
      'tool_schema.save_name.required is ["first_name"], expected []',
    ],
    [
      'a tool that is not offered now',
      `  - expect: { tool_schema: { save_color: { required: [color] } } }\n`,
      3,
      'tool_schema: save_color is not offered in state "ask_name"; offered: [save_name, confirm_first_name, reject_first_name, confirm_ask_name, reject_ask_name, set_language]',
    ],
    [
      'a variable against a pattern',
      `${CAPTURED}  - expect: { variables: { first_name: { $matches: "^Al$" } } }\n`,
      6,
      'variable first_name is "Alex", expected text matching /^Al$/',
    ],
  ])('%s', (_name, steps, line, message) => {
    const file = script(steps);
    const { code, out } = run([file]);
    expect(code).toBe(1);
    expect(out[0]).toBe(`FAIL  ${file}`);
    expect(out[1]).toContain(`${file}:${line}: expect failed: ${message}`);
    expect(out.at(-1)).toBe('0 passed, 1 failed');
  });

  it('reports every difference of the failing expect, each on its own line', () => {
    const file = script(`${CAPTURED}  - expect:
      state: choose_color
      rejected: []
`);
    const { out } = run([file]);
    expect(out.filter((l) => l.startsWith(`${file}:6: expect failed:`))).toHaveLength(2);
  });

  it('a step the engine failed on, even when no expectation looks at it', () => {
    // A stand-in for an engine bug: no flow or script can make the engine fail on purpose.
    const send = vi.spyOn(FlowEngine.prototype, 'send').mockReturnValueOnce([{ type: 'engine_error', state: 'ask_name', message: 'boom' }]);
    try {
      const file = script(`  - user: "Hello"\n  - expect: { state: ask_name }\n`);
      const { code, out } = run([file]);
      expect(code).toBe(1);
      expect(out[1]).toBe(`${file}:3: the flow engine failed in state "ask_name": boom (a bug in the engine; please report it)`);
    } finally {
      send.mockRestore();
    }
  });
});

describe('invalid scripts (exit 2)', () => {
  it.each([
    ['an unknown key in expect', '  - expect: { mesages: [] }\n', '3:15: error: unknown expectation "mesages" (did you mean "messages"?)'],
    ['an unknown message type', '  - expect: { emitted: [flow_sate] }\n', '3:25: error: "flow_sate" is not a message type (did you mean "flow_state"?)'],
    ['an unknown rejection reason', '  - expect: { rejected: [user_refuse] }\n', '3:26: error: "user_refuse" is not a reason a tool call is refused for (did you mean "user_refused"?)'],
    ['an unknown field of a message', '  - expect: { messages: [{ type: speech_cue, txt: Hi }] }\n', '3:46: error: a speech_cue message has no field "txt" (did you mean "text"?)'],
    ['a message without a type', '  - expect: { messages: [{ text: Hi }] }\n', '3:26: error: a message needs its "type"'],
    ['an unknown operator', '  - expect: { system_prompt: { $contain: Ask } }\n', '3:32: error: unknown operator "$contain" (did you mean "$contains"?)'],
    ['a list given as text', '  - expect: { pending: first_name }\n', '3:24: error: "pending" is a list'],
    ['ended given as text', '  - expect: { ended: "yes" }\n', '3:22: error: "ended" is true or false'],
    ['an unknown state', '  - expect: { state: ask_nme }\n', '3:22: error: "ask_nme" is not a state of the flow (did you mean "ask_name"?)'],
    ['an unknown variable', '  - expect: { variables: { first_nam: Alex } }\n', '3:28: error: "first_nam" is not a variable of the flow (did you mean "first_name"?)'],
    ['an unknown tool in tools', '  - expect: { tools: [save_nam] }\n', '3:23: error: "save_nam" is not a tool the flow offers in any state (did you mean "save_name"?)'],
    ['an unknown tool in tool_schema', '  - expect: { tool_schema: { save_colour: { required: [] } } }\n', '3:30: error: "save_colour" is not a tool'],
    ['a tool schema that is not a mapping', '  - expect: { tool_schema: { save_name: [first_name] } }\n', '3:41: error: tool_schema: the schema of save_name is matched by a mapping'],
    ['a system prompt that is not text', '  - expect: { system_prompt: [a] }\n', '3:30: error: "system_prompt" is the exact text, {$contains: text} or {$matches: regex}'],
    ['an unknown key in a step', '  - user: hi\n    wait: 3\n', '4:11: error: "wait" does not belong in a user step'],
  ])('%s', (_name, steps, message) => {
    const file = script(steps);
    const { code, out } = run([file]);
    expect(code).toBe(2);
    expect(out[0]).toBe(`ERROR ${file}`);
    expect(out.join('\n')).toContain(`${file}:${message}`);
  });

  it('is exit 2 even when another script fails', () => {
    const failing = script(`  - expect: { state: choose_color }\n`);
    const invalid = script(`  - expect: { stat: ask_name }\n`);
    const { code, out } = run([failing, invalid]);
    expect(code).toBe(2);
    expect(out.at(-1)).toBe('0 passed, 2 failed');
  });
});

describe('vfdl test --json', () => {
  it('prints every engine message as a JSON line, then what failed', () => {
    const file = script(`${CAPTURED}  - expect: { rejected: [] }\n`);
    const { code, out } = run([file], true);
    expect(code).toBe(1);
    const failAt = out.indexOf(`FAIL  ${file}`);
    const messages = out.slice(0, failAt).map((l) => JSON.parse(l) as EngineMessage);
    expect(messages.map((m) => m.type)).toEqual([
      'analytics', 'flow_state', 'llm_turn',
      'flow_variable', 'tool_result', 'speech_cue',
      'tool_rejected', 'tool_result', 'system_message',
    ]);
    expect(out[failAt + 1]).toContain(`${file}:6: expect failed: rejected confirm_first_name`);
  });

  it('knows every field of every message the example conversations emit', () => {
    const out: string[] = [];
    const code = runTests([join(ROOT, 'tests/conversations')], { json: true, out: (s) => out.push(s), err: () => {} });
    expect(code).toBe(0);
    const unknown = new Set<string>();
    for (const line of out.filter((l) => l.startsWith('{'))) {
      const m = JSON.parse(line) as EngineMessage;
      for (const k of Object.keys(m)) if (!messageFields(m.type).includes(k)) unknown.add(`${m.type}.${k}`);
    }
    expect([...unknown]).toEqual([]);
  });
});

describe('the vfdl command', () => {
  const vfdl = (file: string) => {
    try {
      execFileSync(process.execPath, [join(ROOT, 'bin/vfdl.js'), 'test', file], { cwd: ROOT, stdio: 'pipe' });
      return 0;
    } catch (e) {
      return (e as { status: number }).status;
    }
  };

  it('exits 1 when an expectation does not hold and 2 when a script is invalid', () => {
    expect(vfdl(script(`${CAPTURED}  - expect: { rejected: [] }\n`))).toBe(1);
    expect(vfdl(script(`  - expect: { rejected_reasons: [] }\n`))).toBe(2);
  });
});

describe('canned answers for actions, and the requests made', () => {
  const CLINIC = join(ROOT, 'flows/clinic-checkin.yaml');
  /** A clinic script: `head` is YAML before `steps:`, the steps start at line 4 of the file. */
  function clinic(head: string, steps: string): string {
    const file = join(dir, `clinic-${++count}.yaml`);
    writeFileSync(file, `flow: ${CLINIC}\n${head}\nsteps:\n${steps}`);
    return file;
  }
  const TO_SUMMARY = `  - ui: form_submit
    values: { full_name: Li Wei, date_of_birth: "1992-11-03" }
  - ui: option_select
    value: walk_in
  - ui: check_in
  - ui: confirm_action
`;

  it('answers each request with its tool\'s next answer, and checks the requests exactly', () => {
    const answered = clinic('answers: { check_in: [{ status: 201, body: { queue_number: 9 } }] }', `${TO_SUMMARY}  - expect:
      state: checked_in
      variables: { queue_number: 9 }
      requests: [{ tool: check_in, method: POST, body: { name: Li Wei, reason: walk_in } }]
`);
    expect(run([answered]).code).toBe(0);
  });

  it('a request without an answer stays unanswered; a wrong request or count fails at its expect', () => {
    const unanswered = clinic('', `${TO_SUMMARY}  - expect: { state: summary, not_emitted: [action_result] }
`);
    expect(run([unanswered]).code).toBe(0);
    const wrong = clinic('answers: { check_in: [{ status: 500 }] }', `${TO_SUMMARY}  - expect:
      state: front_desk
      requests: [{ tool: check_in, method: PUT }, { tool: check_in }]
`);
    const { code, out } = run([wrong]);
    expect(code).toBe(1);
    expect(out).toContain(`${wrong}:10: expect failed: requests: 1 made ([POST {origin:CLINIC}/check-ins]), expected 2`);
    const method = clinic('', `${TO_SUMMARY}  - expect: { requests: [{ method: PUT }] }
`);
    expect(run([method]).out.join('\n')).toContain('expect failed: requests[0] (line 10).method is "POST", expected "PUT"');
  });

  it('a malformed answer or request, or an answer for a tool without http, makes the script invalid', () => {
    const names = clinic('answers:\n  save_name: [{ status: 200 }]\n  chek_in: [{ status: 200 }]', '  - expect: { state: identify }\n');
    const named = run([names]);
    expect(named.code).toBe(2);
    expect(named.out).toContain(`${names}:3:3: error: "save_name" is not a tool of the flow with an http effect [unknown-tool]`);
    expect(named.out).toContain(`${names}:4:3: error: "chek_in" is not a tool of the flow with an http effect (did you mean "check_in"?) [unknown-tool]`);
    const file = clinic('answers:\n  check_in: [{ status: 99 }, { timeout: true, status: 200 }, { stauts: 200 }]', '  - expect: { requests: [{ tool: check_in, verb: GET }] }\n');
    const { code, out } = run([file]);
    expect(code).toBe(2);
    const text = out.join('\n');
    expect(text).toContain(':3:14: error: a canned answer is {status: 200, body: {...}} or {timeout: true} (a status is 100 to 599) [wrong-type]');
    expect(text).toContain(':3:30: error: a canned answer');
    expect(text).toContain('unknown key "stauts" (did you mean "status"?)');
    expect(text).toContain('a request has no field "verb"');
  });
});
