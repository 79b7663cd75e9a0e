// A whole typed visit of each bundled flow with the built-in assistant, written the way people
// type, with a correction and a change of mind in it, reaches the right end with the right values
// (issue 31): run through the kiosk's own conversation loop, as the table of lines is.

import { describe, expect, it } from 'vitest';
import { TableVisit, type Step } from '../support/assistant-table.ts';

async function visit(flow: string, language: string, steps: readonly Step[]): Promise<TableVisit> {
  const v = new TableVisit({ flow, language, before: [], step: '' });
  await v.start();
  for (const step of steps) await v.do(step);
  return v;
}

describe('a typed visit with a correction and a change of mind in it', () => {
  it('clinic check-in, in English: the misspelt surname put right, the reason changed at the appointment step', async () => {
    const v = await visit('clinic-checkin', 'en-US', [
      'hi',
      'my name is maria garrcia, 5 march 1984',
      "no wait, it's Garcia with one r",
      'yes',
      'I have an appointment',
      "actually no sorry, i'm just here to pick up a prescription",
      'yes please check me in',
      'yes',
      { tap: 'done' },
    ]);
    expect(v.engine.view.ended).toBe(true);
    expect(v.engine.view.values).toMatchObject({ full_name: 'Maria Garcia', date_of_birth: '1984-03-05', visit_reason: 'prescription', queue_number: 7 });
    expect(v.said.join(' ')).not.toContain("I'll keep that in mind");
  });

  it('clinic check-in, in Spanish: the day corrected alone, the details changed from the summary', async () => {
    const v = await visit('clinic-checkin', 'es-US', [
      'hola',
      'Maria Garcia, 5 de marzo de 1984',
      'no, el día 6',
      'sí',
      'sin cita',
      'espere, mi fecha de nacimiento está mal',
      'el 5 de marzo de 1984',
      'sí',
      'sin cita',
      'sí, regístreme por favor',
      'sí',
      { tap: 'done' },
    ]);
    expect(v.engine.view.ended).toBe(true);
    expect(v.engine.view.values).toMatchObject({ full_name: 'Maria Garcia', date_of_birth: '1984-03-05', visit_reason: 'walk_in', queue_number: 7 });
  });

  it('visitor sign-in, in German: a name and an email in one line, the surname corrected, the host changed on the rules', async () => {
    const v = await visit('visitor-signin', 'de-DE', [
      'Guten Tag',
      'Jonas Wehber, jonas@example.de',
      'nein warte, Weber',
      'ja',
      'Tom',
      'nein warte, ich meinte Priya',
      'ja',
      { tap: 'done' },
    ]);
    expect(v.engine.view.ended).toBe(true);
    expect(v.engine.view.values).toMatchObject({ full_name: 'Jonas Weber', email: 'jonas@example.de', host: 'Priya Shah', rules_accepted: true });
  });

  it('onboarding, in French: the name changed at the colours, a colour taken back for another', async () => {
    const v = await visit('onboarding', 'fr-FR', ['bonjour', "je m'appelle Chloe", 'oui', "pardon, en fait je m'appelle Zoé", 'oui', 'le rouge, non plutôt le vert']);
    expect(v.engine.view.ended).toBe(true);
    expect(v.engine.view.values).toMatchObject({ first_name: 'Zoé', color: 'green' });
  });

  it('visitor sign-in, in Arabic: a name said with "اسمي", then corrected; the way back from the rules', async () => {
    const v = await visit('visitor-signin', 'ar', ['مرحبا', 'اسمي مريم', 'لا، اسمي مريم حداد', 'نعم', 'maryam@example.com', 'نعم', 'Tom Becker', 'رجوع', 'Priya Shah', 'نعم أوافق', { tap: 'done' }]);
    expect(v.engine.view.ended).toBe(true);
    expect(v.engine.view.values).toMatchObject({ full_name: 'مريم حداد', email: 'maryam@example.com', host: 'Priya Shah', rules_accepted: true });
  });
});
