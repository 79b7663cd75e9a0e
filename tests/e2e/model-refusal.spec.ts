// "No" means no, with a language model that gets it wrong: the visitor refuses the name the
// kiosk heard, the model confirms it anyway, and the kiosk does not move on. The model is the
// local double of an OpenAI-compatible service (tests/servers/fake-chat.ts), reached through the
// kiosk's own server, so the refusal travels back to it as a real tool result.

import { agentLines, expectStep, fieldBlock, kiosk, say } from './support/kiosk.ts';
import { expect, test } from './support/voice.ts';

test.describe.configure({ timeout: 60_000 });

test('the model confirming a name the visitor just refused is refused, and told to ask again', async ({ voiceKiosk }) => {
  const { page, fakes } = await voiceKiosk({ fixture: null, microphoneAllowed: false, query: { flow: 'onboarding' } });
  fakes.llm.script([
    // After "no": the model confirms anyway, once; then, told it may not, it asks again.
    { when: { user: /^no\b/i }, once: true, reply: { tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
    { when: { user: /^no\b/i, last: 'system' }, reply: { text: 'Sorry about that. What is your first name?' } },
    { when: { user: /^yes\b/i }, once: true, reply: { tool_calls: [{ name: 'confirm_first_name', arguments: {} }] } },
    { when: { system: /pick a colour/ }, reply: { text: 'Pick a colour, please.' } },
    { when: { last: 'system' }, reply: { text: 'Hi! What is your first name?' } },
  ]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(agentLines(page).last()).toHaveText('Kiosk: Hi! What is your first name?', { timeout: 15_000 });

  await say(page, 'My name is Alec');
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
  await say(page, "No, that's wrong");

  await expect(agentLines(page).last()).toHaveText('Kiosk: Sorry about that. What is your first name?', { timeout: 15_000 });
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', 'ask_name');
  // What the model was told about its call, in the request after it.
  const told = fakes.llm.requests.at(-1)!.messages.filter((m) => m.role === 'tool').map((m) => JSON.stringify(m.content));
  expect(told.at(-1)).toContain('user_refused');
  expect(told.at(-1)).toContain('Ask what is wrong and what the right value is');

  // The visitor's yes lets the same call through.
  await say(page, 'Yes, sorry, it is Alec');
  await expectStep(page, 'choose_color');
});
