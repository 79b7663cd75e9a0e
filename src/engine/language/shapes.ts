// The kinds of value the syntax table (syntax.ts) is made of, and the small builders it is written
// with: text, numbers, true/false, lists, mappings, unions, and the texts a person reads, which a
// flow may give in several languages.

import { MAX_SECONDS, MAX_SECONDS_WHY } from './limits.ts';

export type Shape =
  | { kind: 'string'; doc?: string; enum?: readonly string[] }
  | {
      kind: 'number';
      doc?: string;
      integer?: boolean;
      min?: number;
      max?: number;
      /** why `max` is what it is, said in the message that refuses a larger number */
      maxWhy?: string;
    }
  | { kind: 'boolean'; doc?: string }
  | { kind: 'any'; doc?: string }
  | {
      kind: 'object';
      doc?: string;
      props: Readonly<Record<string, Prop>>;
      /** extra keys are allowed when this says so for the value (e.g. Prepatu's other artifacts) */
      open?: (value: Record<string, unknown>) => boolean;
    }
  | { kind: 'map'; doc?: string; values: Shape; keyPattern?: RegExp; keyDoc?: string }
  | { kind: 'array'; doc?: string; items: Shape }
  | {
      kind: 'union';
      doc?: string;
      options: readonly Shape[];
      /** a text the visitor reads or hears: one string (or list), or a map from language to it (localize.ts) */
      localized?: 'text' | 'list';
    };

export interface Prop {
  shape: Shape;
  required?: boolean;
  /** accepted so Prepatu's flows load, but this kiosk does not act on it (a warning) */
  notActedOn?: string;
}

export const str = (doc?: string, values?: readonly string[]): Shape => ({
  kind: 'string',
  ...(doc ? { doc } : {}),
  ...(values ? { enum: values } : {}),
});
export const num = (doc?: string, opts: { integer?: boolean; min?: number; max?: number; maxWhy?: string } = {}): Shape => ({
  kind: 'number',
  ...(doc ? { doc } : {}),
  ...opts,
});
/** Seconds the runtime waits with a timer, so no more than a timer can hold. */
export const seconds = (doc: string, min: number): Shape => num(doc, { min, max: MAX_SECONDS, maxWhy: MAX_SECONDS_WHY });
export const bool = (doc?: string): Shape => ({ kind: 'boolean', ...(doc ? { doc } : {}) });
export const any = (doc?: string): Shape => ({ kind: 'any', ...(doc ? { doc } : {}) });
export const arr = (items: Shape, doc?: string): Shape => ({ kind: 'array', items, ...(doc ? { doc } : {}) });
export const map = (values: Shape, doc?: string, keyDoc?: string): Shape => ({
  kind: 'map',
  values,
  ...(doc ? { doc } : {}),
  ...(keyDoc ? { keyDoc } : {}),
});
export const obj = (props: Record<string, Prop | Shape>, doc?: string): Extract<Shape, { kind: 'object' }> => {
  const out: Record<string, Prop> = {};
  for (const [k, v] of Object.entries(props)) out[k] = 'shape' in v ? v : { shape: v };
  return { kind: 'object', props: out, ...(doc ? { doc } : {}) };
};
export const union = (options: Shape[], doc?: string): Shape => ({ kind: 'union', options, ...(doc ? { doc } : {}) });
/**
 * A text a person reads or hears: a plain string in the flow's `language`, or a map from language
 * tag (or primary subtag) to the string (docs/vfdl.md, "Languages").
 */
export const text = (doc: string): Shape => ({
  kind: 'union',
  options: [str(doc), map(str(), undefined, 'a language of the flow')],
  doc: `${doc}; or a map from language to text`,
  localized: 'text',
});
/** A list of phrases, or a map from language to its list. */
export const textList = (doc: string): Shape => ({
  kind: 'union',
  options: [arr(str(), doc), map(arr(str()), undefined, 'a language of the flow')],
  doc: `${doc}; or a map from language to such a list`,
  localized: 'list',
});
export const req = (shape: Shape): Prop => ({ shape, required: true });
export const ignored = (shape: Shape, why: string): Prop => ({ shape, notActedOn: why });
