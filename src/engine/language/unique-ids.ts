// Ids that must be unique within their list: a form's fields, a screen's options, a field's
// options, a screen's action buttons and a card's labels (params written as a list). The screen
// draws each list keyed by these ids, so a repeated one would break the page; here it is a
// `duplicate-id` error at the second entry.
// (State ids, variables and tools are mapping keys: YAML itself refuses a repeated key.)

import type { SourcePath } from './flow.ts';
import { optionId } from './normalize-screen.ts';
import { own } from './records.ts';
import type { Reporter } from './source.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reports every entry of `items` whose id an earlier entry already has. `idOf` gives the id and
 * the key it was read from (undefined for a plain value), or undefined for an entry without one.
 */
function unique(r: Reporter, items: unknown, at: SourcePath, what: string, idOf: (item: unknown) => { id: string; key?: string } | undefined): void {
  if (!Array.isArray(items)) return;
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const found = idOf(item);
    if (found === undefined) return;
    const earlier = first.get(found.id);
    if (earlier === undefined) {
      first.set(found.id, i);
      return;
    }
    const path = found.key !== undefined ? [...at, i, found.key] : [...at, i];
    r.error('duplicate-id', path, `${what} "${found.id}" is given twice in this list (entry ${earlier + 1} and entry ${i + 1}); each must be different`);
  });
}

function optionKey(o: unknown): { id: string; key?: string } | undefined {
  const id = optionId(o);
  if (id === undefined) return undefined;
  if (!isObj(o)) return { id };
  return { id, key: ['id', 'value', 'label'].find((k) => typeof o[k] === 'string') };
}

function stringKey(key: string) {
  return (item: unknown) => (isObj(item) && typeof item[key] === 'string' ? { id: item[key], key } : undefined);
}

/** A card line's label (a text, or a text map compared whole), where the card lists its params. */
function labelKey(item: unknown): { id: string; key: string } | undefined {
  if (!isObj(item)) return undefined;
  const label = item['label'];
  if (typeof label === 'string') return { id: label, key: 'label' };
  return isObj(label) ? { id: Object.values(label).map(String).join(' / '), key: 'label' } : undefined;
}

/** Checks the ids of every state's fields, options and actions, and of the global buttons. */
export function checkUniqueIds(r: Reporter): void {
  const global = own(r.src.data as Obj, 'global');
  if (isObj(global)) unique(r, global['actions'], ['global', 'actions'], 'action event', stringKey('event'));
  const states = own(r.src.data as Obj, 'states');
  if (!isObj(states)) return;
  for (const [id, state] of Object.entries(states)) {
    const ui = isObj(state) ? state['ui'] : undefined;
    if (!isObj(ui)) continue;
    const at = ['states', id, 'ui'];
    unique(r, ui['fields'], [...at, 'fields'], 'field id', stringKey('id'));
    unique(r, ui['options'], [...at, 'options'], 'option', optionKey);
    unique(r, ui['actions'], [...at, 'actions'], 'action event', stringKey('event'));
    unique(r, ui['params'], [...at, 'params'], 'label', labelKey);
    if (Array.isArray(ui['fields'])) {
      ui['fields'].forEach((f, i) => {
        if (isObj(f)) unique(r, f['options'], [...at, 'fields', i, 'options'], 'option', optionKey);
      });
    }
  }
}
