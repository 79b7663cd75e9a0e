// A card's params (label -> value) are filled in like its text (issue 20): `{last_name}` shows the
// visitor's value, a date in words, rather than the braces as written.

import { describe, expect, it } from 'vitest';
import { only, startFlow } from '../support/engine-harness.ts';

describe('card params', () => {
  it('are interpolated with the values as a visitor reads them', () => {
    const h = startFlow(`
id: summary
variables:
  last_name: { type: string, default: Garcia }
  date_of_birth: { type: date, default: "1984-03-05" }
states:
  show:
    ui:
      artifact_type: card
      title: Your details
      params: { Last name: "{last_name}", Born: "{date_of_birth}", Desk: 3, Note: "{{as written}}" }
    transitions: { on_ui_event: { done: __end__ } }
`);
    expect(only(h.started, 'flow_state').artifact?.params).toEqual({ 'Last name': 'Garcia', Born: 'March 5, 1984', Desk: 3, Note: '{as written}' });
  });
});
