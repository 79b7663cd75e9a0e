// docs/architecture.md draws the kiosk's life machine and the clinic flow's statechart from the
// code (scripts/life-diagram.ts). When either machine changes, the page must be drawn again.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGRAMS, DOC_PATH, diagramIn } from '../../scripts/life-diagram.ts';

describe('docs/architecture.md', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');

  for (const { name, generate } of DIAGRAMS) {
    it(`has the ${name} diagram as the code draws it now`, () => {
      const shown = diagramIn(doc, name);
      expect(shown, `docs/architecture.md has no <!-- ${name}:start --> … <!-- ${name}:end --> block`).not.toBeNull();
      expect(shown, `the ${name} diagram in docs/architecture.md is out of date: run \`npm run docs:diagrams\``).toBe(generate());
    });
  }

  it('draws every state of the kiosk-life machine, nested, with its delays by name', () => {
    const life = DIAGRAMS.find((d) => d.name === 'kiosk-life')!.generate();
    expect(life).toContain('state "visit" as kiosk_life_visit {');
    expect(life).toContain('kiosk_life_visit_presence_here --> kiosk_life_visit_presence_stillThere : after idle time (untilAsked)');
    expect(life).toContain('kiosk_life_visit_presence_stillThere_waiting --> kiosk_life_idle : after tick / wipe, cleared');
    expect(life).toContain('kiosk_taps_settling --> kiosk_taps_settled : after settle');
    expect(life).toContain('kiosk_life_ended_counting_waiting --> kiosk_life_idle : after tick / wipe, cleared');
    expect(life).toContain('kiosk_taps_settling : entry / holdTaps');
  });
});
