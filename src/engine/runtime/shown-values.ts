// How values read to a visitor: a choice by its label ("Walk-in visit", not walk_in), a date in
// words in the flow's language ("March 15, 1990", "15. März 1990"), a number with that
// language's decimal sign ("2.5", "2,5"; never grouped, since a number a visitor gives is often a
// code) and true or false as yes or no in that language ("Ja", "Non"). Used for what the screen and the kiosk's own cues say; the LLM's prompt and flow_end keep
// the values as stored. Also how a variable is named to a visitor, and which of them the end
// screen shows for the visitor to take away.

import type { Catalog } from '../language/catalog.ts';
import type { Field, Flow } from '../language/flow.ts';
import { dict } from '../language/records.ts';
import { TODAY } from '../language/dates.ts';
import { isRealDate } from '../language/values.ts';
import { kioskSentence } from './kiosk-sentences.ts';

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(language: string): Intl.DateTimeFormat {
  let f = dateFormats.get(language);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' });
    } catch {
      f = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    }
    dateFormats.set(language, f);
  }
  return f;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: string): Intl.NumberFormat {
  let f = numberFormats.get(language);
  if (!f) {
    try {
      f = new Intl.NumberFormat(language, { useGrouping: false, maximumFractionDigits: 15 });
    } catch {
      f = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 15 });
    }
    numberFormats.set(language, f);
  }
  return f;
}

/**
 * A date (YYYY-MM-DD) in words in `language` ("March 15, 1990", "15. März 1990"); anything else as
 * it is. Only a real day is put in words: formatting 2024-02-32 would throw.
 */
export function dateInWords(iso: string, language: string): string {
  return isRealDate(iso) ? dateFormat(language).format(new Date(`${iso}T00:00:00Z`)) : iso;
}

/** One value as a visitor should read it. */
export function shownValue(flow: Flow, cat: Catalog, name: string, value: unknown): unknown {
  const label = cat.choiceLabels.get(name)?.get(String(value));
  if (label !== undefined) return label;
  // A date that is no real day cannot be stored (every way in converts to the variable's type);
  // dateInWords keeps the screen safe anyway.
  const date = cat.variables.get(name)?.type === 'date' || (name === TODAY && !cat.variables.has(TODAY));
  if (date && typeof value === 'string') return dateInWords(value, flow.language);
  if (typeof value === 'number' && Number.isFinite(value)) return numberFormat(flow.language).format(value);
  if (typeof value === 'boolean') return kioskSentence(value ? 'yes' : 'no', flow.language);
  return value;
}

/** Every value as a visitor should read it. */
export function shownValues(flow: Flow, cat: Catalog, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return dict(Object.entries(values).map(([k, v]) => [k, shownValue(flow, cat, k, v)]));
}

/**
 * The words a visitor reads for a variable: the flow's `label` for it; else the label of the form
 * field that asks for it, without a leading "Your" or a trailing colon ("Your name" → "Name"),
 * unless that label is a question ("What's your first name?"); else its name in words.
 */
export function variableLabel(flow: Flow, name: string): string {
  const declared = Object.hasOwn(flow.variables, name) ? flow.variables[name]!.label?.trim() : undefined;
  if (declared) return declared;
  let field: string | undefined;
  for (const id of flow.stateOrder) field ??= flow.states[id]!.ui?.fields.find((f: Field) => f.id === name)?.label.trim();
  const text = field === undefined || field === '' || field.endsWith('?') ? name.replace(/_/g, ' ').trim() : field.replace(/:$/, '').replace(/^your\s+/i, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One line of the end screen's list: a variable, its label and its value as the visitor reads it. */
export interface GivenLine {
  name: string;
  label: string;
  value: unknown;
}

/**
 * What the end screen shows the visitor to take away: each variable the flow marks `show_at_end`
 * (a queue number) that holds a value, under its label, in the order the flow declares them.
 * Nothing else: a screen left for whoever comes next shows none of the visitor's details unless
 * the flow asks for them.
 */
export function takeAwayLines(flow: Flow, cat: Catalog, values: Readonly<Record<string, unknown>>): GivenLine[] {
  return Object.values(flow.variables)
    .filter((v) => v.showAtEnd && Object.hasOwn(values, v.name) && !isEmpty(values[v.name]))
    .map((v) => ({ name: v.name, label: variableLabel(flow, v.name), value: shownValue(flow, cat, v.name, values[v.name]) }));
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}
