// The flows that ship with the kiosk, as the studio opens them, each with its conversation tests
// (tests/conversations/ holds them; a test belongs to the example its `flow:` names). Bundled
// into the studio's own code, so they open offline.

import type { TestFile } from './worker-link.ts';

const byPath = (files: Record<string, string>) => Object.entries(files).map(([path, text]) => ({ name: path.replace(/^.*\//, ''), text }));

const flows = byPath(import.meta.glob('../../flows/*.yaml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>);
const tests = byPath(import.meta.glob('../../tests/conversations/*.test.yaml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>);

export interface Example {
  /** the file name, `clinic-checkin.yaml` */
  name: string;
  text: string;
  tests: TestFile[];
}

/** The bundled flows, by name, each with the tests that name it. */
export const EXAMPLES: readonly Example[] = flows
  .sort((a, b) => a.name.localeCompare(b.name))
  .map((f) => ({ ...f, tests: tests.filter((t) => new RegExp(`^flow:\\s*\\S*/flows/${f.name.replace('.', '\\.')}\\s*$`, 'm').test(t.text)) }));
