// Something the kiosk has to say, kept as a catalog key and its values rather than as text, so
// the state that holds it (a notice, a panel message) needs no language and the screen says it in
// the visit's. Components turn it into text with `$t(w.key, w.values)`.

import type { Messages } from './messages-en.ts';

type Paths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A message of the catalogs, as `area.name`. */
export type MessageKey = Paths<Messages>;

export type MessageValues = Record<string, string | number>;

export interface Words {
  key: MessageKey;
  values?: MessageValues;
}

/** What the screen shows: catalog words, or text already in the visit's language (the flow's, the engine's). */
export type Said = Words | string;

export const words = (key: MessageKey, values?: MessageValues): Words => (values ? { key, values } : { key });

/** Formats a message: `$t` in a component, or the catalog's formatter outside one. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;
