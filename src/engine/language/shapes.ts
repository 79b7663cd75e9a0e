// The kinds of value the syntax table (syntax.ts) is made of, and the small builders it is written
// with: text, numbers, true/false, lists, mappings, unions, and the texts a person reads, which a
// flow may give in several languages.

import type { DiagnosticCode } from './diagnostics.ts';
import { MAX_SECONDS, MAX_SECONDS_WHY } from './limits.ts';

export type Shape =
  | {
      kind: 'string';
      doc?: string;
      enum?: readonly string[];
      /** a JavaScript regular expression the whole text must match (the JSON Schema's `pattern`) */
      pattern?: string;
      /** what is wrong with a text the pattern refuses, said with the fix; the pattern alone decides */
      patternProblem?: (text: string) => string;
      /** the text is itself a regular expression (the JSON Schema's `format: regex`; the meaning checks compile it) */
      regex?: boolean;
    }
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
      /** rules between its keys (exactly one of, required or forbidden with another) */
      rules?: readonly KeyRule[];
      /** keys starting `x-` are the author's own, ignored: a place for YAML anchors to merge from */
      extensions?: boolean;
    }
  | {
      kind: 'map';
      doc?: string;
      values: Shape;
      keyDoc?: string;
      /** the fewest entries it may have, and why */
      min?: { count: number; why: string };
      /** a pattern every key must match, and what is wrong with one that does not (its value given too) */
      keys?: { pattern: string; problem: (key: string, value: unknown) => string; code: DiagnosticCode };
    }
  | { kind: 'array'; doc?: string; items: Shape; min?: { count: number; why: string } }
  | {
      kind: 'union';
      doc?: string;
      options: readonly Shape[];
      /** a text the visitor reads or hears: one string (or list), or a map from language to it (localize.ts) */
      localized?: 'text' | 'list';
      /**
       * A mistake authors make here, told in one message instead of every key that does not fit
       * (a condition where a group belongs): the message, or undefined when the value is not it.
       */
      mistake?: (value: unknown) => string | undefined;
    };

/**
 * A rule between the keys of one mapping. A key given with an empty value (`key:`) counts as
 * absent, as everywhere. The checker and the JSON Schema both read these.
 */
export type KeyRule =
  /** exactly one of these keys is given */
  | { kind: 'one-of'; keys: readonly string[]; why: string }
  /**
   * When `key` is given (and, with `values`, is one of them): each of `require` must be given,
   * none of `forbid` may be, and the keys of `shapes` must fit those shapes.
   */
  | {
      kind: 'when';
      key: string;
      values?: readonly string[];
      require?: readonly string[];
      forbid?: readonly string[];
      shapes?: Readonly<Record<string, Shape>>;
      why: string;
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
/** Text that must match `pattern` (a JavaScript regular expression); `problem` says what is wrong, with the fix. */
export const matching = (doc: string, pattern: string, problem: (text: string) => string): Shape => ({ kind: 'string', doc, pattern, patternProblem: problem });
/** Text that is itself a regular expression. */
export const regex = (doc: string): Shape => ({ kind: 'string', doc, regex: true });
export const num = (doc?: string, opts: { integer?: boolean; min?: number; max?: number; maxWhy?: string } = {}): Shape => ({
  kind: 'number',
  ...(doc ? { doc } : {}),
  ...opts,
});
/** Seconds the runtime waits with a timer, so no more than a timer can hold. */
export const seconds = (doc: string, min: number): Shape => num(doc, { min, max: MAX_SECONDS, maxWhy: MAX_SECONDS_WHY });
export const bool = (doc?: string): Shape => ({ kind: 'boolean', ...(doc ? { doc } : {}) });
export const any = (doc?: string): Shape => ({ kind: 'any', ...(doc ? { doc } : {}) });
export const arr = (items: Shape, doc?: string, min?: { count: number; why: string }): Shape => ({
  kind: 'array',
  items,
  ...(doc ? { doc } : {}),
  ...(min ? { min } : {}),
});
export const map = (values: Shape, doc?: string, keyDoc?: string): Extract<Shape, { kind: 'map' }> => ({
  kind: 'map',
  values,
  ...(doc ? { doc } : {}),
  ...(keyDoc ? { keyDoc } : {}),
});
export const obj = (props: Record<string, Prop | Shape>, doc?: string, rules?: readonly KeyRule[]): Extract<Shape, { kind: 'object' }> => {
  const out: Record<string, Prop> = {};
  for (const [k, v] of Object.entries(props)) out[k] = 'shape' in v ? v : { shape: v };
  return { kind: 'object', props: out, ...(doc ? { doc } : {}), ...(rules ? { rules } : {}) };
};
export const union = (options: Shape[], doc?: string): Extract<Shape, { kind: 'union' }> => ({ kind: 'union', options, ...(doc ? { doc } : {}) });
/**
 * A text a person reads or hears: a plain string in the flow's `language`, or a map from language
 * tag (or primary subtag) to the string (docs/vfdl.md, "Languages").
 */
export const text = (doc: string, blank?: string): Shape => {
  // `blank`: words may not be left out (a label the visitor reads); the problem said when they are.
  const words = (d: string) => (blank === undefined ? str(d || undefined) : matching(d, '\\S', () => blank));
  return {
    kind: 'union',
    options: [words(doc), map(words(''), undefined, 'a language of the flow')],
    doc: `${doc}; or a map from language to text`,
    localized: 'text',
  };
};
/** A list of phrases, or a map from language to its list. */
export const textList = (doc: string): Shape => ({
  kind: 'union',
  options: [arr(str(), doc), map(arr(str()), undefined, 'a language of the flow')],
  doc: `${doc}; or a map from language to such a list`,
  localized: 'list',
});
/**
 * `shape`, with a mistake authors make in its place told in one message with its fix, instead of
 * "expected text, found mapping" (a step's time-out written where the visit's belongs).
 */
export const withMistake = (shape: Shape, mistake: (value: unknown) => string | undefined, doc?: string): Shape => ({
  kind: 'union',
  options: [shape],
  ...(doc ?? shape.doc ? { doc: doc ?? shape.doc } : {}),
  mistake,
});
export const req = (shape: Shape): Prop => ({ shape, required: true });
export const ignored = (shape: Shape, why: string): Prop => ({ shape, notActedOn: why });
