// Flows the tests serve themselves, for cases the example flows do not have: a broken file for
// the operator screen and a step that tries to move on while a value waits. The page asks the
// kiosk's server for a flow at an address (`/api/flows?src=…`); the route answers that for the
// path given, as the server does for a file it found, so each test can hold its own flows. (The
// server's own fetching is tested with real flow hosts: flow-sources.spec.ts, flow-files.test.ts.)

import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parseDocument, YAMLMap } from 'yaml';

/** Where served test flows live; the kiosk fetches them like any flow URL. */
export const TEST_FLOWS = '/test-flows';

/** Serves `body` as the flow file at `path` (on the kiosk's own address), as `/api/flows` gives it. */
export async function serveFlow(page: Page, path: string, body: string): Promise<void> {
  await page.route(
    (url) => url.pathname === '/api/flows' && url.searchParams.get('src') === path,
    (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true, text: body }) }),
  );
}

/**
 * A bundled flow with every declared variable `show_at_end`, so that its end screen shows all the
 * answers under their labels, for a test to read what was understood (the bundled flows show none
 * of a visitor's details there). Served at /test-flows/NAME.yaml; returns that address. Not for a
 * flow whose actions must run: the kiosk's server runs only the actions of flows it knows.
 */
export async function serveShowingAnswers(page: Page, name: string): Promise<string> {
  const path = `${TEST_FLOWS}/${name}.yaml`;
  await serveFlow(page, path, showingAnswers(name));
  return path;
}

/** The text of bundled flow `name` with every declared variable `show_at_end` (see serveShowingAnswers). */
export function showingAnswers(name: string): string {
  const doc = parseDocument(readFileSync(new URL(`../../../flows/${name}.yaml`, import.meta.url), 'utf8'));
  const variables = doc.get('variables');
  if (!(variables instanceof YAMLMap)) throw new Error(`flows/${name}.yaml declares no variables`);
  for (const item of variables.items) {
    if (item.value instanceof YAMLMap) item.value.set('show_at_end', true);
  }
  return doc.toString();
}

/** A golden diagnostics fixture: the broken flow, and the lines `vfdl check` prints for it as `file`. */
export function brokenFlow(name: string, file: string): { yaml: string; expected: string[] } {
  const dir = new URL('../../fixtures/diagnostics/', import.meta.url);
  const yaml = readFileSync(new URL(`${name}.yml`, dir), 'utf8');
  const expected = readFileSync(new URL(`${name}.expected`, dir), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.replace(`tests/fixtures/diagnostics/${name}.yml`, file));
  return { yaml, expected };
}

/**
 * The onboarding name step, plus "next" said aloud as a way on: with the name still waiting for
 * confirmation the engine must block it (transition_blocked, pending_confirmation).
 */
export const MOVE_ON_WHILE_PENDING = `
vfdl: 1
id: move_on_while_pending
title: Welcome
language: en-US
mode: kiosk
variables:
  first_name: { type: string, required: true }
states:
  ask_name:
    ui:
      artifact_type: form
      title: Welcome!
      fields:
        - { id: first_name, type: text, label: "What's your first name?", required: true }
      submit_label: Continue
    agent:
      prompt: Ask the visitor for their first name.
      tools: []
    confirmation_gate:
      variables: [first_name]
      prompt: "I heard {first_name}. Is that right?"
      on_confirm: __end__
      on_reject: { action: clear, target: ask_name }
    transitions:
      on_ui_event: { form_submit: __end__ }
      on_utterance:
        - pattern: "my name is\\\\s+([A-Za-z]+)"
          capture_to: first_name
        - pattern: "^(?:next|go on|skip it)$"
          target: __end__
`;

/** One form with every field type the kiosk draws, for the accessibility checks. */
export const EVERY_FIELD_TYPE = `
vfdl: 1
id: every_field_type
title: Every field type
language: en-US
mode: kiosk
variables:
  full_name: { type: string, required: true }
  email: { type: email }
  phone: { type: string }
  guests: { type: number }
  visit_date: { type: date }
  room: { type: enum, enum: [Oak, Elm] }
  newsletter: { type: boolean }
states:
  details:
    ui:
      artifact_type: form
      title: Your details
      fields:
        - { id: full_name, type: text, label: Full name, required: true }
        - { id: email, type: email, label: Email address }
        - { id: phone, type: tel, label: Phone number }
        - { id: guests, type: number, label: Number of guests }
        - { id: visit_date, type: date, label: Date of your visit }
        - { id: room, type: select, label: Meeting room, options: [Oak, Elm] }
        - { id: newsletter, type: checkbox, label: Send me the newsletter }
      submit_label: Continue
    agent:
      prompt: Ask for the visitor's details.
      tools: []
    transitions:
      on_ui_event: { form_submit: __end__ }
`;

/** One step asking for a phone number (a dictated answer), ended by the model's `save_phone` or the form. */
export const PHONE_FLOW = `
id: phone_check
title: Your phone number
variables:
  phone: { type: phone, label: Phone number, show_at_end: true }
states:
  ask_phone:
    ui:
      artifact_type: form
      title: What is your phone number?
      fields: [ { id: phone, type: tel, label: Phone number, required: true } ]
    agent:
      prompt: Ask for the visitor's phone number and call save_phone with it.
      tools: [save_phone]
    tools:
      save_phone:
        description: Capture the phone number.
        parameters:
          phone: { type: phone, required: true }
    transitions:
      on_tool_call: { save_phone: __end__ }
      on_ui_event: { form_submit: __end__ }
`;
