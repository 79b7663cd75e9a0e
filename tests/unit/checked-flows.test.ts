// The bundled flows are read and checked when the app is built (scripts/checked-flows.ts): a
// kiosk starts from their data and diagnostics, and must get the very flow that reading the
// file's text gives, in each of its languages. A bundled flow with an error fails the build.

import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedFlows } from '../../scripts/checked-flows.ts';
import { checkFlowAhead, loadFlow } from '../../src/engine/language/load-flow.ts';
import { loadCheckedFlow, type CheckedFlow } from '../../src/engine/language/loaded-flow.ts';
import { loadFlowFor } from '../../src/adapters/flow-files.ts';

const FLOWS = join(import.meta.dirname, '../../flows');
const neverFetch = (() => {
  throw new Error('should not fetch a bundled flow');
}) as unknown as typeof fetch;

/** The module the plugin makes for `path?checked`, as the page imports it (errors thrown as the build throws them). */
function pluginModule(path: string): CheckedFlow {
  const plugin = checkedFlows();
  (plugin.configResolved as unknown as (config: { root: string }) => void)({ root: join(FLOWS, '..') });
  // The two calls of the build's context the plugin makes.
  const context = {
    addWatchFile: () => undefined,
    error: (message: string) => {
      throw new Error(message);
    },
  };
  const code = (plugin.load as unknown as (this: typeof context, id: string) => string | null).call(context, `${path}?checked`);
  if (code === null) throw new Error('the plugin did not load the flow');
  return new Function(code.replace('export default', 'return'))() as CheckedFlow;
}

describe('bundled flows checked at build time', () => {
  for (const name of readdirSync(FLOWS).filter((f) => f.endsWith('.yaml'))) {
    it(`${name}: the checked data loads the same flow as the text, in every language`, () => {
      const text = readFileSync(join(FLOWS, name), 'utf8');
      const checked = pluginModule(join(FLOWS, name));
      expect(checked.file).toBe(`flows/${name}`);
      const fromText = loadFlow(text, `flows/${name}`);
      const fromChecked = loadCheckedFlow(checked);
      expect(fromChecked.diagnostics).toEqual(fromText.diagnostics);
      expect(fromChecked.loaded!.flow).toEqual(fromText.loaded!.flow);
      expect(fromChecked.loaded!.catalog).toEqual(fromText.loaded!.catalog);
      for (const language of fromText.loaded!.flow.languages) {
        expect(fromChecked.loaded!.inLanguage(language).flow).toEqual(fromText.loaded!.inLanguage(language).flow);
      }
    });
  }

  it('the kiosk loads a bundled flow from its checked data', async () => {
    const load = await loadFlowFor('?flow=clinic-checkin', neverFetch, null);
    const fromText = loadFlow(readFileSync(join(FLOWS, 'clinic-checkin.yaml'), 'utf8'), 'flows/clinic-checkin.yaml');
    expect(load.source).toBe('flows/clinic-checkin.yaml');
    expect(load.loaded!.flow).toEqual(fromText.loaded!.flow);
  });

  it('a bundled flow with an error stops the build, with its diagnostics', () => {
    const dir = mkdtempSync(join(tmpdir(), 'checked-flows-'));
    try {
      const path = join(dir, 'bad.yaml');
      writeFileSync(path, 'id: bad\nstates:\n  a:\n    transitions: { on_ui_event: { go: nowhere } }\n');
      expect(() => pluginModule(path)).toThrow(/a bundled flow has errors:\n[\s\S]*bad\.yaml:4:39: error: .*nowhere/);
      expect('errors' in checkFlowAhead(readFileSync(path, 'utf8'), 'bad.yaml')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
