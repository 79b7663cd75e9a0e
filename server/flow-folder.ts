// The kiosks' flow folder (FLOW_FOLDER): flow files on the server that the flow studio saves into
// and the kiosks load as `/flows/NAME.yaml` (through /api/flows). A flow is written there only
// when `vfdl check` finds no error in it, and read from there only when it still has none (a file
// changed by hand is checked again): a flow with errors is never served to a kiosk.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Diagnostic } from '../src/engine/language/diagnostics.ts';
import { MAX_FLOW_CHARS } from '../src/engine/language/limits.ts';
import { loadFlow } from '../src/engine/language/load-flow.ts';

/** The address a kiosk gives for a flow of the folder: `?flow=/flows/NAME.yaml`. */
export const FOLDER_PREFIX = '/flows/';

/** A flow's name in the folder: letters, digits, - and _ (no dots, no slashes), then .yaml. */
const FLOW_NAME = /^[A-Za-z0-9][\w-]{0,79}\.yaml$/;

/** The folder FLOW_FOLDER names, or null when it is not set (the studio then saves to files only). */
export function readFlowFolder(env: Record<string, string | undefined>): string | null {
  const folder = env['FLOW_FOLDER']?.trim();
  return folder ? resolve(folder) : null;
}

/** The file name in `/flows/NAME.yaml`, or undefined when the address is not one of the folder's. */
export function folderFileOf(address: string): string | undefined {
  if (!address.startsWith(FOLDER_PREFIX)) return undefined;
  const name = address.slice(FOLDER_PREFIX.length).split(/[?#]/, 1)[0]!;
  return FLOW_NAME.test(name) ? name : undefined;
}

export type FolderRead = { text: string } | { missing: true } | { invalid: Diagnostic[] };

export class FlowFolder {
  constructor(readonly path: string) {}

  /** The flow files in the folder, sorted. */
  list(): string[] {
    if (!existsSync(this.path)) return [];
    return readdirSync(this.path)
      .filter((f) => FLOW_NAME.test(f))
      .sort();
  }

  /** A flow of the folder, if it is there and has no error. */
  read(name: string): FolderRead {
    if (!FLOW_NAME.test(name)) return { missing: true };
    const file = join(this.path, name);
    try {
      if (!statSync(file).isFile() || statSync(file).size > MAX_FLOW_CHARS * 4) return { missing: true };
      const text = readFileSync(file, 'utf8');
      const errors = loadFlow(text, `${FOLDER_PREFIX}${name}`).diagnostics.filter((d) => d.severity === 'error');
      return errors.length ? { invalid: errors } : { text };
    } catch {
      return { missing: true };
    }
  }

  /**
   * Writes `text` as `name` when it has no error (atomically: a kiosk reading meanwhile gets the
   * old file or the new one); else the errors, as `vfdl check` gives them.
   */
  write(name: string, text: string): { saved: string } | { invalid: Diagnostic[] } | { badName: true } {
    if (!FLOW_NAME.test(name)) return { badName: true };
    const errors = loadFlow(text, `${FOLDER_PREFIX}${name}`).diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) return { invalid: errors };
    mkdirSync(this.path, { recursive: true });
    const file = join(this.path, name);
    writeFileSync(`${file}.tmp`, text);
    renameSync(`${file}.tmp`, file);
    return { saved: `${FOLDER_PREFIX}${name}` };
  }
}
