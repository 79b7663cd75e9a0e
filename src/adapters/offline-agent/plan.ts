// What the offline agent does in one turn (a TurnPlan): words for the caption, then tool calls,
// values for the form; and the two ways of making one.

import type { PlannedCall } from './fill.ts';
import { join } from './replies.ts';

/** What the agent does in one turn: words for the caption, then tool calls. */
export interface TurnPlan {
  say: string;
  calls: PlannedCall[];
  /** values heard for fields of the form that no tool can take yet, to put in the form */
  formValues?: Record<string, string>;
}

/** A plan that says the parts (those not empty) and calls nothing. */
export const speak = (...parts: (string | undefined)[]): TurnPlan => ({ say: join(...parts), calls: [] });

/** A plan that makes the calls and says nothing. */
export const call = (...calls: PlannedCall[]): TurnPlan => ({ say: '', calls });
