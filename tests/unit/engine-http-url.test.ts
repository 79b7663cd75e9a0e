// An HTTP effect's url is built from a template and values (SPEC 5, issue 7 point 11): every value
// filled in is percent-encoded, so no value can change the path, the query or the fragment, while
// the template's own text and the JSON body are left as they are.

import { describe, expect, it } from 'vitest';
import { only, startFlow, types } from '../support/engine-harness.ts';

const FLOW = `
id: lookup_patient
variables:
  clinic: { type: string, default: "north side/annex" }
states:
  find:
    agent:
      prompt: Find the patient.
      tools: [find_patient, save_note]
    tools:
      find_patient:
        description: Look the patient up.
        parameters:
          name: { type: string, required: true }
          town: { type: string }
          visits: { type: integer }
        http:
          method: GET
          url: "https://clinic.example/api/{clinic}/patients/{name}?town={town}&visits={visits}&kind=a%20b#top"
      save_note:
        description: Save a note for the patient.
        confirm: true
        parameters:
          name: { type: string, required: true }
          note: { type: string, required: true }
        http:
          url: "https://clinic.example/api/patients/{name}/notes"
          body: { name: "{name}", text: "Note: {note}", raw: "{note}" }
    transitions:
      on_ui_event: { leave: __end__ }
`;

const HOSTILE = [
  'a b&c=/../x?y#z',
  '../../admin',
  'x?admin=true',
  'x#fragment',
  'a/b',
  '100% sure',
  'naïve café 😀',
  "'quotes' \"double\" <tags>",
  '{name}',
  'back\\slash',
  'line\nbreak\ttab',
];

describe('values filled into an HTTP url', () => {
  it.each(HOSTILE)('%j stays one path segment and one query value', (value) => {
    const h = startFlow(FLOW);
    const run = only(h.call('find_patient', { name: value, town: value, visits: 3 }), 'action_run');
    const url = new URL(run.url);
    expect(url.origin).toBe('https://clinic.example');
    expect(url.pathname).toBe(`/api/north%20side%2Fannex/patients/${encodeURIComponent(value)}`);
    expect(decodeURIComponent(url.pathname.split('/')[4]!)).toBe(value);
    expect([...url.searchParams.keys()]).toEqual(['town', 'visits', 'kind']);
    expect(url.searchParams.get('town')).toBe(value);
    expect(url.hash).toBe('#top');
  });

  it('encodes exactly the filled values: the template keeps its own text', () => {
    const h = startFlow(FLOW);
    const run = only(h.call('find_patient', { name: 'a b&c=/../x?y#z', town: 'Åre', visits: 12 }), 'action_run');
    expect(run.url).toBe(
      'https://clinic.example/api/north%20side%2Fannex/patients/a%20b%26c%3D%2F..%2Fx%3Fy%23z?town=%C3%85re&visits=12&kind=a%20b#top',
    );
  });

  it.each(['..', '.'])('never sends a value that would be the path segment %j (the url would resolve it away): the action fails, nothing is run', (value) => {
    const h = startFlow(FLOW);
    const out = h.call('find_patient', { name: value, town: '..' });
    expect(types(out)).not.toContain('action_run');
    expect(only(out, 'action_result')).toMatchObject({ status: 'failed', detail: expect.stringContaining(`the value of "name" is "${value}", which would change the path`) });
    // In the query it is only a value.
    const run = only(h.call('find_patient', { name: 'a..b', town: '..' }), 'action_run');
    expect(new URL(run.url).pathname).toBe('/api/north%20side%2Fannex/patients/a..b');
  });

  it('fills an unset value as nothing', () => {
    const h = startFlow(FLOW);
    const run = only(h.call('find_patient', { name: 'Ann' }), 'action_run');
    expect(run.url).toBe('https://clinic.example/api/north%20side%2Fannex/patients/Ann?town=&visits=&kind=a%20b#top');
  });

  it('leaves the JSON body as the values are, not url-encoded', () => {
    const h = startFlow(FLOW);
    h.call('save_note', { name: 'a b&c=/../x?y#z', note: '50% off & more/less' });
    const run = only(h.ui('confirm_action'), 'action_run');
    expect(run.method).toBe('POST');
    expect(run.url).toBe('https://clinic.example/api/patients/a%20b%26c%3D%2F..%2Fx%3Fy%23z/notes');
    expect(run.body).toEqual({ name: 'a b&c=/../x?y#z', text: 'Note: 50% off & more/less', raw: '50% off & more/less' });
  });
});
