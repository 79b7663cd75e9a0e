// How values read to a visitor: a choice by its label ("Walk-in visit", not walk_in), a date in
// words in the flow's language ("March 15, 1990", "15. März 1990") and a number with that
// language's decimal sign ("2.5", "2,5"; never grouped, since a number a visitor gives is often a
// code). Used for what the screen and the kiosk's own cues say; the LLM's prompt and flow_end keep
// the values as stored.

import type { Catalog } from '../language/catalog.ts';
import type { Flow } from '../language/flow.ts';
import { dict } from '../language/records.ts';
import { isRealDate } from '../language/values.ts';

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

/** One value as a visitor should read it. */
export function shownValue(flow: Flow, cat: Catalog, name: string, value: unknown): unknown {
  const label = cat.choiceLabels.get(name)?.get(String(value));
  if (label !== undefined) return label;
  // Only a real day is put in words: formatting 2024-02-32 would throw. (Such a value cannot be
  // stored, as every way in converts to the variable's type; this keeps the screen safe anyway.)
  if (cat.variables.get(name)?.type === 'date' && typeof value === 'string' && isRealDate(value)) {
    return dateFormat(flow.language).format(new Date(`${value}T00:00:00Z`));
  }
  if (typeof value === 'number' && Number.isFinite(value)) return numberFormat(flow.language).format(value);
  return value;
}

/** Every value as a visitor should read it. */
export function shownValues(flow: Flow, cat: Catalog, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return dict(Object.entries(values).map(([k, v]) => [k, shownValue(flow, cat, k, v)]));
}
