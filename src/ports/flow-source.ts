// The flow-source port: where the kiosk gets its flow, as the page and the operator panel see it.
// The kiosk's own source (src/adapters/flow-files.ts) has the flows bundled with the app and any
// flow file at an address (`?flow=`), with the last good copy of it; tests give their own.

import type { LoadResult } from '../engine/language/loaded-flow.ts';

export interface FlowLoad extends LoadResult {
  /** what was asked for: a bundled name or a URL */
  source: string;
  /** a flow from an address: the version the kiosk's server keeps of it (its actions name it) */
  version?: string;
  /**
   * The file itself could not be had (nothing is wrong with its text, so `vfdl check` cannot
   * help): `unreachable`, its address did not answer (a time-out, no network, a server error: it
   * may work later); `not_found`, there is no such flow (no bundled flow of that name, no file at
   * the address, an origin the server does not allow, a web page in its place).
   */
  unloaded?: 'unreachable' | 'not_found';
}

export interface FlowSource {
  /** Loads the flow a page query names (`?flow=`), or the default one. Never throws: a failure is a diagnostic. */
  load(search: string): Promise<FlowLoad>;
  /** the names of the flows that ship with the app, sorted */
  bundledNames(): string[];
  /** the flow the kiosk runs when none is named */
  readonly defaultName: string;
}
