// A Vite plugin that reads and checks a bundled flow when the app is built, not every time a
// kiosk starts: `import flow from './x.yaml?checked'` gives the flow file's data and its
// diagnostics (a CheckedFlow, src/engine/language/load-flow.ts). A bundled flow with an error
// fails the build with every diagnostic, as `vfdl check` would print them. The kiosk's start
// then neither parses YAML nor runs the checker for the flow it ships with (about a tenth of
// its main thread's work before it listens: docs/voice.md).

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Plugin } from 'vite';
import { formatDiagnostic } from '../src/engine/language/diagnostics.ts';
import { checkFlowAhead } from '../src/engine/language/load-flow.ts';

const QUERY = '?checked';

export function checkedFlows(): Plugin {
  let root = process.cwd();
  return {
    name: 'voice-kiosk:checked-flows',
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
    },
    load(id) {
      if (!id.endsWith(QUERY)) return null;
      const path = id.slice(0, -QUERY.length);
      this.addWatchFile(path);
      const file = relative(root, path).split('\\').join('/');
      const result = checkFlowAhead(readFileSync(path, 'utf8'), file);
      if ('errors' in result) this.error(`a bundled flow has errors:\n${result.errors.map(formatDiagnostic).join('\n')}`);
      const json = JSON.stringify(result.checked);
      // The flow goes into the page as JSON: a value JSON cannot carry (.inf, .nan) would change on the way.
      if (!isDeepStrictEqual(JSON.parse(json), result.checked)) this.error(`${file}: a value in this flow does not survive JSON (an infinite number, or not-a-number)`);
      // A JSON text in JSON.parse is read faster than the same object written as code.
      return `export default JSON.parse(${JSON.stringify(json)});`;
    },
  };
}
